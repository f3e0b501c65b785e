/**
 * Facts the SQL emitters need, read from the app model (`src/model`): table references, column
 * types, role inheritance, the permissions of an entity. Thin accessors so the emitters keep
 * their shape; the model is the one place these are worked out.
 */
import { ACTIONS, type Action, sqlTypeOf } from '../model/index.ts';
import { resolve } from '../model/resolve.ts';
import { columnName, tableName } from '../naming.ts';
import type { AppSpec, EntitySpec, FieldSpec } from '../spec/types.ts';
import { quoteIdent } from './quote.ts';

export type Target = 'embedded' | 'supabase';
export { ACTIONS, type Action };

/** `public.<table>` for an entity, quoted as needed. */
export function tableRef(entity: string): string {
  return `public.${quoteTable(entity)}`;
}

function quoteTable(entity: string): string {
  return quoteIdent(tableName(entity));
}

export function entityOf(spec: AppSpec, entity: string): EntitySpec {
  const e = resolve(spec).tables.get(entity)?.spec;
  if (!e) throw new Error(`unknown entity ${entity}`);
  return e;
}

/** The Postgres type of a declared field. */
export function sqlType(f: FieldSpec): string {
  return sqlTypeOf(f.type);
}

/** The states section of an entity, if it has one. */
export function statesOf(spec: AppSpec, entity: string) {
  return spec.states[entity];
}

/** The allowed values of an enum/status/tags field (status values come from the states section). */
export function enumValues(
  spec: AppSpec,
  entity: string,
  field: string,
  _f?: FieldSpec,
): readonly string[] | undefined {
  return resolve(spec)
    .tables.get(entity)
    ?.byField.get(field)
    ?.values?.map((v) => v.value);
}

/** The entity a ref/user field references. */
export function referencedEntity(spec: AppSpec, f: FieldSpec): string | undefined {
  if (f.type === 'user') return resolve(spec).profile;
  if (f.type === 'ref') return f.ref;
  return undefined;
}

/** Roles in spec order. */
export function roleNames(spec: AppSpec): string[] {
  return [...resolve(spec).roles.keys()];
}

/**
 * Every role a holder of `role` also has (itself first, then what it inherits, transitively).
 *
 * @example
 * impliedRoles(spec, 'admin'); // ['admin', 'agent', 'customer']
 */
export function impliedRoles(spec: AppSpec, role: string): string[] {
  return [...(resolve(spec).roles.get(role)?.implied ?? [role])];
}

/** Roles whose holders count as holding `role` (itself and every role inheriting it), in spec order. */
export function holdersOf(spec: AppSpec, role: string): string[] {
  return [...(resolve(spec).roles.get(role)?.holders ?? [])];
}

/** One role's declared permission for one action on one entity (inheritance is resolved by `app.has_role`). */
export interface Grant {
  role: string;
  action: Action;
  /** `true` or a rule text. */
  when: true | string;
  /** For update: the fields the role may change. */
  fields?: readonly string[];
}

/** The grants declared for an entity, role by role (spec order), action by action. */
export function grantsFor(spec: AppSpec, entity: string): Grant[] {
  return resolve(spec)
    .policies.filter((p) => p.entity === entity)
    .map((p) =>
      p.fields
        ? { role: p.role, action: p.action, when: p.when, fields: p.fields }
        : { role: p.role, action: p.action, when: p.when },
    );
}

/**
 * Roles that administer users and roles: those allowed to update every profile row unconditionally
 * (`update: { when: true, ... }` on the profile entity), and every role inheriting them.
 */
export function adminRoles(spec: AppSpec): string[] {
  return [...resolve(spec).roles.values()].filter((r) => r.admin).map((r) => r.name);
}

/** The owner fields (`owner: true`) of an entity. */
export function ownerFields(e: EntitySpec): string[] {
  return Object.entries(e.fields)
    .filter(([, f]) => f.owner)
    .map(([n]) => n);
}

/** Column of a field, unquoted. */
export { columnName, tableName };
