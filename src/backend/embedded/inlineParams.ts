/**
 * A value as an SQL literal of unknown type (`'…'`), which Postgres types from its context the way
 * it types a `$n` parameter. Strings double their quotes (the server runs with
 * `standard_conforming_strings = on`, the default since PostgreSQL 9.1, so a backslash is an
 * ordinary character); arrays become array literals (`'{"a","b"}'`), objects JSON text.
 * NUL cannot be stored in Postgres text, so it is refused rather than passed through.
 *
 * @example
 * sqlLiteral("O'Brien"); // "'O''Brien'"
 * sqlLiteral(['a', null]); // `'{"a",NULL}'`
 */
export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  return quote(literalText(value));
}

function literalText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`not a finite number: ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) {
    const items = value.map((v) =>
      v === null || v === undefined ? 'NULL' : `"${literalText(v).replace(/[\\"]/g, (m) => `\\${m}`)}"`,
    );
    return `{${items.join(',')}}`;
  }
  return JSON.stringify(value);
}

function quote(text: string): string {
  if (text.includes('\u0000')) throw new TypeError('a NUL character cannot be sent to Postgres');
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * Replaces the `$1`, `$2`… placeholders of generated SQL with literals, so that statements can go
 * to the database together as one simple-protocol message. Only for SQL the adapter generates
 * (placeholders never occur inside its string literals or identifiers).
 *
 * @example
 * inlineParams('select * from t where a = $1 and b = any($2)', ['x', [1, 2]]);
 * // "select * from t where a = 'x' and b = any('{\"1\",\"2\"}')"
 */
export function inlineParams(text: string, params: readonly unknown[]): string {
  return text.replace(/\$(\d+)(?!\d)/g, (m, n: string) => {
    const i = Number(n) - 1;
    if (i < 0 || i >= params.length) throw new RangeError(`no parameter for ${m}`);
    return sqlLiteral(params[i]);
  });
}
