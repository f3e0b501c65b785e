import expenses from '../../../examples/expenses/spec.ts';
import helpdesk from '../../../examples/helpdesk/spec.ts';
import tasks from '../../../examples/tasks/spec.ts';
import { resolve } from '../../../src/model/resolve.ts';
import { roleClosureOf } from '../../../src/model/roleClosure.ts';
import { tableName } from '../../../src/naming.ts';
import type { Typed } from '../../../src/rules/ast.ts';
import { checkRule, type DataContext, effectiveRoles, holds } from '../../../src/rules/index.ts';
import { grantBecomes, grantWhen } from '../../../src/spec/grantParts.ts';
import type { AppSpec, Permission } from '../../../src/spec/types.ts';
import { columnFor } from '../../../src/sql/columns.ts';
import { quoteIdent } from '../../../src/sql/quote.ts';
import type { Queryable } from '../../../src/sql/testing/testDb.ts';

/** The reference apps every enforcement suite runs over. */
export const APPS: readonly { name: string; spec: AppSpec }[] = [
  { name: 'helpdesk', spec: helpdesk as AppSpec },
  { name: 'expenses', spec: expenses as AppSpec },
];

/**
 * The multi-tenant reference app, for the suites that seed it with its own values
 * (`tasksSeedValues`): the permission matrix. Not in `APPS` (whose suites seed generically).
 */
export const TASKS_APP: { name: string; spec: AppSpec } = { name: 'tasks', spec: tasks as AppSpec };

export type Action = 'read' | 'create' | 'update' | 'delete';
export const ACTIONS: readonly Action[] = ['read', 'create', 'update', 'delete'];

/** A row keyed by spec field names (plus id, createdAt, updatedAt, version and file fields). */
export type FieldRow = Record<string, unknown>;

const ruleCache = new WeakMap<AppSpec, Map<string, Typed>>();

