import type { Expr } from '../ast.ts';

/** A tree without spans, for structural comparisons in tests. */
export function stripSpans(e: Expr): unknown {
  return JSON.parse(JSON.stringify(e, (k, v) => (k === 'span' ? undefined : v)));
}
