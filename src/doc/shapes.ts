import type { AppModel } from '../model/appModel.ts';
import { enumValueNames } from '../spec/enumValueNames.ts';
import { FIELD_TYPES } from '../spec/fieldTypes.ts';
import type { FieldSpec, ShapeSpec, ShapeType } from '../spec/types.ts';
import { stateNames } from './labels.ts';

/**
 * TypeScript-like text for payload and response shapes. The format words `uuid`, `email`,
 * `date`, `datetime` and `integer` are kept as type names (they are strings or numbers in
 * that format), because they tell a reader more than `string` does.
 */

/**
 * A shape as a TypeScript-like object type, one member per line.
 *
 * @example
 * shapeText({ id: 'uuid', 'note?': 'string', tags: ['string'] });
 * // '{\n  id: uuid;\n  note?: string;\n  tags: string[];\n}'
 */
export function shapeText(shape: ShapeSpec, indent = ''): string {
  const members = Object.entries(shape).map(([key, t]) => {
    const optional = key.endsWith('?');
    const name = optional ? key.slice(0, -1) : key;
    return `${indent}  ${name}${optional ? '?' : ''}: ${typeText(t, `${indent}  `)};`;
  });
  return members.length === 0 ? '{}' : `{\n${members.join('\n')}\n${indent}}`;
}

function typeText(t: ShapeType, indent: string): string {
  if (typeof t === 'string') return t;
  if (isArrayShape(t)) {
    const inner = typeText(t[0], indent);
    return /[ |]/.test(inner) && !inner.startsWith('{') ? `(${inner})[]` : `${inner}[]`;
  }
  return shapeText(t as ShapeSpec, indent);
}

function isArrayShape(t: ShapeType): t is readonly [ShapeType] {
  return Array.isArray(t);
}

/** One member of a payload derived from a field. */
export interface Member {
  name: string;
  type: string;
  optional: boolean;
}

/** Members as a TypeScript-like object type, one per line. */
export function membersText(members: readonly Member[]): string {
  if (members.length === 0) return '{}';
  return `{\n${members.map((m) => `  ${m.name}${m.optional ? '?' : ''}: ${m.type};`).join('\n')}\n}`;
}

/**
 * The type of a field's value in a payload (`| null` when the field may be empty).
 *
 * @example
 * fieldTypeText(model, 'device', { type: 'enum', values: ['a', 'b'] }); // "'a' | 'b' | null"
 */
export function fieldTypeText(model: AppModel, entity: string, f: FieldSpec, nullable = !f.required): string {
  const base = baseType(model, entity, f);
  return nullable ? `${base} | null` : base;
}

function baseType(model: AppModel, entity: string, f: FieldSpec): string {
  const literals = (values: readonly string[]) =>
    values.map((v) => `'${v.replace(/'/g, "\\'")}'`).join(' | ');
  const entry = FIELD_TYPES[f.type];
  switch (entry?.rule) {
    case 'enum':
      return f.values && f.values.length > 0 ? literals(enumValueNames(f) ?? []) : entry.shape;
    case 'status': {
      const names = stateNames(model, entity) ?? enumValueNames(f) ?? [];
      return names.length > 0 ? literals(names) : entry.shape;
    }
    case 'tags':
      return f.values && f.values.length > 0 ? `(${literals(enumValueNames(f) ?? [])})[]` : entry.shape;
    default:
      return entry?.shape ?? 'string';
  }
}
