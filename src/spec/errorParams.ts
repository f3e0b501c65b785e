/**
 * Where a message parameter's value comes from (`errors.<CODE>.params`), in a row rule that raises
 * the code:
 * - `field`: a field of the row written (`date`);
 * - `other`: a field of the row the rule's one `count(...)` found, the one that made it fail
 *   (`other.start`: "That room is taken from {start} to {end}");
 * - `sum` / `count`: the value of the rule's one `sum(...)` / `count(...)`.
 */
export type ErrorParamSource =
  | { kind: 'field'; field: string }
  | { kind: 'other'; field: string }
  | { kind: 'sum' }
  | { kind: 'count' };

/** A parameter's name as a `{placeholder}` can write it. */
export const PARAM_NAME = /^\w+$/;

/**
 * Reads a parameter's source; `undefined` when it has none of the four forms.
 *
 * @example
 * errorParamSource('other.start'); // { kind: 'other', field: 'start' }
 * errorParamSource('sum');         // { kind: 'sum' }
 */
export function errorParamSource(text: string): ErrorParamSource | undefined {
  const t = text.trim();
  if (t === 'sum' || t === 'count') return { kind: t };
  const other = /^other\.(\w+)$/.exec(t);
  if (other) return { kind: 'other', field: other[1]! };
  const own = /^(\w+)$/.exec(t);
  return own ? { kind: 'field', field: own[1]! } : undefined;
}

/** The source as the specification writes it (`other.start`). */
export function errorParamText(source: ErrorParamSource): string {
  if (source.kind === 'field') return source.field;
  if (source.kind === 'other') return `other.${source.field}`;
  return source.kind;
}
