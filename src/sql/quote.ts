/**
 * Quoting for generated SQL. Every identifier and literal that comes from a specification
 * passes through here: a specification is data, and data never becomes SQL syntax unquoted.
 */

// Identifier quoting lives with the names (src/naming.ts: the model quotes table references
// too, and it sits below the SQL emitters); re-exported here for the emitters.
export { qualified, quoteIdent } from '../naming.ts';

/**
 * The name a (possibly quoted) identifier stands for: the inverse of `quoteIdent`.
 *
 * @example
 * unquoteIdent('"a""b"'); // a"b
 */
export function unquoteIdent(ident: string): string {
  return ident.startsWith('"') ? ident.slice(1, -1).replaceAll('""', '"') : ident;
}

/**
 * A SQL literal for a JavaScript value. Strings are standard-conforming ('' doubles a quote;
 * backslashes are plain characters), so no input can close the literal.
 *
 * @example
 * quoteLiteral("x'); drop table t; --"); // 'x''); drop table t; --'
 * quoteLiteral(2.5);                     // 2.5
 */
export function quoteLiteral(value: string | number | boolean | null): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`quoteLiteral: ${value} has no SQL literal`);
    const text = Object.is(value, -0) ? '0' : String(value);
    // Exponent forms (1e21) are valid SQL numerics too; negative numbers are parenthesised
    // so `a - -1` cannot become the comment `a --1`.
    return value < 0 ? `(${text})` : text;
  }
  if (value.includes('\0')) throw new Error('quoteLiteral: NUL character in text literal');
  return `'${value.replaceAll("'", "''")}'`;
}

/** A `text[]` literal: `array['a','b']::text[]` (an empty array keeps its type). */
export function quoteTextArray(values: readonly string[]): string {
  return `array[${values.map(quoteLiteral).join(', ')}]::text[]`;
}

/**
 * A dollar-quoted body whose tag cannot occur in the body.
 *
 * @example
 * dollarQuote('select 1', 'fn'); // $fn$select 1$fn$
 */
export function dollarQuote(body: string, tag = 'body'): string {
  let t = tag;
  let n = 0;
  while (body.includes(`$${t}$`)) t = `${tag}${++n}`;
  return `$${t}$${body}$${t}$`;
}

/**
 * Everything a server or a client ends a line at: CR LF, CR, LF, vertical tab, form feed, NEL and
 * the Unicode line and paragraph separators. PostgreSQL ends a `--` comment at `\r` as well as at
 * `\n`, so a comment that removed only `\n` let the rest of a line run as SQL.
 */
const LINE_BREAKS = /\r\n|[\r\n\v\f\u0085\u2028\u2029]/u;
/** Other controls (NUL included) that have no place in a comment: shown as U+FFFD. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const OTHER_CONTROLS = /[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f]/gu;

/**
 * Any text as a SQL comment: one `-- ` line per line of the text, whatever ended the line, and
 * no control character left, so no text can end the comment and be read as SQL. The only way
 * generated SQL carries words of a specification outside literals and identifiers.
 *
 * @example
 * sqlComment('Tasks\rdrop table t;'); // '-- Tasks\n-- drop table t;'
 */
export function sqlComment(text: string, prefix = '-- '): string {
  return text
    .split(LINE_BREAKS)
    .map((line) => `${prefix}${line.replace(OTHER_CONTROLS, '\uFFFD')}`.trimEnd())
    .join('\n');
}

/**
 * A `do` block whose dollar-quote tag cannot occur in its body (a literal holding `$guard$`
 * would otherwise end the block early and run the rest of the literal as SQL).
 *
 * @example
 * doBlock('begin perform 1; end', 'do'); // do $do$begin perform 1; end$do$;
 */
export function doBlock(body: string, tag = 'do'): string {
  return `do ${dollarQuote(body, tag)};`;
}
