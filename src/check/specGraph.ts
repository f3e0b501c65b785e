import { roleClosureOf } from '../model/roleClosure.ts';
import { roleRelation } from '../spec/relationRoles.ts';
import { own } from '../spec/specRefs.ts';
import type { AppSpec, EntityStatesSpec } from '../spec/types.ts';

/**
 * States reachable from the initial state by following transitions (whatever their guards).
 *
 * @example
 * reachableStates(spec.states.ticket); // Set { 'open', 'solved', 'closed' }
 */
export function reachableStates(st: EntityStatesSpec): Set<string> {
  const seen = new Set<string>();
  // Every state a new row may start in: the initial one and those chosen by a rule.
  const starts = [st.initial, ...(st.initialWhen ?? []).map((r) => r.state)].filter((s) =>
    Object.hasOwn(st.states, s),
  );
  const queue = [...new Set(starts)];
  for (const s of queue) seen.add(s);
  while (queue.length > 0) {
    const s = queue.shift()!;
    for (const t of Object.values(st.transitions)) {
      if (t.from.includes(s) && Object.hasOwn(st.states, t.to) && !seen.has(t.to)) {
        seen.add(t.to);
        queue.push(t.to);
      }
    }
  }
  return seen;
}

/**
 * A role and every role it inherits from, directly or not (cycles are tolerated).
 *
 * @example
 * withAncestors(spec, 'admin'); // ['admin', 'agent', 'customer']
 */
export function withAncestors(spec: AppSpec, role: string): string[] {
  // The model's closure: inheritance is walked in one place (src/model/roleClosure.ts).
  return [...(roleClosureOf(spec).get(role) ?? [role])];
}

/**
 * The roles that hold a role: itself and every role inheriting from it.
 *
 * @example
 * holdersOf(spec, 'customer'); // ['customer', 'agent', 'admin']
 */
export function holdersOf(spec: AppSpec, role: string): string[] {
  return Object.keys(spec.roles.roles).filter((r) => withAncestors(spec, r).includes(role));
}

/** Whether a permission grants anything at all (`false` and absent grant nothing). */
export function grants(p: boolean | string | undefined): boolean {
  return p !== undefined && p !== false;
}

/**
 * Whether a role (itself or by inheritance) may read rows of an entity. A role held through a
 * relationship also reads the rows that make one hold it (`project` for `project.lead`, the
 * memberships for a membership role: the model's implicit read), and whatever a relationship role
 * it always comes with reads (a team's owner is a member of it when the member role's values
 * include the owner's).
 */
export function canRead(spec: AppSpec, role: string, entity: string): boolean {
  const rel = roleRelation(spec, role);
  if (rel && (rel.kind === 'field' ? rel.scope : rel.entity) === entity) return true;
  return [...withAncestors(spec, role), ...impliedRelationRoles(spec, role)].some((r) =>
    grants(own(own(spec.roles.permissions, r) ?? {}, entity)?.read),
  );
}

/** The other relationship roles held wherever `role` is: the same relationship, with no narrower values. */
function impliedRelationRoles(spec: AppSpec, role: string): string[] {
  const rel = roleRelation(spec, role);
  if (!rel) return [];
  return Object.keys(spec.roles.roles).filter((other) => {
    const o = roleRelation(spec, other);
    if (other === role || !o) return false;
    if (rel.kind === 'field') return o.kind === 'field' && o.scope === rel.scope && o.field === rel.field;
    if (o.kind !== 'membership') return false;
    const same = rel.entity === o.entity && rel.user === o.user && rel.scopeField === o.scopeField;
    if (!same) return false;
    if (o.values === undefined) return true;
    return rel.values !== undefined && rel.role === o.role && rel.values.every((v) => o.values?.includes(v));
  });
}
