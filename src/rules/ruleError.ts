import type { Span } from './ast.ts';

/** What kind of problem a rule has; the same codes as the spec diagnostics (`src/diagnostics.ts`). */
export type RuleErrorCode = 'rule/syntax' | 'rule/unknown-name' | 'rule/type' | 'rule/scope';

/**
 * A problem in one rule, positioned in the rule text.
 *
 * @example
 * { code: 'rule/unknown-name', message: 'unknown name "requestr"', hint: 'did you mean "requester"?',
 *   span: { start: 0, end: 8 } }
 */
export interface RuleError {
  code: RuleErrorCode;
  message: string;
  hint?: string;
  span: Span;
}

/** Builds a `RuleError`, leaving `hint` out when there is none (keeps objects comparable). */
export function ruleError(code: RuleErrorCode, message: string, span: Span, hint?: string): RuleError {
  return hint === undefined ? { code, message, span } : { code, message, hint, span };
}
