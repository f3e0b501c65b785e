import type { AppSpec, RoleThroughSpec } from './types.ts';

/**
 * A relationship role resolved: which entity's rows it is held on (`scope`), and how.
 * - `field`: the scope entity's own `user` field names the holder (`project.lead`);
 * - `membership`: rows of `entity` pair a person (`user`) with a scope row (`scopeField`), with
 *   `role` in `values` when given.
 */
export type RoleRelation =
  | { kind: 'field'; scope: string; field: string }
  | {
      kind: 'membership';
      scope: string;
      entity: string;
      user: string;
      scopeField: string;
      role?: string;
      values?: readonly string[];
    };

const own = <T>(rec: Readonly<Record<string, T>> | undefined, key: string): T | undefined =>
  rec && Object.hasOwn(rec, key) ? rec[key] : undefined;

/** The role's `through`, resolved (undefined for a granted role or one whose `through` is malformed). */
export function roleRelation(
  spec: Pick<AppSpec, 'roles' | 'entities'>,
  role: string,
): RoleRelation | undefined {
  const t = own(spec.roles.roles, role)?.through;
  return t ? relationOfThrough(spec, t) : undefined;
}

/** `relationOf` for a `through` (undefined when it names neither form completely). */
export function relationOfThrough(
  spec: Pick<AppSpec, 'entities'>,
  t: RoleThroughSpec,
): RoleRelation | undefined {
  if (t.field !== undefined) return { kind: 'field', scope: t.entity, field: t.field };
  if (t.user === undefined || t.scope === undefined) return undefined;
  const scope = own(own(spec.entities, t.entity)?.fields, t.scope)?.ref;
  if (scope === undefined) return undefined;
  return {
    kind: 'membership',
    scope,
    entity: t.entity,
    user: t.user,
    scopeField: t.scope,
    ...(t.role !== undefined ? { role: t.role } : {}),
    ...(t.values !== undefined ? { values: t.values } : {}),
  };
}

/** Whether the role is held through a relationship (has `through`). */
export function isRelationRole(spec: Pick<AppSpec, 'roles'>, role: string): boolean {
  return own(spec.roles.roles, role)?.through !== undefined;
}

/**
 * How a row of `entity` reaches the role's scope entity: `{ via: null }` on the scope entity itself,
 * `{ via: field }` through its one reference field to the scope entity, or why there is no path
 * (none, or several fields to choose from).
 *
 * @example
 * relationPath(spec, 'projectLead', 'task') // { ok: true, via: 'project' }
 */
export function relationPath(
  spec: Pick<AppSpec, 'roles' | 'entities'>,
  role: string,
  entity: string,
): { ok: true; via: string | null } | { ok: false; message: string; hint: string } {
  const r = roleRelation(spec, role);
  if (!r) return { ok: false, message: `"${role}" is not held through a relationship`, hint: 'add through' };
  if (entity === r.scope) return { ok: true, via: null };
  const fields = Object.entries(own(spec.entities, entity)?.fields ?? {})
    .filter(([, f]) => f.type === 'ref' && f.ref === r.scope)
    .map(([name]) => name);
  if (fields.length === 1) return { ok: true, via: fields[0] as string };
  if (fields.length === 0)
    return {
      ok: false,
      message: `role "${role}" is held on ${r.scope} rows, and ${entity} has no reference to ${r.scope}`,
      hint: `add a field { type: 'ref', ref: '${r.scope}' } to ${entity} (a row under a ${r.scope} names it directly)`,
    };
  return {
    ok: false,
    message: `role "${role}" is held on ${r.scope} rows, and ${entity} refers to ${r.scope} through ${fields.join(' and ')}: which one is meant is not clear`,
    hint: `keep one reference from ${entity} to ${r.scope}, or give the permission to a role whose rule names the field`,
  };
}

/**
 * The relationship written in the rule language, for a row of `entity` reaching the scope through
 * `via`, with the person written `subject` (a rule expression valid inside a `count` over the
 * membership or scope entity: `me`, `me.field`, `this.field`). The rule is never unknown: an empty
 * person, or a row under no scope row, holds nothing.
 *
 * @example
 * relationRuleText(rel, 'project', 'me') // count(project where id = this.project and lead = me) >= 1
 */
export function relationRuleText(relation: RoleRelation, via: string | null, subject: string): string {
  const scopeRow = via === null ? 'this' : `this.${via}`;
  if (relation.kind === 'field') {
    if (via === null)
      return `(${subject} is not empty and ${relation.field} is not empty and ${relation.field} = ${subject})`;
    return `count(${relation.scope} where id = ${scopeRow} and ${relation.field} = ${subject}) >= 1`;
  }
  const values =
    relation.role !== undefined && relation.values !== undefined
      ? ` and ${relation.role} in (${relation.values.map((v) => JSON.stringify(v)).join(', ')})`
      : '';
  return `count(${relation.entity} where ${relation.scopeField} = ${scopeRow} and ${relation.user} = ${subject}${values}) >= 1`;
}
