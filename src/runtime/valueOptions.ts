import type { AppModel } from '../model/appModel.ts';
import type { EnumValueNode } from '../model/enumValue.ts';
import { humanize } from '../model/humanize.ts';

/**
 * The allowed values of an enum/status/tags field with their labels and colours, from the app
 * spec, as the app model reads them (state labels for the status field, `{ value, label, color }` entries for enums).
 *
 * @example
 * valueOptions(resolve(spec), 'ticket', 'priority'); // [{ value: 'low', label: 'Low', color: 'gray' }, ...]
 */
export function valueOptions(model: AppModel, entity: string, field: string): readonly EnumValueNode[] {
  return model.tables.get(entity)?.byField.get(field)?.values ?? [];
}

/** The option of one stored value (its label and colour), or the value spelled out. */
export function valueOption(model: AppModel, entity: string, field: string, value: string): EnumValueNode {
  return (
    valueOptions(model, entity, field).find((o) => o.value === value) ?? { value, label: humanize(value) }
  );
}
