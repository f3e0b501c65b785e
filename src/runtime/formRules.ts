import type { AppModel } from '../model/appModel.ts';
import type { ValidationRuleSpec } from '../spec/types.ts';

/**
 * One validation rule of an entity as a form reads it: the rule, its position (constraint names
 * and `ConstraintNode.rule` use it) and the field of the entity its message attaches to — the
 * rule's own field, else its catalogue code's (`errors.X.field`, `entity.field`), else none (the
 * form's own message).
 */
export interface FormRule {
  rule: ValidationRuleSpec;
  index: number;
  target: string | undefined;
}

const cache = new WeakMap<AppModel, Map<string, readonly FormRule[]>>();

/**
 * The entity's validation rules (the model's `TableNode.rules`, spec order) with the field each
 * message attaches to. Worked out once per model and entity: forms ask on every keystroke.
 *
 * @example
 * formRules(resolve(expenses), 'line').find((r) => r.rule.error === 'MILEAGE_DISTANCE_REQUIRED')?.target;
 * // 'distanceKm'
 */
export function formRules(model: AppModel, entity: string): readonly FormRule[] {
  let perModel = cache.get(model);
  if (!perModel) {
    perModel = new Map();
    cache.set(model, perModel);
  }
  const hit = perModel.get(entity);
  if (hit) return hit;
  const rules = (model.tables.get(entity)?.rules ?? []).map((n) => {
    const [owner, field] = (model.errors.get(n.spec.error)?.field ?? '').split('.');
    return { rule: n.spec, index: n.index, target: n.spec.field ?? (owner === entity ? field : undefined) };
  });
  perModel.set(entity, rules);
  return rules;
}
