/** The rule language: parse, print, describe, check, evaluate. See docs/rule-language.md. */

export { levenshtein, suggest } from '../spec/suggest.ts';
export type * from './ast.ts';
export {
  arithmeticType,
  type CheckResult,
  checkExpr,
  checkRule,
  comparable,
  orderable,
  type RuleScope,
  typeName,
} from './check.ts';
export { describeRule, humanizeWords } from './describe.ts';
export {
  type DataContext,
  type EvalContext,
  effectiveRoles,
  evaluateRule,
  holds,
  normaliseValue,
  type RuleValue,
} from './evaluate.ts';
export {
  constantRuleType,
  fieldNames,
  fieldRuleType,
  IMPLICIT_FIELDS,
  profileEntity,
  ruleTypeOfFieldSpec,
} from './fieldType.ts';
export { KEYWORDS, lex, type Token, type TokenKind } from './lex.ts';
export { MAX_RULE_DEPTH, MAX_RULE_LENGTH, type ParseResult, parseRule } from './parse.ts';
export { isPrintableName, printRule } from './print.ts';
export { type RuleReferences, ruleReferences } from './references.ts';
export { type RuleError, type RuleErrorCode, ruleError } from './ruleError.ts';
