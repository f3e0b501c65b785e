import { roleClosureOf } from '../model/roleClosure.ts';
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

/** Whether a role (itself or by inheritance) may read rows of an entity. */
export function canRead(spec: AppSpec, role: string, entity: string): boolean {
  return withAncestors(spec, role).some((r) =>
    grants(own(own(spec.roles.permissions, r) ?? {}, entity)?.read),
  );
}
