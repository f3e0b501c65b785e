import type { AppModel } from '../model/appModel.ts';

/**
 * The roles a user holds, directly or by inheritance (`admin` inherits `agent` inherits
 * `customer` → all three): the union of the model's resolved closures (`RoleNode.implied`), in
 * the order first reached. A role the model does not know counts as itself only.
 *
 * @example
 * effectiveRoles(model, ['admin']) // ['admin', 'agent', 'customer']
 */
export function effectiveRoles(model: Pick<AppModel, 'roles'>, direct: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const r of direct) for (const i of model.roles.get(r)?.implied ?? [r]) seen.add(i);
  return [...seen];
}

/**
 * The roles whose permissions apply to a user's rows: those held (`effectiveRoles`), then every
 * role held through a relationship, which anyone may hold on a row (its policy's rule carries the
 * relationship, so the row decides).
 *
 * @example
 * rolesOnRows(model, ['member']) // ['member', 'projectLead', 'teamMember']
 */
export function rolesOnRows(model: Pick<AppModel, 'roles'>, direct: readonly string[]): string[] {
  const held = effectiveRoles(model, direct);
  for (const [name, r] of model.roles) if (r.through && !held.includes(name)) held.push(name);
  return held;
}
