import type { EnumValueSpec } from '../spec/types.ts';
import { humanize } from './humanize.ts';

/** One allowed value of an enum, status or tags column, as every output shows it. */
export interface EnumValueNode {
  /** The stored value (what rules and the database compare). */
  value: string;
  /** For people: the spec's label (a state's `label`, a value's `label`), else the value spelled out. */
  label: string;
  /** Display colour from the spec (`{ value, color }`), if it declares one. */
  color?: string;
}

/**
 * Values as written in the spec (`'high'` or `{ value: 'high', label: 'High!', color: 'red' }`)
 * resolved to nodes.
 *
 * @example
 * enumValueNodes(['low', { value: 'high', color: 'red' }]);
 * // [{ value: 'low', label: 'Low' }, { value: 'high', label: 'High', color: 'red' }]
 */
export function enumValueNodes(values: readonly (string | EnumValueSpec)[]): EnumValueNode[] {
  return values.map((v) => {
    if (typeof v === 'string') return { value: v, label: humanize(v) };
    const node: EnumValueNode = { value: v.value, label: v.label ?? humanize(v.value) };
    if (v.color !== undefined) node.color = v.color;
    return node;
  });
}
