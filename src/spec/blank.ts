/**
 * What "blank" means, for both sides of the client/server divide: text that is empty once the
 * white space at its ends is trimmed. The characters are those JavaScript's `trim` removes (ASCII
 * white space, line and paragraph separators, no-break and other Unicode spaces, the byte-order
 * mark), listed once so the SQL (`btrim(x, <these>)`, src/sql) and the browser (`isBlank`) trim
 * exactly the same set: Postgres' `btrim(x)` alone trims only the ASCII space.
 */
export const BLANK_CODE_POINTS: readonly number[] = [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006,
  0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
];

const BLANK = new Set(BLANK_CODE_POINTS);

/**
 * True for `''` and for text of blank characters only.
 *
 * @example
 * isBlank(' \t\u00a0'); // true
 * isBlank(' a '); // false
 */
export function isBlank(s: string): boolean {
  for (const ch of s) if (!BLANK.has(ch.codePointAt(0) ?? 0)) return false;
  return true;
}

/**
 * The SQL of "`sql` is blank" (an E-string of `\uXXXX` escapes, readable in a migration):
 * `btrim(x, E'\u0009…') = ''`. Null stays null (the caller decides what empty means).
 */
export function blankSql(sql: string): string {
  const chars = BLANK_CODE_POINTS.map((c) => `\\u${c.toString(16).padStart(4, '0')}`).join('');
  return `btrim(${sql}, E'${chars}') = ''`;
}
