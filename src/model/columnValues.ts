import type { AppSpec } from '../spec/types.ts';
import { type EnumValueNode, enumValueNodes } from './enumValue.ts';
import { humanize } from './humanize.ts';

/**
 * The allowed values of one column, as the app model holds them: the states (with their labels)
 * for the status field, the declared values of an enum, status or tags field, else none. Its own
 * module, read straight from the spec: the list's cells need only this, and the whole model
 * (`resolve`, with the rule checker) would put its code on the first screen's path.
 *
 * @example
 * columnValues(helpdesk, 'ticket', 'status')?.[0]; // { value: 'new', label: 'New' }
 */
export function columnValues(spec: AppSpec, entity: string, field: string): EnumValueNode[] | undefined {
  const f = spec.entities[entity]?.fields[field];
  if (!f || f.type === 'file') return undefined;
  const st = spec.states[entity];
  if (st?.field === field)
    return Object.entries(st.states).map(([value, s]) => ({ value, label: s.label ?? humanize(value) }));
  return f.values && (f.type === 'enum' || f.type === 'status' || f.type === 'tags')
    ? enumValueNodes(f.values)
    : undefined;
}
