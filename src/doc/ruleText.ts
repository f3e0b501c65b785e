import type { AppModel } from '../model/appModel.ts';
import { describeRule, parseRule } from '../rules/index.ts';
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
  return parsed.ok ? describeRule(parsed.expr, model.spec, entity) : undefined;
}
