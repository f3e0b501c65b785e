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
