import type { Diagnostic } from '../../diagnostics.ts';
import { grantWhen } from '../../spec/grantParts.ts';
import { at } from '../../spec/specShape.ts';
import type { AppSpec } from '../../spec/types.ts';
import { withAncestors } from '../specGraph.ts';

/**
 * `unique` fields a role may write on an entity whose rows it cannot all read: a collision answers
 * "taken" about a row the writer may not see (issue 11, finding 7; docs/security.md,
 * "Non-interference"). A field only readers of every row write (an admin) is not reported.
 *
 * @example
 * uniqueOnHiddenRows(spec); // [{ code: 'lint/unique-on-hidden-rows', path: 'entities.team.fields.code.unique', ... }]
 */
export function uniqueOnHiddenRows(spec: AppSpec): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const [entity, e] of Object.entries(spec.entities)) {
    for (const [field, f] of Object.entries(e.fields)) {
      if (!f.unique) continue;
      const roles = Object.keys(spec.roles.roles).filter((role) => {
        const perms = withAncestors(spec, role).map((r) => spec.roles.permissions[r]?.[entity]);
        const writes = perms.some(
          (p) =>
            (grantWhen(p, 'create') ?? false) !== false ||
            (typeof p?.update === 'object' && p.update.when !== false && p.update.fields.includes(field)),
        );
        const readsAll = perms.some((p) => p?.read === true);
        return writes && !readsAll;
      });
      if (roles.length === 0) continue;
      out.push({
        code: 'lint/unique-on-hidden-rows',
        severity: 'warning',
        path: at(at(at(at('entities', entity), 'fields'), field), 'unique'),
        message: `${entity}.${field} is unique, and ${roles.map((r) => `"${r}"`).join(', ')} may write it without reading every ${entity}: a taken value tells them a hidden row has it`,
        hint: 'let only roles that read every row write the field, scope the value (e.g. per owner), or accept the disclosure',
      });
    }
  }
  return out;
}
