import type { Expr, Typed } from '../rules/ast.ts';
import { ruleSites } from '../spec/ruleSites.ts';
import type { AppSpec } from '../spec/types.ts';
import { parsedRule, typedRule } from './ruleChecker.ts';
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
 * The rule table of a spec.
 *
 * @example
 * ruleTable(helpdesk).typed[ruleKey('ticket', 'requester = me')]?.kind // 'binary'
 */
export function ruleTable(spec: AppSpec): RuleTable {
  const table: RuleTable = { typed: {}, parsed: {} };
  for (const site of ruleSites(spec)) {
    if (site.expect !== 'boolean' || site.entity === null) continue;
    table.typed[ruleKey(site.entity, site.text)] = typedRule(spec, site.entity, site.text);
  }
  for (const perms of Object.values(spec.roles.permissions)) {
    for (const p of Object.values(perms)) {
      if (typeof p.read === 'string') table.parsed[p.read] = parsedRule(p.read);
    }
  }
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
