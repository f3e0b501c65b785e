import type { Diagnostic } from '../../diagnostics.ts';
import { grantWhen } from '../../spec/grantParts.ts';
import { ruleSites } from '../../spec/ruleSites.ts';
import { at } from '../../spec/specShape.ts';
import type { AppSpec } from '../../spec/types.ts';
import { grants, withAncestors } from '../specGraph.ts';

/**
 * Roles that can do nothing: no permission, no transition and no declared call, neither
 * their own nor inherited, and named by no rule (`me is orgOwner` in another role's permission
 * is what a role held through a relationship may exist for).
 *
 * @example
 * idleRoles(spec); // [{ code: 'lint/idle-role', path: 'roles.roles.auditor', ... }]
 */
export function idleRoles(spec: AppSpec): Diagnostic[] {
  const active = new Set<string>();
  for (const [role, perms] of Object.entries(spec.roles.permissions)) {
    for (const p of Object.values(perms)) {
      const update = p.update ? grants(p.update.when) : false;
      if (grants(p.read) || grants(grantWhen(p, 'create')) || grants(p.delete) || update) active.add(role);
    }
  }
  for (const st of Object.values(spec.states)) {
    for (const t of Object.values(st.transitions)) for (const r of t.roles) active.add(r);
  }
  for (const c of Object.values(spec.calls.declared)) for (const r of c.roles) active.add(r);
  for (const site of ruleSites(spec))
    for (const m of site.text.matchAll(/\bme\s+is\s+(?:not\s+)?([A-Za-z_]\w*)/g)) active.add(m[1] ?? '');
  const out: Diagnostic[] = [];
  for (const role of Object.keys(spec.roles.roles)) {
    if (withAncestors(spec, role).some((r) => active.has(r))) continue;
    out.push({
      code: 'lint/idle-role',
      severity: 'warning',
      path: at('roles.roles', role),
      message: `role "${role}" can do nothing: no permission, transition or call, own or inherited`,
      hint: `add permissions under roles.permissions.${role}, or remove the role`,
    });
  }
  return out;
}
