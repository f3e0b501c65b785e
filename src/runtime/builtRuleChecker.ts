import rules from 'virtual:ninefold-rules';
import type { AppModel } from '../model/appModel.ts';
import type { Expr, Typed } from '../rules/ast.ts';
import { ruleKey } from './ruleKey.ts';

/**
 * `ruleChecker.ts` in a build: the trees come from the table the build made of the spec's rules
 * (src/runtime/ruleTable.ts), not from the parser and checker. A rule missing from the table reads
 * as one that does not check, which the runtime leaves to the server: the table holds every rule
 * of the spec the runtime asks about (src/runtime/ruleTable.test.ts proves it for the examples).
 */

/** A boolean rule of `entity`, as the build checked it; null when it did not check. */
export function typedRule(_model: AppModel, entity: string, rule: string): Typed | null {
  const key = ruleKey(entity, rule);
  if (!Object.hasOwn(rules.typed, key)) missing(`${entity}: ${rule}`);
  return rules.typed[key] ?? null;
}

/** A read permission's parse tree, as the build parsed it; null when it did not parse. */
export function parsedRule(rule: string): Expr | null {
  if (!Object.hasOwn(rules.parsed, rule)) missing(rule);
  return rules.parsed[rule] ?? null;
}

const told = new Set<string>();
/** A rule the table lacks is a gap in ruleTable.ts: said once in the console, where tests look. */
function missing(what: string): void {
  if (told.has(what)) return;
  told.add(what);
  console.error(`ninefold: rule not in the build's table (${what})`);
}
