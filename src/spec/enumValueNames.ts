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

/**
 * The stored value of one entry of `values`. Enum columns are text, so a number (`45`) is stored
 * as its decimal text (`'45'`); rules may still write it as a number (`minutes = 45`).
 */
export function enumValueName(v: string | number | EnumValueSpec): string {
  return String(typeof v === 'object' ? v.value : v);
}
