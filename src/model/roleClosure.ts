import type { AppSpec } from '../spec/types.ts';

/**
 * Each role of the app → itself and every role it inherits, directly or not: itself first, then
 * depth-first in `inherits` order (cycles are tolerated: a role is listed once). The one walk of
 * role inheritance; everything else (the rule evaluator, the linter, the runtime) reads this map.
 *
 * @example
 * roleClosureOf(helpdesk).get('admin'); // ['admin', 'agent', 'customer']
 */
export function roleClosureOf(spec: Pick<AppSpec, 'roles'>): ReadonlyMap<string, readonly string[]> {
  const roles = spec.roles.roles;
  const closure = new Map<string, readonly string[]>();
  for (const role of Object.keys(roles)) {
    const out: string[] = [];
    const visit = (r: string) => {
      if (out.includes(r)) return;
      out.push(r);
      for (const p of (Object.hasOwn(roles, r) ? roles[r]?.inherits : undefined) ?? []) visit(p);
    };
    visit(role);
    closure.set(role, out);
  }
  return closure;
}
