import type { Diagnostic } from '../diagnostics.ts';
import { at, isRecord, report } from './specShape.ts';

/**
 * The characters a specification's texts may hold. A specification's text reaches SQL comments,
 * TypeScript, HTML, Markdown and e-mail headers; a line terminator or control character in a
 * name or label is never what its author meant, and each output language ends a line (a `--`
 * comment, a `//` comment, a Markdown cell) at a different set of them. So they are refused at
 * the door, and every printer escapes on top of that.
 */

/**
 * The slots that are long texts: line breaks (`\n`) and tabs are allowed there, nowhere else.
 * Patterns over the dotted path, `*` standing for one name.
 */
const MULTI_LINE = [
  'purpose.summary',
  'entities.*.fields.*.help',
  'states.*.states.*.description',
  'roles.roles.*.description',
  'errors.*.message',
  'calls.declared.*.description',
  // Templates of a call's payload: an e-mail body spans lines (single-line payload fields such as
  // subjects are made single-line where the payload is built).
  'calls.declared.*.fill.*',
  'calls.declared.*.fill.*.fill.*',
  'translations.*.*',
].map((p) => p.split('.'));

/** C0 and C1 controls, DEL, and the Unicode line and paragraph separators. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;
/** The same, except the line feed and the tab a long text may hold. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL_IN_LONG_TEXT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/u;

const NAMES: Record<number, string> = {
  0: 'NUL',
  9: 'tab',
  10: 'line feed',
  11: 'vertical tab',
  12: 'form feed',
  13: 'carriage return',
  133: 'next line',
  8232: 'line separator',
  8233: 'paragraph separator',
};

/** `U+000D (carriage return)`: how a refused character is named in a diagnostic. */
export function describeCharacter(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return `${hex} (${NAMES[code] ?? 'control character'})`;
}

function isMultiLine(segments: readonly string[]): boolean {
  return MULTI_LINE.some(
    (p) => p.length === segments.length && p.every((part, i) => part === '*' || part === segments[i]),
  );
}

/**
 * Reports every text (and every key) of a specification holding a control character its slot
 * does not allow: in long texts (`MULTI_LINE`) only `\n` and tab are allowed, in every other slot
 * (names, labels, titles, routes, rules, constants, enum values, templates) none.
 *
 * @example
 * checkSpecCharacters({ purpose: { name: 'A\rB', ... }, ... }, out); // out: purpose.name, U+000D
 */
export function checkSpecCharacters(input: unknown, out: Diagnostic[]): void {
  const walk = (value: unknown, segments: string[], path: string): void => {
    if (typeof value === 'string') {
      checkText(value, isMultiLine(segments), path, out);
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => {
        walk(v, [...segments, String(i)], at(path, i));
      });
    } else if (isRecord(value)) {
      for (const [key, v] of Object.entries(value)) {
        const p = at(path, key);
        checkText(key, false, p, out, 'name');
        walk(v, [...segments, key], p);
      }
    }
  };
  walk(input, [], '');
}

function checkText(
  text: string,
  multiLine: boolean,
  path: string,
  out: Diagnostic[],
  what: 'text' | 'name' = 'text',
): void {
  const found = (multiLine ? CONTROL_IN_LONG_TEXT : CONTROL).exec(text);
  if (!found) return;
  const ch = found[0];
  report(
    out,
    'spec/invalid-value',
    path,
    `${what === 'name' ? 'the name' : 'this text'} holds ${describeCharacter(ch)} at character ${found.index + 1}: ${
      multiLine
        ? 'a long text may hold line breaks (\\n) and tabs, no other control character'
        : 'a single-line text holds no line break or control character'
    }`,
    multiLine
      ? 'remove it (write line breaks as \\n)'
      : 'remove it or replace it with a space; only help, descriptions, messages and the summary may span lines',
  );
}
