import type { Typed } from '../rules/ast.ts';
import type { RuleScope } from '../rules/check.ts';
import { type RuleError, ruleError } from '../rules/ruleError.ts';

/** What the model keeps of a rule's check: its typed tree, or why it does not check. */
export type ModelCheck = { ok: true; typed: Typed } | { ok: false; errors: RuleError[] };

/** Every rule check a model's resolution makes, by `modelRuleKey`: made at build time. */
export type ModelRuleTable = Record<string, ModelCheck>;

/** The table's key of one check: the rule's text, the entity in scope and what it must give. */
export function modelRuleKey(text: string, scope: RuleScope): string {
  return JSON.stringify([scope.entity, scope.expect ?? 'boolean', text]);
}

const told = new Set<string>();

/**
 * A check as the build made it. A check the table lacks is a gap in recordModelRuleTable.ts: it
 * reads as a rule that does not check (the server still enforces the rule), said once in the
 * console, where tests look.
 *
 * @example
 * checkFromTable(table, 'requester = me', { entity: 'ticket' }); // { ok: true, typed: … }
 */
export function checkFromTable(table: ModelRuleTable, text: string, scope: RuleScope): ModelCheck {
  const key = modelRuleKey(text, scope);
  const hit = Object.hasOwn(table, key) ? table[key] : undefined;
  if (hit) return hit;
  if (!told.has(key)) {
    told.add(key);
    console.error(`ninefold: rule not in the build's model table (${key})`);
  }
  return {
    ok: false,
    errors: [ruleError('rule/syntax', 'the build did not check this rule', { start: 0, end: text.length })],
  };
}

/** The table as a module's source: JSON, parsed faster than the same data written as code. */
export function modelRuleTableModule(table: ModelRuleTable): string {
  return `export default JSON.parse(${JSON.stringify(JSON.stringify(table))});\n`;
}
