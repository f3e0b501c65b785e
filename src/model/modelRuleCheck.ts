import { checkRule as checkRuleText, type RuleScope } from '../rules/check.ts';
import type { AppSpec } from '../spec/types.ts';
import { type ModelCheck, modelRuleKey } from './modelRuleTable.ts';

export type { ModelCheck } from './modelRuleTable.ts';

let recorder: ((key: string, check: ModelCheck) => void) | undefined;

/**
 * Checks one rule text of `spec` for the model: every check the model makes while it resolves
 * (resolve.ts, checkedRule.ts) comes through here. A build swaps this module for
 * builtModelRuleCheck.ts, which answers from the checks the build made
 * (recordModelRuleTable.ts), so that a tab resolves its model without the rule parser and checker
 * (docs/performance.md, "Where a return visit's time goes").
 *
 * @example
 * checkRule(spec, 'requester = me', { entity: 'ticket' }).ok; // true
 */
export function checkRule(spec: AppSpec, text: string, scope: RuleScope): ModelCheck {
  const r = checkRuleText(spec, text, scope);
  const check: ModelCheck = r.ok ? { ok: true, typed: r.typed } : { ok: false, errors: r.errors };
  recorder?.(modelRuleKey(text, scope), check);
  return check;
}

/** Runs `fn`, handing `record` each check the model makes meanwhile. */
export function recordingChecks<T>(record: (key: string, check: ModelCheck) => void, fn: () => T): T {
  const outer = recorder;
  recorder = record;
  try {
    return fn();
  } finally {
    recorder = outer;
  }
}
