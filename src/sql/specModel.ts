/**
 * Accessors the SQL emitters use on the app model (`src/model`): a table by entity, a quoted
 * column, a field's reference target, an entity's permissions. Thin, so the emitters keep their
 * shape; the model is the one place these are worked out (and the one place names are built).
 */
import type { AppModel, ColumnNode, PolicyNode, TableNode } from '../model/index.ts';
import { ACTIONS, type Action, sqlTypeOf } from '../model/index.ts';
import { sqlColumnOf } from '../model/sqlNames.ts';
import type { FieldSpec } from '../spec/types.ts';
import { quoteIdent } from './quote.ts';

export type Target = 'embedded' | 'supabase';
export { ACTIONS, type Action };

/** The table of an entity; an unknown entity is a bug upstream (the spec was validated). */
export function tableOf(model: AppModel, entity: string): TableNode {
  const t = model.tables.get(entity);
  if (!t) throw new Error(`unknown entity ${entity}`);
  return t;
}

/** `public.<table>` for an entity, quoted as needed. */
export function tableRef(model: AppModel, entity: string): string {
  return tableOf(model, entity).ref;
}

/** The quoted column of a field (declared, implicit, file metadata or an alias of one). */
export function colSql(model: AppModel, entity: string, field: string): string {
  return quoteIdent(sqlColumnOf(model.tables.get(entity), field));
}

/** The declared column of a field, if it is one (files and unknown fields are not). */
export function declared(t: TableNode, field: string): ColumnNode | undefined {
  const c = t.byField.get(field);
  return c?.origin === 'declared' ? c : undefined;
}

/** The entity a field of `entity` references (a `ref` field's target, a `user` field's profile). */
export function referenceOf(model: AppModel, entity: string, field: string): string | undefined {
  return model.tables.get(entity)?.byField.get(field)?.references;
}

/** The status field's initial state, when the entity has states. */
export function initialState(t: TableNode): string | undefined {
  const d = t.statusField === undefined ? undefined : t.byField.get(t.statusField)?.default;
  return d === undefined ? undefined : String(d);
}

/** The permissions declared for an entity, role by role (spec order), action by action. */
export function grantsFor(model: AppModel, entity: string): PolicyNode[] {
  return model.policies.filter((p) => p.entity === entity);
}

/** Roles in spec order. */
export function roleNames(model: AppModel): string[] {
  return [...model.roles.keys()];
}

/**
 * Every role a holder of `role` also has (itself first, then what it inherits, transitively).
 *
 * @example
 * impliedRoles(model, 'admin'); // ['admin', 'agent', 'customer']
 */
export function impliedRoles(model: AppModel, role: string): string[] {
  return [...(model.roles.get(role)?.implied ?? [role])];
}

/** Roles whose holders count as holding `role` (itself and every role inheriting it), in spec order. */
export function holdersOf(model: AppModel, role: string): string[] {
  return [...(model.roles.get(role)?.holders ?? [])];
}

/**
 * Roles that administer users and roles: those allowed to update every profile row unconditionally
 * (`update: { when: true, ... }` on the profile entity), and every role inheriting them.
 */
export function adminRoles(model: AppModel): string[] {
  return [...model.roles.values()].filter((r) => r.admin).map((r) => r.name);
}

/** The Postgres type of a declared field. */
export function sqlType(f: FieldSpec): string {
  return sqlTypeOf(f.type);
}
