/**
 * What the behaviour oracles (behaviour.ts, writes.ts) need to know of roles held through a
 * relationship: anyone may hold one on a row, and its permissions carry the relationship
 * (`me is keeper and (...)`), as the model's policies do.
 */

import { roleClosureOf } from '../../src/model/roleClosure.ts';
import { effectiveRoles } from '../../src/rules/index.ts';
import type { AppSpec, EntityPermissions, Permission, TransitionSpec } from '../../src/spec/types.ts';

const relational = (spec: AppSpec, role: string) => spec.roles.roles[role]?.through !== undefined;

/** The roles whose permissions apply to a user's rows: those held, then every relationship role. */
export function oracleRoles(spec: AppSpec, direct: readonly string[]): string[] {
  const held = [...effectiveRoles(roleClosureOf(spec), direct)];
  for (const r of Object.keys(spec.roles.roles)) if (relational(spec, r) && !held.includes(r)) held.push(r);
  return held;
}

/** The permissions, a relationship role's with the relationship joined to each rule. */
export function oraclePermissions(spec: AppSpec): AppSpec['roles']['permissions'] {
  const out: AppSpec['roles']['permissions'] = {};
  for (const [role, byEntity] of Object.entries(spec.roles.permissions)) {
    if (!relational(spec, role)) {
      out[role] = byEntity;
      continue;
    }
    const held = (w: Permission): Permission =>
      w === false ? false : w === true ? `me is ${role}` : `me is ${role} and (${w})`;
    const rewritten: Record<string, EntityPermissions> = {};
    for (const [entity, p] of Object.entries(byEntity)) {
      const q: EntityPermissions = {};
      for (const a of ['read', 'create', 'delete'] as const) {
        const w = p[a];
        if (w !== undefined) q[a] = held(w);
      }
      if (p.update) q.update = { when: held(p.update.when), fields: p.update.fields };
      rewritten[entity] = q;
    }
    out[role] = rewritten;
  }
  return out;
}

/** For a transition naming a relationship role: who may run it, as a rule on the row. */
export function transitionRolesRule(spec: AppSpec, t: TransitionSpec): string | undefined {
  return t.roles.some((r) => relational(spec, r)) ? t.roles.map((r) => `me is ${r}`).join(' or ') : undefined;
}
