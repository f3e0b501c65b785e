import type { AppModel } from '../model/appModel.ts';

/**
 * The roles a role inherits from, directly or indirectly, nearest first: the model's role closure
 * without the role itself.
 *
 * @example
 * ancestors(model, 'admin'); // ['manager', 'employee']
 */
export function ancestors(model: AppModel, role: string): readonly string[] {
  return model.roleClosure.get(role)?.slice(1) ?? [];
}

/**
 * Every role that holds one of the given roles, directly or by inheritance, in the spec's role
 * order (declared roles the spec does not define are kept at the end, as written).
 */
export function holders(model: AppModel, roles: readonly string[]): string[] {
  const defined = [...model.roleClosure]
    .filter(([, closure]) => closure.some((r) => roles.includes(r)))
    .map(([r]) => r);
  return [...defined, ...roles.filter((r) => !model.roleClosure.has(r))];
}
