import type { Filter } from '../backend/types.ts';
import type { AppModel } from '../model/appModel.ts';

/** The rows that show a person holds a relationship role somewhere: one query per such role. */
export interface HeldQuery {
  role: string;
  entity: string;
  filters: readonly Filter[];
}

/**
 * For each role held through a relationship: the rows whose existence means the user holds it on
 * some row (a membership of theirs with one of the role's values; a scope row naming them). A
 * screen in such a role's navigation is theirs when one exists (the rows are readable to the
 * person they name: docs/rule-language.md, "Roles held through a relationship").
 *
 * @example
 * heldQueries(model, 'u1')
 * // [{ role: 'teamMember', entity: 'membership', filters: [{ field: 'person', op: 'eq', value: 'u1' },
 * //   { field: 'role', op: 'in', value: ['member', 'owner'] }] }, ...]
 */
export function heldQueries(model: Pick<AppModel, 'roles'>, userId: string): HeldQuery[] {
  const out: HeldQuery[] = [];
  for (const [role, r] of model.roles) {
    const t = r.through;
    if (!t) continue;
    if (t.kind === 'field') {
      out.push({ role, entity: t.scope, filters: [{ field: t.field, op: 'eq', value: userId }] });
      continue;
    }
    const filters: Filter[] = [{ field: t.user, op: 'eq', value: userId }];
    if (t.role !== undefined && t.values !== undefined)
      filters.push({ field: t.role, op: 'in', value: t.values });
    out.push({ role, entity: t.entity, filters });
  }
  return out;
}
