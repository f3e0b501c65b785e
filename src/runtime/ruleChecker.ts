import type { AppModel } from '../model/appModel.ts';
import type { Expr, Typed } from '../rules/ast.ts';
import { parseRule } from '../rules/parse.ts';
import { ruleKey } from './ruleKey.ts';

/**
 * A spec's rule as the browser's runtime asks for it: its typed tree (from the rules the model
 * checked, `model.rules`) or its parse tree (the parser). A build swaps this module for
 * `builtRuleChecker.ts`, which reads the same trees from a table made at build time, so the parser
 * (and, with a built model, the checker) stay off the first screen (docs/decisions.md, "Rules
 * checked at build time"). The dev server, the tests and Node keep this one.
 */

const checkedBy = new WeakMap<AppModel, ReadonlyMap<string, Typed | null>>();

/** The model's checked boolean rules (`model.rules`, checked once by `resolve`), by entity and text. */
function booleanRules(model: AppModel): ReadonlyMap<string, Typed | null> {
  let byKey = checkedBy.get(model);
  if (!byKey) {
    const out = new Map<string, Typed | null>();
    for (const r of model.rules)
      if (r.expect === 'boolean' && r.entity !== null) out.set(ruleKey(r.entity, r.text), r.typed ?? null);
    byKey = out;
    checkedBy.set(model, byKey);
  }
  return byKey;
}

/**
 * A boolean rule of `entity` as the model checked it (every rule of the spec is checked once, in
 * `resolve`); null when it does not check or is not a rule of the spec, which the runtime leaves
 * to the server (as the build's table does).
 *
 * @example
 * typedRule(resolve(helpdesk), 'ticket', 'requester = me')?.kind // 'binary'
 */
export function typedRule(model: AppModel, entity: string, rule: string): Typed | null {
  return booleanRules(model).get(ruleKey(entity, rule)) ?? null;
}

/**
 * A rule's parse tree; null when it does not parse.
 *
 * @example
 * parsedRule('requester = me')?.kind // 'binary'
 */
export function parsedRule(rule: string): Expr | null {
  const r = parseRule(rule);
  return r.ok ? r.expr : null;
}
