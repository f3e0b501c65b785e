/**
 * Facts about a specification that several SQL emitters need: columns and their types,
 * role inheritance, the permissions that apply to an entity. Pure functions of the spec.
 */
import { columnName, tableName } from '../naming.ts';
import type { AppSpec, EntitySpec, FieldSpec, Permission, UpdatePermission } from '../spec/types.ts';
import { profileEntityName } from './compileRuleSql.ts';
import { qualified } from './quote.ts';

export type Target = 'embedded' | 'supabase';

/** `public.<table>` for an entity, quoted as needed. */
export function tableRef(entity: string): string {
  return qualified('public', tableName(entity));
}

export function entityOf(spec: AppSpec, entity: string): EntitySpec {
  const e = spec.entities[entity];
  if (!e) throw new Error(`unknown entity ${entity}`);
  return e;
}

/** The Postgres type of a declared field. */
export function sqlType(f: FieldSpec): string {
  switch (f.type) {
    case 'text':
    case 'longtext':
    case 'email':
    case 'enum':
    case 'status':
    case 'file':
      return 'text';
    case 'number':
    case 'money':
      return 'numeric';
    case 'integer':
      return 'integer';
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'date';
    case 'datetime':
      return 'timestamptz';
    case 'ref':
    case 'user':
      return 'uuid';
    case 'tags':
      return 'text[]';
  }
}

/** The states section of an entity, if it has one. */
export function statesOf(spec: AppSpec, entity: string) {
  return spec.states[entity];
}

/** The allowed values of an enum/status field (status values come from the states section). */
export function enumValues(
  spec: AppSpec,
  entity: string,
  field: string,
  f: FieldSpec,
): readonly string[] | undefined {
  const st = spec.states[entity];
  if (st && st.field === field) return Object.keys(st.states);
  if (f.type === 'enum' || f.type === 'status' || f.type === 'tags') return f.values;
  return undefined;
}

/** The entity a ref/user field references. */
export function referencedEntity(spec: AppSpec, f: FieldSpec): string | undefined {
  if (f.type === 'user') return profileEntityName(spec);
  if (f.type === 'ref') return f.ref;
  return undefined;
}

/** Roles in spec order. */
export function roleNames(spec: AppSpec): string[] {
  return Object.keys(spec.roles.roles);
}

/**
 * Every role a holder of `role` also has (itself first, then what it inherits, transitively).
 *
 * @example
 * impliedRoles(spec, 'admin'); // ['admin', 'agent', 'customer']
 */
export function impliedRoles(spec: AppSpec, role: string): string[] {
  const out: string[] = [];
  const visit = (r: string) => {
    if (out.includes(r)) return;
    out.push(r);
    for (const p of spec.roles.roles[r]?.inherits ?? []) visit(p);
  };
  visit(role);
  return out;
}

/** Roles whose holders count as holding `role` (itself and every role inheriting it), in spec order. */
export function holdersOf(spec: AppSpec, role: string): string[] {
  return roleNames(spec).filter((r) => impliedRoles(spec, r).includes(role));
}

export type Action = 'read' | 'create' | 'update' | 'delete';
export const ACTIONS: readonly Action[] = ['read', 'create', 'update', 'delete'];

/** One role's declared permission for one action on one entity (inheritance is resolved by `app.has_role`). */
export interface Grant {
  role: string;
  action: Action;
  /** `true` or a rule text. */
  when: true | string;
  /** For update: the fields the role may change. */
  fields?: readonly string[];
}

function normalise(p: Permission | undefined): true | string | undefined {
  if (p === undefined || p === false) return undefined;
  return p;
}

/** The grants declared for an entity, role by role (spec order), action by action. */
export function grantsFor(spec: AppSpec, entity: string): Grant[] {
  const out: Grant[] = [];
  for (const role of roleNames(spec)) {
    const perms = spec.roles.permissions[role]?.[entity];
    if (!perms) continue;
    for (const action of ACTIONS) {
      if (action === 'update') {
        const u: UpdatePermission | false | undefined = perms.update;
        if (!u) continue;
        const when = normalise(u.when);
        if (when !== undefined) out.push({ role, action, when, fields: u.fields });
        continue;
      }
      const when = normalise(perms[action]);
      if (when !== undefined) out.push({ role, action, when });
    }
  }
  return out;
}

/**
 * Roles that administer users and roles: those allowed to update every profile row unconditionally
 * (`update: { when: true, ... }` on the profile entity), and every role inheriting them.
 */
export function adminRoles(spec: AppSpec): string[] {
  const profile = profileEntityName(spec);
  if (!profile) return [];
  const direct = grantsFor(spec, profile)
    .filter((g) => g.action === 'update' && g.when === true)
    .map((g) => g.role);
  return roleNames(spec).filter((r) => impliedRoles(spec, r).some((i) => direct.includes(i)));
}

/** The owner fields (`owner: true`) of an entity. */
export function ownerFields(e: EntitySpec): string[] {
  return Object.entries(e.fields)
    .filter(([, f]) => f.owner)
    .map(([n]) => n);
}

/** Column of a field, unquoted. */
export { columnName, tableName };
