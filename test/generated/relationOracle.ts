/**
 * What the behaviour oracles (behaviour.ts, writes.ts) need to know of roles held through a
 * relationship: anyone may hold one on a row, and its permissions carry the relationship
 * (`me is keeper and (...)`), as the model's policies do.
 */

import { resolve } from '../../src/model/resolve.ts';
import { roleClosureOf } from '../../src/model/roleClosure.ts';
import { effectiveRoles } from '../../src/rules/index.ts';
import type { AppSpec, EntityPermissions, TransitionSpec } from '../../src/spec/types.ts';

const relational = (spec: AppSpec, role: string) => spec.roles.roles[role]?.through !== undefined;

/** The roles whose permissions apply to a user's rows: those held, then every relationship role. */
export function oracleRoles(spec: AppSpec, direct: readonly string[]): string[] {
  const held = [...effectiveRoles(roleClosureOf(spec), direct)];
  for (const r of Object.keys(spec.roles.roles)) if (relational(spec, r) && !held.includes(r)) held.push(r);
  return held;
}

/**
 * The permissions, a relationship role's as the model enforces them: the relationship joined to
 * each rule, and its holders' own rows (memberships, scope rows naming them) readable.
 */
export function oraclePermissions(spec: AppSpec): AppSpec['roles']['permissions'] {
  const out: AppSpec['roles']['permissions'] = {};
  for (const [role, byEntity] of Object.entries(spec.roles.permissions))
    if (!relational(spec, role)) out[role] = byEntity;
  for (const p of resolve(spec).policies) {
    if (!relational(spec, p.role)) continue;
    const byEntity = out[p.role] ?? {};
    out[p.role] = byEntity;
    const q: EntityPermissions = byEntity[p.entity] ?? {};
    byEntity[p.entity] = q;
    if (p.action === 'update')
      q.update = {
        when: p.when,
        fields: p.fields ?? [],
        ...(p.becomes
          ? { becomes: p.becomes.text, ...(p.declaredError ? { error: p.declaredError } : {}) }
          : {}),
      };
    else if (p.action === 'create' && p.becomes)
      q.create = {
        when: p.when,
        becomes: p.becomes.text,
        ...(p.declaredError ? { error: p.declaredError } : {}),
      };
    else q[p.action] = p.when;
  }
  return out;
}

/** For a transition naming a relationship role: who may run it, as a rule on the row. */
export function transitionRolesRule(spec: AppSpec, t: TransitionSpec): string | undefined {
  return t.roles.some((r) => relational(spec, r)) ? t.roles.map((r) => `me is ${r}`).join(' or ') : undefined;
}
