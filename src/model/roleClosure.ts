import type { AppSpec } from '../spec/types.ts';

/**
 * Every role a holder of each role has: the role itself first, then the roles it inherits,
 * transitively, nearest first (breadth-first, in the order `inherits` lists them). Cycles and
 * unknown names are tolerated (the checker reports them): each role appears once.
 *
 * @example
 * roleClosureOf(expenses).get('admin'); // ['admin', 'manager', 'employee']
 */
export function roleClosureOf(spec: Pick<AppSpec, 'roles'>): ReadonlyMap<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  for (const role of Object.keys(spec.roles.roles)) {
    const seen = [role];
    const queue = [...(spec.roles.roles[role]?.inherits ?? [])];
    while (queue.length > 0) {
      const r = queue.shift() as string;
      if (seen.includes(r)) continue;
      seen.push(r);
      queue.push(...(spec.roles.roles[r]?.inherits ?? []));
    }
    out.set(role, seen);
  }
  return out;
}
