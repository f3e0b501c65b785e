import type { AppModel } from '../model/appModel.ts';
import type { Expr, Typed } from '../rules/ast.ts';
import { parsedRule } from './ruleChecker.ts';
import { ruleKey } from './ruleKey.ts';

/**
 * Every rule the browser's runtime checks, checked once at build time: each boolean rule with
 * its entity (screens' `where`, guards, `waitingOn`, validation rules and their `when`,
 * permissions) to its typed tree, and each read permission to its parse tree (the filters RLS
 * implies, src/runtime/impliedReadFilters.ts). Null where a rule does not check: the spec's
 * check reports it, and the runtime leaves it to the server as it always has.
 */
export interface RuleTable {
  typed: Record<string, Typed | null>;
  parsed: Record<string, Expr | null>;
}

/**
 * The rule table of an app (made at build time from the rules the model checked).
 *
 * @example
 * ruleTable(resolve(helpdesk)).typed[ruleKey('ticket', 'requester = me')]?.kind // 'binary'
 */
export function ruleTable(model: AppModel): RuleTable {
  const table: RuleTable = { typed: {}, parsed: {} };
  for (const r of model.rules)
    if (r.expect === 'boolean' && r.entity !== null) table.typed[ruleKey(r.entity, r.text)] = r.typed ?? null;
  for (const p of model.policies)
    if (p.action === 'read' && typeof p.when === 'string') table.parsed[p.when] = parsedRule(p.when);
  return table;
}

/**
 * The table as a module's source: JSON (parsed faster than code), with each tree's positions in
 * the rule text zeroed (nothing in the browser reads them; equal spans compress to nearly nothing).
 */
export function ruleTableModule(table: RuleTable): string {
  const json = JSON.stringify(table, (key, value) => (key === 'span' ? { start: 0, end: 0 } : value));
  return `export default JSON.parse(${JSON.stringify(json)});\n`;
}
