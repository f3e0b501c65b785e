import { FIELD_TYPES } from '../spec/fieldTypes.ts';
import type { AppSpec } from '../spec/types.ts';
import { stateLabel } from './availableTransitions.ts';
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
 * cellText(helpdesk, 'ticket', 'priority', { priority: 'high' }, () => undefined); // 'High'
 */
export function cellText(
  spec: AppSpec,
  entity: string,
  name: string,
  row: Readonly<Record<string, unknown>>,
  label: (entity: string, id: string) => string | undefined,
): string {
  const v = row[name];
  if (v === null || v === undefined || v === '') return '';
  const f = spec.entities[entity]?.fields[name];
  const kind = f
    ? FIELD_TYPES[f.type].display
    : name === 'createdAt' || name === 'updatedAt'
      ? 'datetime'
      : 'plain';
  switch (kind) {
    case 'status':
      return stateLabel(spec, entity, String(v));
    case 'option':
      return valueOption(spec, entity, name, String(v)).label;
    case 'yesNo':
      return v ? ui('yes') : ui('no');
    case 'user': {
      const profile = Object.entries(spec.entities).find(([, e]) => e.profile)?.[0];
      return profile ? (label(profile, String(v)) ?? '') : '';
    }
    case 'ref':
      return f?.ref ? (label(f.ref, String(v)) ?? '') : '';
    case 'date':
      return dateText(v);
    case 'datetime':
      return dateText(v, { time: true });
    case 'money':
      return moneyText(v, f?.currencyField ? String(row[f.currencyField] ?? '') : undefined);
    case 'tags':
      // A listed tag shows its label (`values: [{ value: 'big-room', label: 'Big room' }]`).
      return (Array.isArray(v) ? v : [v])
        .map((t) => valueOption(spec, entity, name, String(t)).label)
        .join('; ');
    default:
      return Array.isArray(v) ? v.map(String).join('; ') : String(v);
  }
}
