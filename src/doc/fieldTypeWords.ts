import type { AppModel } from '../model/appModel.ts';
import { enumValueNames } from '../spec/enumValueNames.ts';
import { FIELD_TYPES } from '../spec/fieldTypes.ts';
import type { FieldSpec } from '../spec/types.ts';
import { entityLabel, fieldLabel, stateNames } from './docLabels.ts';
import { code } from './markdown.ts';

/**
 * A field's type in words, with what makes it precise: enum values, the referenced entity,
 * the currency field, accepted file types, the states of a status field.
 *
 * @example
 * fieldTypeWords(model, 'loan', model.tables.get('loan').spec.fields.device); // 'reference to Device; the device cannot be deleted while this row points to it'
 */
export function fieldTypeWords(model: AppModel, entity: string, f: FieldSpec): string {
  const base = FIELD_TYPES[f.type]?.words ?? f.type;
  switch (f.type) {
    case 'enum':
      return `${base}: ${valuesWords(f)}`;
    case 'tags':
      return f.values && f.values.length > 0 ? `tags from: ${valuesWords(f)}` : 'tags (any words)';
    case 'status': {
      const names = stateNames(model, entity) ?? enumValueNames(f) ?? [];
      return names.length > 0 ? `status: ${names.map(code).join(', ')} (see section 4)` : base;
    }
    case 'money':
      return f.currencyField
        ? `money, currency in ${fieldLabel(model, entity, f.currencyField)}`
        : f.currency
          ? `money in ${code(f.currency)}`
          : base;
    case 'ref':
      return withOnDelete(
        `reference to ${f.ref ? entityLabel(model, f.ref) : 'another entity'}`,
        f,
        f.ref ? entityLabel(model, f.ref) : 'entity',
      );
    case 'user': {
      const profile = model.profile;
      return withOnDelete(profile ? `user (${entityLabel(model, profile)})` : base, f, 'user');
    }
    case 'file':
      return f.accept && f.accept.length > 0 ? `file: ${f.accept.map(code).join(', ')}` : base;
    default:
      return base;
  }
}

/**
 * Enum/tags values in code, each with its label and colour when the specification gives them:
 * `` `urgent` (label: Very urgent, color: red) `` — `ninefold import` reads them back.
 */
function valuesWords(f: FieldSpec): string {
  return (f.values ?? [])
    .map((v) => {
      if (typeof v !== 'object') return code(String(v));
      const details = [
        ...(v.label !== undefined ? [`label: ${v.label}`] : []),
        ...(v.color !== undefined ? [`color: ${v.color}`] : []),
      ];
      return details.length > 0 ? `${code(String(v.value))} (${details.join(', ')})` : code(String(v.value));
    })
    .join(', ');
}

/** What deleting the referenced row does, said from the referencing row's side. */
function withOnDelete(words: string, f: FieldSpec, target: string): string {
  const t = target.toLowerCase();
  switch (f.onDelete) {
    case 'cascade':
      return `${words}; the row is removed when its ${t} is deleted`;
    case 'restrict':
      return `${words}; the ${t} cannot be deleted while this row points to it`;
    case 'set null':
      return `${words}; emptied when the ${t} is deleted`;
    default:
      return words;
  }
}

/** A default value in words: the rule words `me`, `now`, `today` spelled out, literals in code. */
export function defaultWords(value: FieldSpec['default']): string {
  if (value === undefined) return '';
  if (value === 'me') return 'the current user';
  if (value === 'now') return 'the current time';
  if (value === 'today') return 'today';
  if (value === null) return 'empty';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return code(String(value));
}
