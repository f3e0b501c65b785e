import { columnValues } from '../model/columnValues.ts';
import type { EnumValueNode } from '../model/enumValue.ts';
import { humanize } from '../model/humanize.ts';
import type { AppSpec } from '../spec/types.ts';

/**
 * The allowed values of an enum/status/tags field with their labels and colours, from the app
 * spec, as the app model reads them (state labels for the status field, `{ value, label, color }` entries for enums).
 *
 * @example
 * valueOptions(spec, 'ticket', 'priority'); // [{ value: 'low', label: 'Low', color: 'gray' }, ...]
 */
export function valueOptions(spec: AppSpec, entity: string, field: string): readonly EnumValueNode[] {
  const bySpec = cache.get(spec) ?? new Map<string, readonly EnumValueNode[]>();
  cache.set(spec, bySpec);
  const key = `${entity}.${field}`;
  const values = bySpec.get(key) ?? columnValues(spec, entity, field) ?? [];
  bySpec.set(key, values);
  return values;
}

/** Per spec object, like the model's own cache: a list asks this once per cell. */
const cache = new WeakMap<AppSpec, Map<string, readonly EnumValueNode[]>>();

/** The option of one stored value (its label and colour), or the value spelled out. */
export function valueOption(spec: AppSpec, entity: string, field: string, value: string): EnumValueNode {
  return (
    valueOptions(spec, entity, field).find((o) => o.value === value) ?? { value, label: humanize(value) }
  );
}
