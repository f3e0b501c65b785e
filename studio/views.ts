import type { AppModel } from '../src/model/appModel.ts';
import { ACTIONS, type Action } from '../src/model/policy.ts';

/** One cell of the permission matrix: whether the role may, and the rule that decides it. */
export interface MatrixCell {
  action: Action;
  /** `always`, `never`, or the rule texts (any one of them lets the role). */
  decides: 'always' | 'never' | string[];
  /** The roles whose permission it is, when inherited (`agent` for an administrator). */
  from: string[];
  /**
   * For create and update: what the written row must become (`role != owner or me is orgOwner`)
   * for the permissions that ask, and the catalogue code a failure answers with.
   */
  becomes: { rule: string; error: string }[];
}

/** One row of the matrix: a role and an entity, a cell per operation. */
export interface MatrixRow {
  role: string;
  roleLabel: string;
  entity: string;
  entityLabel: string;
  cells: MatrixCell[];
}

/**
 * Role × entity × operation, each cell with the rule that decides it: the role's own permission
 * and every inherited one (a holder of `admin` also holds what `agent` may), as the database's
 * row-level security grants it (any policy of the role's closure lets it through).
 *
 * @example
 * permissionMatrix(model).find((r) => r.role === 'customer' && r.entity === 'ticket')?.cells[0];
 * // { action: 'read', decides: ['requester = me'], from: ['customer'] }
 */
export function permissionMatrix(model: AppModel): MatrixRow[] {
  const rows: MatrixRow[] = [];
  for (const [role, node] of model.roles) {
    for (const [entity, table] of model.tables) {
      const cells = ACTIONS.map((action) => cellOf(model, node.implied, entity, action));
      rows.push({ role, roleLabel: node.label, entity, entityLabel: table.label, cells });
    }
  }
  return rows;
}

function cellOf(model: AppModel, implied: readonly string[], entity: string, action: Action): MatrixCell {
  const policies = model.policies.filter(
    (p) => p.entity === entity && p.action === action && !p.implicit && implied.includes(p.role),
  );
  const from = [...new Set(policies.map((p) => p.role))];
  const becomes = [
    ...new Map(
      policies.flatMap((p) =>
        p.becomes
          ? [[`${p.becomes.text}\u0000${p.error}`, { rule: p.becomes.text, error: p.error ?? 'FORBIDDEN' }]]
          : [],
      ),
    ).values(),
  ];
  if (policies.length === 0) return { action, decides: 'never', from, becomes };
  if (policies.some((p) => p.when === true)) return { action, decides: 'always', from, becomes };
  return { action, decides: [...new Set(policies.map((p) => String(p.when)))], from, becomes };
}

/** The sections of the document, for the outline: each `##` heading with its line and offset. */
export interface OutlineEntry {
  title: string;
  line: number;
  from: number;
}

/**
 * The document's `##` headings (the nine sections, and any other the author wrote), in order.
 *
 * @example
 * outline('# App\n\n## 1. Purpose\n'); // [{ title: '1. Purpose', line: 3, from: 7 }]
 */
export function outline(text: string): OutlineEntry[] {
  const out: OutlineEntry[] = [];
  let from = 0;
  let line = 1;
  let fenced = false;
  for (const row of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(row)) fenced = !fenced;
    const m = fenced ? null : /^##\s+(.+?)\s*#*\s*$/.exec(row);
    if (m?.[1]) out.push({ title: m[1], line, from });
    from += row.length + 1;
    line++;
  }
  return out;
}
