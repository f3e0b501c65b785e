import type { AppSpec } from '../spec/types.ts';

/**
 * The roles a role inherits from, directly or indirectly, nearest first (breadth-first, in the
 * order `inherits` lists them). Cycles and unknown names are tolerated: the checker reports them.
 *
 * @example
 * ancestors(spec, 'admin'); // ['manager', 'employee']
 */
export function ancestors(spec: AppSpec, role: string): string[] {
  const seen = new Set<string>([role]);
  const out: string[] = [];
  const queue = [...(spec.roles.roles[role]?.inherits ?? [])];
  while (queue.length > 0) {
    const r = queue.shift() as string;
    if (seen.has(r)) continue;
    seen.add(r);
    out.push(r);
    queue.push(...(spec.roles.roles[r]?.inherits ?? []));
  }
  return out;
}

/**
 * The roles that inherit from a role, directly or indirectly, in the spec's role order.
 *
 * @example
 * descendants(spec, 'employee'); // ['manager', 'admin']
 */
export function descendants(spec: AppSpec, role: string): string[] {
  return Object.keys(spec.roles.roles).filter((r) => r !== role && ancestors(spec, r).includes(role));
}

/**
 * Every role that holds one of the given roles, directly or by inheritance, in the spec's role
 * order (declared roles the spec does not define are kept at the end, as written).
 */
export function holders(spec: AppSpec, roles: readonly string[]): string[] {
  const defined = Object.keys(spec.roles.roles).filter(
    (r) => roles.includes(r) || ancestors(spec, r).some((a) => roles.includes(a)),
  );
  return [...defined, ...roles.filter((r) => !(r in spec.roles.roles))];
}
