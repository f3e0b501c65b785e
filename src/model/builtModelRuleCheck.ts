import table from 'virtual:ninefold-model-rules';
import type { RuleScope } from '../rules/check.ts';
import type { AppSpec } from '../spec/types.ts';
import { checkFromTable, type ModelCheck } from './modelRuleTable.ts';

export type { ModelCheck } from './modelRuleTable.ts';

/**
 * `modelRuleCheck.ts` in a build: the model's rule checks come from the table the build made of
 * the spec (`virtual:ninefold-model-rules`, recordModelRuleTable.ts), not from the parser and
 * checker, which stay out of the build (src/model/modelRuleTable.test.ts proves the model is the same).
 */
export function checkRule(_spec: AppSpec, text: string, scope: RuleScope): ModelCheck {
  return checkFromTable(table, text, scope);
}
