import type { EnumValueNode } from '../model/enumValue.ts';
import { humanize } from '../model/humanize.ts';
import { resolve } from '../model/resolve.ts';
import type { AppSpec } from '../spec/types.ts';

/**
 * The allowed values of an enum/status/tags field with their labels and colours, from the app
 * model (state labels for the status field, `{ value, label, color }` entries for enums).
 *
 * @example
 * valueOptions(spec, 'ticket', 'priority'); // [{ value: 'low', label: 'Low', color: 'gray' }, ...]
 */
export function valueOptions(spec: AppSpec, entity: string, field: string): readonly EnumValueNode[] {
  return resolve(spec).tables.get(entity)?.byField.get(field)?.values ?? [];
}

/** The option of one stored value (its label and colour), or the value spelled out. */
export function valueOption(spec: AppSpec, entity: string, field: string, value: string): EnumValueNode {
  return (
    valueOptions(spec, entity, field).find((o) => o.value === value) ?? { value, label: humanize(value) }
  );
}
