import type { AppModel } from '../model/appModel.ts';
import type { Action, PolicyNode } from '../model/policy.ts';

const cache = new WeakMap<AppModel, Map<string, PolicyNode>>();

/**
 * The policy granting `role` the `action` on `entity` (the model's, from the roles section), or
 * undefined when the role is not granted it. Indexed once per model: `can` asks this per row.
 *
 * @example
 * rolePolicy(model, 'customer', 'ticket', 'read')?.when // 'requester = me'
 */
export function rolePolicy(
  model: AppModel,
  role: string,
  entity: string,
  action: Action,
): PolicyNode | undefined {
  let index = cache.get(model);
  if (!index) {
    index = new Map(model.policies.map((p) => [`${p.role}\u0000${p.entity}\u0000${p.action}`, p]));
    cache.set(model, index);
  }
  return index.get(`${role}\u0000${entity}\u0000${action}`);
}
