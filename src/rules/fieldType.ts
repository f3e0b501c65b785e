import { enumValueNames } from '../spec/enumValueNames.ts';
import { FIELD_TYPES } from '../spec/fieldTypes.ts';
import { profileEntity } from '../spec/profileEntity.ts';
import { IMPLICIT_FIELDS } from '../spec/reservedNames.ts';
import type { AppSpec, ConstantValue, FieldSpec, TemporalConstantType } from '../spec/types.ts';
import type { RuleType } from './ast.ts';

export { IMPLICIT_FIELDS };

/**
 * Columns a `files: true` entity has besides its declared fields: the file's name, its size in
 * bytes and its MIME type (the bytes themselves are never visible to rules).
 */
export const FILE_FIELDS = ['name', 'size', 'type'] as const;

export { profileEntity };

/**
 * The rule type of a declared field. `status` fields take their values from the entity's
 * states when it has them; `user` fields reference the profile entity; `file` fields hold
 * an opaque text key (only `is empty` is meaningful on them).
 */
export function ruleTypeOfFieldSpec(spec: AppSpec, entity: string, name: string, f: FieldSpec): RuleType {
  // `?.`: the checker also reads specifications whose shape is not validated yet.
  const rule = FIELD_TYPES[f.type]?.rule;
  switch (rule) {
    case 'text':
    case 'number':
    case 'boolean':
    case 'date':
    case 'datetime':
      return { kind: rule };
    case 'enum':
      return { kind: 'enum', values: enumValueNames(f) ?? [] };
    case 'status': {
      const st = spec.states[entity];
      if (st && st.field === name) return { kind: 'enum', values: Object.keys(st.states) };
      return { kind: 'enum', values: enumValueNames(f) ?? [] };
    }
    case 'ref':
      return { kind: 'ref', entity: f.ref ?? '' };
    case 'user':
      return { kind: 'ref', entity: profileEntity(spec) ?? '' };
    case 'tags':
      return f.values ? { kind: 'tags', values: enumValueNames(f) ?? [] } : { kind: 'tags' };
  }
}

/**
 * The rule type of `entity.field`, implicit columns included; `undefined` if there is no such field.
 *
 * @example
 * fieldRuleType(spec, 'ticket', 'createdAt') // { kind: 'datetime' }
 */
export function fieldRuleType(spec: AppSpec, entity: string, field: string): RuleType | undefined {
  const e = spec.entities[entity];
  if (!e) return undefined;
  const f = Object.hasOwn(e.fields, field) ? e.fields[field] : undefined;
  if (f) return ruleTypeOfFieldSpec(spec, entity, field, f);
  switch (field) {
    case 'id':
      return { kind: 'ref', entity };
    case 'createdAt':
    case 'updatedAt':
      return { kind: 'datetime' };
    case 'version':
      return { kind: 'number' };
    case 'size':
      return e.files ? { kind: 'number' } : undefined;
    case 'name':
    case 'type':
      return e.files ? { kind: 'text' } : undefined;
    default:
      return undefined;
  }
}

/** Names usable as fields of an entity (declared, then implicit). */
export function fieldNames(spec: AppSpec, entity: string): string[] {
  const e = spec.entities[entity];
  if (!e) return [];
  const implicit = e.files ? [...IMPLICIT_FIELDS, ...FILE_FIELDS] : IMPLICIT_FIELDS;
  return [...Object.keys(e.fields), ...implicit.filter((f) => !Object.hasOwn(e.fields, f))];
}

/** The rule type of a constant's value: numbers, text, booleans, or a list (tags). */
export function constantRuleType(value: ConstantValue, type?: TemporalConstantType): RuleType {
  // A time zone constant is its name, text to rules; the time functions read it as the app's zone.
  if (type === 'timezone') return { kind: 'text' };
  if (type !== undefined) return { kind: type };
  if (typeof value === 'number') return { kind: 'number' };
  if (typeof value === 'boolean') return { kind: 'boolean' };
  if (typeof value === 'string') return { kind: 'text' };
  return { kind: 'tags', values: value };
}
