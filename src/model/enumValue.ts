import { enumValueName } from '../spec/enumValueNames.ts';
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
export function enumValueNodes(values: readonly (string | number | EnumValueSpec)[]): EnumValueNode[] {
  return values.map((v) => {
    const value = enumValueName(v);
    if (typeof v !== 'object') return { value, label: humanize(value) };
    const node: EnumValueNode = { value, label: v.label ?? humanize(value) };
    if (v.color !== undefined) node.color = v.color;
    return node;
  });
}
