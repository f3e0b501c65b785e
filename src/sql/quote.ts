/**
 * Quoting for generated SQL. Every identifier and literal that comes from a specification
 * passes through here: a specification is data, and data never becomes SQL syntax unquoted.
 */

/** Postgres reserved words (and the non-reserved ones that cannot be column names) that must be quoted. */
const RESERVED = new Set(
  (
    'all analyse analyze and any array as asc asymmetric authorization binary both case cast check collate ' +
    'collation column concurrently constraint create cross current_catalog current_date current_role ' +
    'current_schema current_time current_timestamp current_user default deferrable desc distinct do else ' +
    'end except false fetch for foreign freeze from full grant group having ilike in initially inner ' +
    'intersect into is isnull join lateral leading left like limit localtime localtimestamp natural not ' +
    'notnull null offset on only or order outer overlaps placing primary references returning right select ' +
    'session_user similar some symmetric system_user table tablesample then to trailing true union unique ' +
    'user using variadic verbose when where window with'
  ).split(' '),
);

/**
 * Quotes an identifier when it is not a plain lower-case name (or is a reserved word).
 *
 * @example
 * quoteIdent('ticket');  // ticket
 * quoteIdent('user');    // "user"
 * quoteIdent('a"b');     // "a""b"
 */
export function quoteIdent(name: string): string {
  if (name.length === 0) throw new Error('quoteIdent: empty identifier');
  if (name.includes('\0')) throw new Error('quoteIdent: NUL character in identifier');
  if (/^[a-z_][a-z0-9_]*$/.test(name) && !RESERVED.has(name)) return name;
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * A schema-qualified name, each part quoted as needed.
 *
 * @example
 * qualified('public', 'user'); // public."user"
 */
export function qualified(schema: string, name: string): string {
  return `${quoteIdent(schema)}.${quoteIdent(name)}`;
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