/** The checked rule, cached; a rule the checker refuses fails the test (the spec is broken). */
export function rule(spec: AppSpec, entity: string, text: string): Typed {
  let cache = ruleCache.get(spec);
  if (!cache) {
    cache = new Map();
    ruleCache.set(spec, cache);
  }
  const key = `${entity}\u0000${text}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const r = checkRule(spec, text, { entity });
  if (!r.ok) throw new Error(`rule "${text}" on ${entity} does not check: ${JSON.stringify(r.errors)}`);
  cache.set(key, r.typed);
  return r.typed;
}

/** A snapshot of the whole database as the evaluator's data context (read as the owner). */
export interface Snapshot extends DataContext {
  byId: Map<string, { entity: string; row: FieldRow }>;
  rolesOf(userId: string): string[];
}

/** Column name → field name for an entity (declared, implicit and implied file fields). */
export function columnToField(spec: AppSpec, entity: string): Map<string, string> {
  const e = spec.entities[entity];
  const m = new Map<string, string>();
  for (const f of ['id', 'createdAt', 'updatedAt', 'version', ...Object.keys(e?.fields ?? {})])
    m.set(columnFor(resolve(spec), entity, f), f);
  if (e?.files) {
    m.set('name', 'name');
    m.set('size_bytes', 'size');
    m.set('mime_type', 'type');
  }
  return m;
}

/** Maps a database row (columns) to a field row. */
export function toFieldRow(spec: AppSpec, entity: string, row: Record<string, unknown>): FieldRow {
  const map = columnToField(spec, entity);
  const out: FieldRow = {};
  for (const [k, v] of Object.entries(row)) out[map.get(k) ?? k] = v;
  return out;
}

/** Reads every row of every entity and every role grant, as the owner. */
export async function snapshot(q: Queryable, spec: AppSpec): Promise<Snapshot> {
  const rows = new Map<string, FieldRow[]>();
  const byId = new Map<string, { entity: string; row: FieldRow }>();
  for (const entity of Object.keys(spec.entities)) {
    const r = await q.query(`select * from ${tableSql(entity)}`);
    const list = r.rows.map((x) => toFieldRow(spec, entity, x));
    rows.set(entity, list);
    for (const row of list) byId.set(String(row.id), { entity, row });
  }
  const grants = await q.query<{ user_id: string; role: string }>('select user_id, role from app.user_roles');
  const roles = new Map<string, string[]>();
  for (const g of grants.rows) roles.set(g.user_id, [...(roles.get(g.user_id) ?? []), g.role]);
  const profile = Object.entries(spec.entities).find(([, e]) => e.profile)?.[0];
  return {
    byId,
    rows: (entity) => rows.get(entity) ?? [],
    get: (entity, id) => {
      const hit = byId.get(id);
      return hit && hit.entity === entity ? hit.row : null;
    },
    profile: (userId) => (profile ? (byId.get(userId)?.row ?? null) : null),
    roles: (userId) => roles.get(userId) ?? [],
    rolesOf: (userId) => roles.get(userId) ?? [],
  };
}

const quoted = quoteIdent;

function permissionHolds(
  spec: AppSpec,
  entity: string,
  p: Permission | undefined,
  row: FieldRow,
  user: { id: string; roles: readonly string[] } | null,
  data: DataContext,
): boolean {
  if (p === undefined || p === false) return false;
  if (p === true) return true;
  return holds(rule(spec, entity, p), { row, user, now: new Date(), roleClosure: roleClosureOf(spec), data });
}

/**
 * Whether `user` (held roles as granted, inheritance followed) may do `action` on `row`,
 * by the spec and the TypeScript evaluator: the expectation the database must meet.
 * For `update`, `field` is the field written and `newRow` the row after the write: some role's
 * `when` must hold on the old row with the field in its list, and some role's `when` on the new row
 * (RLS USING and WITH CHECK).
 */
export function specAllows(
  spec: AppSpec,
  entity: string,
  action: Action,
  row: FieldRow,
  user: { id: string; roles: readonly string[] } | null,
  data: DataContext,
  update?: { field: string; newRow: FieldRow },
): boolean {
  if (!user) return false;
  // A role held through a relationship is nobody's to be granted: anyone may hold it on a row, so
  // its permissions apply where `me is <role>` holds (as the runtime's policies say), and a person
  // reads the rows that make them hold it (their memberships, the scope rows naming them).
  const through = Object.entries(spec.roles.roles).filter(([, r]) => r.through !== undefined);
  const isThrough = new Set(through.map(([n]) => n));
  const granted = [
    ...effectiveRoles(
      roleClosureOf(spec),
      user.roles.filter((r) => !isThrough.has(r)),
    ),
  ];
  const roles = [...granted, ...isThrough];
  if (action === 'read')
    for (const [, r] of through) {
      const t = r.through as { entity: string; field?: string; user?: string };
      if (t.entity === entity && row[t.field ?? t.user ?? ''] === user.id) return true;
    }
  const held = (r: string, p: Permission | undefined): Permission | undefined => {
    if (!isThrough.has(r) || p === undefined || p === false) return p;
    return p === true ? `me is ${r}` : `(me is ${r}) and (${p})`;
  };
  const perms = (r: string) => {
    const p = spec.roles.permissions[r]?.[entity];
    if (!p || !isThrough.has(r)) return p && { ...p, create: grantWhen(p, 'create') };
    return {
      ...p,
      read: held(r, p.read),
      create: held(r, grantWhen(p, 'create')),
      delete: held(r, p.delete),
      update: p.update ? { ...p.update, when: held(r, p.update.when) ?? false } : undefined,
    };
  };
  // A create's WITH CHECK: its rule and its `becomes`, both on the new row.
  if (action === 'create')
    return roles.some((r) => {
      const b = grantBecomes(spec.roles.permissions[r]?.[entity], 'create');
      return (
        permissionHolds(spec, entity, perms(r)?.create, row, user, data) &&
        (!b || permissionHolds(spec, entity, b.becomes, row, user, data))
      );
    });
  if (action !== 'update')
    return roles.some((r) => permissionHolds(spec, entity, perms(r)?.[action], row, user, data));
  if (!update) throw new Error('specAllows(update) needs the field and the new row');
  const oldOk = roles.some((r) => {
    const u = perms(r)?.update;
    return !!u && u.fields.includes(update.field) && permissionHolds(spec, entity, u.when, row, user, data);
  });
  // WITH CHECK: a policy's rule and its `becomes` on the new row.
  const becomes = (u: { becomes?: string }) =>
    u.becomes === undefined || permissionHolds(spec, entity, u.becomes, update.newRow, user, data);
  const newOk = roles.some((r) => {
    const u = perms(r)?.update;
    return !!u && permissionHolds(spec, entity, u.when, update.newRow, user, data) && becomes(u);
  });
  // The update trigger: the permissions that apply to the stored row, one of them with a `becomes`,
  // must let the new row through (one without `becomes`, or one whose `becomes` holds).
  const applying = roles.flatMap((r) => {
    const u = perms(r)?.update;
    return u && permissionHolds(spec, entity, u.when, row, user, data) ? [u] : [];
  });
  const becomesOk = !applying.some((u) => u.becomes !== undefined) || applying.some(becomes);
  return oldOk && newOk && becomesOk;
}

/** Every field some role may update on the entity, in spec field order. */
export function updateFields(spec: AppSpec, entity: string): string[] {
  const set = new Set<string>();
  for (const perms of Object.values(spec.roles.permissions)) {
    const u = perms[entity]?.update;
    if (u) for (const f of u.fields) set.add(f);
  }
  return Object.keys(spec.entities[entity]?.fields ?? {}).filter((f) => set.has(f));
}

/**
 * One field per group of updatable fields that the same roles list (the column rule and the
 * policies treat the fields of a group alike), preferring plain value fields over references.
 */
export function updateFieldGroups(spec: AppSpec, entity: string): string[] {
  const groups = new Map<string, string[]>();
  for (const field of updateFields(spec, entity)) {
    const roles = Object.entries(spec.roles.permissions)
      .filter(([, perms]) => {
        const u = perms[entity]?.update;
        return !!u && u.fields.includes(field);
      })
      .map(([r]) => r)
      .join(',');
    groups.set(roles, [...(groups.get(roles) ?? []), field]);
  }
  const fields = spec.entities[entity]?.fields ?? {};
  return [...groups.values()].map(
    (g) => g.find((f) => !['ref', 'user'].includes(fields[f]?.type ?? '')) ?? (g[0] as string),
  );
}

/** The SQL identifier (quoted when needed) of an entity's table, schema-qualified. */
export function tableSql(entity: string): string {
  return `public.${quoted(tableName(entity))}`;
}

/** The SQL identifier (quoted when needed) of a field's column. */
export function columnSql(spec: AppSpec, entity: string, field: string): string {
  return quoted(columnFor(resolve(spec), entity, field));
}

/** Cases counted per app and suite, printed as one line each at the end of a file. */
export function caseCounter(): { add(app: string, n: number): void; print(suite: string): void } {
  const counts = new Map<string, number>();
  return {
    add(app, n) {
      counts.set(app, (counts.get(app) ?? 0) + n);
    },
    print(suite) {
      for (const [app, n] of counts) console.log(`${suite}: ${app}: ${n} cases`);
    },
  };
}
