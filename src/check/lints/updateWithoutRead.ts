import type { Diagnostic } from '../../diagnostics.ts';
import { at } from '../../spec/specShape.ts';
import type { AppSpec } from '../../spec/types.ts';
import { canRead, grants } from '../specGraph.ts';

/**
 * Roles allowed to update fields of an entity they cannot read (own or inherited read):
 * they could never see the rows to edit them.
 *
 * @example
 * updateWithoutRead(spec); // [{ code: 'lint/update-without-read', path: 'roles.permissions.agent.ticket.update', ... }]
 */
export function updateWithoutRead(spec: AppSpec): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const [role, perms] of Object.entries(spec.roles.permissions)) {
    for (const [en, p] of Object.entries(perms)) {
      if (!p.update || !grants(p.update.when) || p.update.fields.length === 0) continue;
      if (canRead(spec, role, en)) continue;
      out.push({
        code: 'lint/update-without-read',
        severity: 'warning',
        path: at(at(at('roles.permissions', role), en), 'update'),
        message: `role "${role}" may update ${en} fields (${p.update.fields.join(', ')}) but cannot read ${en} rows`,
        hint: `add read permission for "${role}" on ${en}`,
      });
    }
  }
  return out;
}
