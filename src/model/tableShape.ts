import type { AppModel } from './appModel.ts';
import type { TableNode } from './table.ts';

/**
 * What shapes the rows stored in a table, as canonical text: its columns (name, type, null-ness,
 * default, allowed values), its unique/values/CHECK constraints with the rules behind them, and
 * its foreign keys. Functions, policies, grants and triggers are not part of it: running the
 * migration again replaces them in place, while a changed shape means stored data may no longer
 * fit. Validation rules enforced by triggers are left out for the same reason.
 */
export function tableShapeText(t: TableNode): string {
  return JSON.stringify({
    table: t.table,
    profile: t.profile,
    files: t.files,
    columns: t.columns.map((c) => [
      c.column,
      c.sqlType,
      c.notNull,
      c.default ?? null,
      c.values?.map((v) => v.value) ?? null,
    ]),
    constraints: t.constraints
      .filter((c) => c.enforcedBy !== 'trigger')
      .map((c) => [c.name, c.kind, c.rule === undefined ? null : (t.rules[c.rule]?.spec ?? null)]),
    references: t.references.map((r) => [r.column, r.target, r.onDelete]),
  });
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * A hash of each table's shape, keyed by its quoted name (`public.ticket`). Two models whose
 * hashes agree for a table store the same rows in it.
 *
 * @example
 * await tableShapes(resolve(spec)); // { 'public.ticket': '3f1c…', ... }
 */
export async function tableShapes(model: AppModel): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of model.tables.values()) out[t.ref] = await sha256(tableShapeText(t));
  return out;
}
