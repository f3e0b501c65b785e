import type { AppSpec } from '../spec/types.ts';

/**
 * Every role a holder of each role has: the role itself first, then the roles it inherits,
 * transitively, nearest first (breadth-first, in the order `inherits` lists them). Cycles and
 * unknown names are tolerated (the checker reports them): each role appears once. The one walk of
 * role inheritance; everything else (the rule evaluator, the linter, the runtime, the document)
 * reads this map.
 *
 * @example
 * roleClosureOf(expenses).get('admin'); // ['admin', 'manager', 'employee']
 */
export function roleClosureOf(spec: Pick<AppSpec, 'roles'>): ReadonlyMap<string, readonly string[]> {
  const roles = spec.roles.roles;
  // Own properties only: a role named `constructor` or `toString` is a name, not Object's member.
  const inherits = (r: string) => (Object.hasOwn(roles, r) ? (roles[r]?.inherits ?? []) : []);
  const out = new Map<string, readonly string[]>();
  for (const role of Object.keys(roles)) {
    const seen = [role];
    const queue = [...inherits(role)];
    while (queue.length > 0) {
      const r = queue.shift() as string;
      if (seen.includes(r)) continue;
      seen.push(r);
      queue.push(...inherits(r));
    }
    out.set(role, seen);
  }
  return out;
}
