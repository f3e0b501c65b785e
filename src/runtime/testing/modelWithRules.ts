import type { AppModel } from '../../model/appModel.ts';
import { resolve } from '../../model/resolve.ts';
import type { AppSpec } from '../../spec/types.ts';

/**
 * The model of `spec` with `rules` added as row validation rules of `entity`. The runtime reads a
 * rule's typed tree from the rules the model checked (`model.rules`), as a build does: a test's own
 * rule text must be a rule of the app to be read at all.
 *
 * @example
 * whereFilters(modelWithRules(spec, 'ticket', 'assignee = me'), 'ticket', 'assignee = me', user);
 */
export function modelWithRules(spec: AppSpec, entity: string, ...rules: string[]): AppModel {
  const added = rules.map((rule) => ({ kind: 'row' as const, rule, error: 'RULE_UNDER_TEST' }));
  return resolve({
    ...spec,
    validation: { ...spec.validation, [entity]: [...(spec.validation[entity] ?? []), ...added] },
  });
}
