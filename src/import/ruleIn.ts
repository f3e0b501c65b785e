import { parseRule } from '../rules/index.ts';
import { type CellLine, lastCode, unmark } from './cellLines.ts';

/**
 * The formal rule in a piece of a cell. `ninefold doc` writes a rule as words followed by the
 * rule in backticks — `the requester is the current user (`requester = me`)` — so the last code
 * span is the rule. A person may also write just the rule, with or without backticks.
 */
export function ruleIn(line: CellLine, marked = line.marked): string | undefined {
  const last = lastCode(marked);
  if (last) return line.codes[last.index];
  const text = unmark(line, marked).replace(/\.$/, '').trim();
  if (text === '') return undefined;
  return parseRule(text).ok ? text : text;
}
