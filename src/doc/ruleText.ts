import type { AppModel } from '../model/appModel.ts';
import { type DescribeScope, describeRule } from '../rules/describe.ts';
import { parseRule } from '../rules/index.ts';
import { code, mdText } from './markdown.ts';

/**
 * A rule as the document shows it: in words, then the formal rule in backticks, so a product
 * person reads the sentence and an engineer can check it against the exact text. A rule that
 * does not parse is shown as written (`ninefold check` reports it).
 *
 * @example
 * ruleText('requester = me', spec, 'ticket'); // 'the requester is the current user (`requester = me`)'
 */
export function ruleText(text: string, model: AppModel, entity?: string): string {
  const words = ruleWords(text, model, entity);
  return words === undefined || words === text.trim() ? code(text) : `${mdText(words)} (${code(text)})`;
}

/** The rule in words only, or `undefined` when it does not parse. */
export function ruleWords(text: string, model: AppModel, entity?: string): string | undefined {
  const parsed = parseRule(text);
  return parsed.ok ? describeRule(parsed.expr, scopeOf(model), entity) : undefined;
}

const scopes = new WeakMap<AppModel, DescribeScope>();

/** What the rule's words read (labels of entities, fields, constants, states and roles), from the model. */
function scopeOf(model: AppModel): DescribeScope {
  let scope = scopes.get(model);
  if (!scope) {
    scope = {
      entities: Object.fromEntries([...model.tables].map(([name, t]) => [name, t.spec])),
      constants: Object.fromEntries(model.constants),
      states: Object.fromEntries([...model.machines].map(([name, m]) => [name, m.spec])),
      roles: { roles: Object.fromEntries(model.roles) },
    };
    scopes.set(model, scope);
  }
  return scope;
}
