import type { AppSpec } from './types.ts';

/**
 * Roles a validation rule asks another person to hold (`assignee is agent`, not `me is admin`),
 * per entity and field: a form offers only people holding them, so who holds these roles is
 * something the rules themselves make public to anyone who may fill the field.
 *
 * @example
 * rolesNamedByRules(helpdesk); // [{ entity: 'ticket', field: 'assignee', roles: ['agent'] }]
 */
export function rolesNamedByRules(spec: AppSpec): { entity: string; field: string; roles: string[] }[] {
  const out: { entity: string; field: string; roles: string[] }[] = [];
  const known = new Set(Object.keys(spec.roles.roles));
  for (const [entity, rules] of Object.entries(spec.validation)) {
    for (const rule of rules) {
      if (rule.kind !== 'row') continue;
      const roles = new Set<string>();
      for (const m of rule.rule.matchAll(/([A-Za-z_][\w.]*)\s+is\s+(?:not\s+)?([A-Za-z_]\w*)/g)) {
        const [, subject = '', role = ''] = m;
        if (subject !== 'me' && known.has(role)) roles.add(role);
      }
      if (roles.size === 0) continue;
      const field = rule.field ?? spec.errors[rule.error]?.field?.split('.')[1];
      if (field) out.push({ entity, field, roles: [...roles].sort() });
    }
  }
  return out;
}
