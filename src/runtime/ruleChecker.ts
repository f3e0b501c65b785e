import type { AppModel } from '../model/appModel.ts';
import type { Expr, Typed } from '../rules/ast.ts';
import { checkRule } from '../rules/check.ts';
import { parseRule } from '../rules/parse.ts';

/**
 * The rule language's parser and checker as the browser's runtime asks them: a spec's rule to its
 * typed tree or its parse tree. A build swaps this module for `builtRuleChecker.ts`, which reads
 * the same trees from a table made at build time, so the parser and checker (about 5 KB gzip) stay
 * off the first screen (docs/decisions.md, "Rules checked at build time"). The dev server, the
 * tests and Node keep this one.
 */

/**
 * A boolean rule of `entity` checked against the app; null when it does not check. The rule
 * language's checker sits below the model and reads the specification the model was resolved from.
 *
 * @example
 * typedRule(resolve(helpdesk), 'ticket', 'requester = me')?.kind // 'binary'
 */
export function typedRule(model: AppModel, entity: string, rule: string): Typed | null {
  const r = checkRule(model.spec, rule, { entity, expect: 'boolean' });
  return r.ok ? r.typed : null;
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
