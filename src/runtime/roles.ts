import type { AppSpec } from '../spec/types.ts';

/**
 * The roles a user holds, directly or by inheritance (`admin` inherits `agent` inherits
 * `customer` → all three). Cycles are tolerated.
 *
 * @example
 * effectiveRoles(spec, ['admin']) // ['admin', 'agent', 'customer']
 */
export function effectiveRoles(spec: Pick<AppSpec, 'roles'>, direct: readonly string[]): string[] {
  const seen: string[] = [];
  const visit = (role: string): void => {
    if (seen.includes(role)) return;
    seen.push(role);
    for (const parent of spec.roles.roles[role]?.inherits ?? []) visit(parent);
  };
  for (const r of direct) visit(r);
  return seen;
}
