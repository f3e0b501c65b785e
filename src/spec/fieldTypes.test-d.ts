import { expectTypeOf } from 'vitest';
import type { RowOf } from './defineApp.ts';
import type { FieldTsWord, FieldTypeEntry } from './fieldTypes.ts';
import { FIELD_TYPES } from './fieldTypes.ts';
import type { FieldType } from './types.ts';

// The registry has an entry for every field type and nothing else.
expectTypeOf<keyof typeof FIELD_TYPES>().toEqualTypeOf<FieldType>();

// A registry missing a type is a type error (what `satisfies Record<FieldType, FieldTypeEntry>`
// in fieldTypes.ts enforces on the real one).
const { tags: _tags, ...withoutTags } = FIELD_TYPES;
// @ts-expect-error — `tags` is missing
const _incomplete: Record<FieldType, FieldTypeEntry> = withoutTags;

// `RowOf` reads a field's value type from the registry's `ts` word.
expectTypeOf<FieldTsWord<'money'>>().toEqualTypeOf<'number'>();
expectTypeOf<FieldTsWord<'tags'>>().toEqualTypeOf<'string[]'>();
type Row = RowOf<{
  label: 'T';
  fields: {
    amount: { type: 'money'; required: true };
    done: { type: 'boolean'; required: true };
    labels: { type: 'tags'; required: true };
    due: { type: 'date' };
  };
}>;
expectTypeOf<Row['amount']>().toEqualTypeOf<number>();
expectTypeOf<Row['done']>().toEqualTypeOf<boolean>();
expectTypeOf<Row['labels']>().toEqualTypeOf<string[]>();
expectTypeOf<Row['due']>().toEqualTypeOf<string | null>();
