import type { EnumValueSpec, FieldSpec } from './types.ts';

/**
 * The stored values of an enum/tags field, whether written as plain names or as
 * `{ value, label?, color? }` objects.
 *
 * @example
 * enumValueNames({ type: 'enum', values: ['low', { value: 'high', color: 'red' }] }); // ['low', 'high']
 */
export function enumValueNames(f: Pick<FieldSpec, 'values'>): string[] | undefined {
  return f.values?.map(enumValueName);
}

/** The stored value of one entry of `values`. */
export function enumValueName(v: string | EnumValueSpec): string {
  return typeof v === 'string' ? v : v.value;
}
