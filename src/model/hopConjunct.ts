import type { Typed } from '../rules/ast.ts';

/** A screen rule's conjunct `ref.field = me`: the rows of `via` whose `field` names the person. */
export interface HopBound {
  /** The list's reference field (`submitter`). */
  ref: string;
  /** The referenced entity (`person`) and its field (`manager`). */
  via: string;
  field: string;
}

/**
 * The bound a conjunct `ref.field = me` sets (`submitter.manager = me`), or undefined for any
 * other conjunct.
 *
 * @example
 * hopConjunct(typed('submitter.manager = me')) // { ref: 'submitter', via: 'person', field: 'manager' }
 */
export function hopConjunct(t: Typed): HopBound | undefined {
  if (t.kind !== 'binary' || t.op !== '=') return undefined;
  const [a, b] = t.left.kind === 'field' ? [t.left, t.right] : [t.right, t.left];
  if (a.kind !== 'field' || a.scope !== 'row' || a.path.length !== 2 || !a.via) return undefined;
  if (b.kind !== 'me' || b.field) return undefined;
  return { ref: a.path[0] as string, via: a.via, field: a.path[1] as string };
}

/** The hop conjuncts among a rule's top-level `and` conjuncts. */
export function hopConjuncts(t: Typed): HopBound[] {
  if (t.kind === 'binary' && t.op === 'and') return [...hopConjuncts(t.left), ...hopConjuncts(t.right)];
  const hop = hopConjunct(t);
  return hop ? [hop] : [];
}
