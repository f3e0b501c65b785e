import type { AppModel } from '../model/appModel.ts';
import { FIELD_TYPES } from '../spec/fieldTypes.ts';
import { stateLabel } from './availableTransitions.ts';
import { currencyOf } from './computedValues.ts';
import { dateText } from './dateText.ts';
import { moneyText } from './moneyText.ts';
import { ui } from './uiText.ts';
import { valueOption } from './valueOptions.ts';

/**
 * One cell as a person reads it on the screen, as plain text (CSV export): state and enum labels,
 * the names of referenced rows and people (`label` looks them up), dates as shown, money in its
 * currency, yes/no. Never an id: a reference `label` cannot name is left empty. Pure.
 *
 * @example
 * cellText(resolve(helpdesk), 'ticket', 'priority', { priority: 'high' }, () => undefined); // 'High'
 */
export function cellText(
  model: AppModel,
  entity: string,
  name: string,
  row: Readonly<Record<string, unknown>>,
  label: (entity: string, id: string) => string | undefined,
): string {
  const v = row[name];
  if (v === null || v === undefined || v === '') return '';
  const f = model.tables.get(entity)?.spec.fields[name];
  const kind = f
    ? FIELD_TYPES[f.type].display
    : name === 'createdAt' || name === 'updatedAt'
      ? 'datetime'
      : 'plain';
  switch (kind) {
    case 'status':
      return stateLabel(model, entity, String(v));
    case 'option':
      return valueOption(model, entity, name, String(v)).label;
    case 'yesNo':
      return v ? ui('yes') : ui('no');
    case 'user':
      return model.profile ? (label(model.profile, String(v)) ?? '') : '';
    case 'ref':
      return f?.ref ? (label(f.ref, String(v)) ?? '') : '';
    case 'date':
      return dateText(v);
    case 'datetime':
      return dateText(v, { time: true });
    case 'money':
      return moneyText(v, currencyOf(model, entity, name, row));
    case 'tags':
      // A listed tag shows its label (`values: [{ value: 'big-room', label: 'Big room' }]`).
      return (Array.isArray(v) ? v : [v])
        .map((t) => valueOption(model, entity, name, String(t)).label)
        .join('; ');
    default:
      return Array.isArray(v) ? v.map(String).join('; ') : String(v);
  }
}
