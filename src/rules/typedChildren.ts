import type { Typed } from './ast.ts';

/**
 * The direct sub-expressions of a typed node, in source order. Every analysis that walks a rule
 * (references, columns to index, hops read) recurses through this one function, so a new node
 * kind is added in one place.
 *
 * @example
 * typedChildren(checkRule(spec, 'a = 1 and b = 2', scope).typed) // [typed `a = 1`, typed `b = 2`]
 */
export function typedChildren(n: Typed): readonly Typed[] {
  switch (n.kind) {
    case 'binary':
      return [n.left, n.right];
    case 'not':
    case 'neg':
    case 'empty':
      return [n.operand];
    case 'in':
      return [n.operand, ...n.list];
    case 'role':
      return [n.subject];
    case 'call':
      return n.args;
    case 'count':
    case 'sum':
      return n.where ? [n.where] : [];
    default:
      return [];
  }
}
