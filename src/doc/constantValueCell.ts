import type { ConstantValue } from '../spec/types.ts';
import { code } from './markdown.ts';

/**
 * A constant's value in the constants table, written so `ninefold import` reads back the same
 * type: numbers as digits, booleans as yes/no, lists as code spans separated by commas, and text
 * as written — in double quotes (JSON) only when it would otherwise read as a number, yes/no,
 * a list or nothing.
 *
 * @example
 * constantValueCell(['EUR', 'USD']); // '`EUR`, `USD`'
 * constantValueCell('10');           // '"10"'
 */
export function constantValueCell(value: ConstantValue): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return looksTyped(value) ? JSON.stringify(value) : value;
  return value.length === 0 ? 'empty list' : value.map(code).join(', ');
}

function looksTyped(text: string): boolean {
  const t = text.trim();
  return (
    t !== text ||
    t === '' ||
    Number.isFinite(Number(t)) ||
    /^(yes|no|true|false|empty list)$/i.test(t) ||
    t.startsWith('`') ||
    t.startsWith('"') ||
    /[\n\\*_<[]/.test(t)
  );
}
