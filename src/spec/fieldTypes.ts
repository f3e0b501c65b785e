import type { FieldType } from './types.ts';

/**
 * The one field-type registry: everything every layer needs to know about a field type, one entry
 * per type. Adding a type is one entry here plus its name in `FieldType` (src/spec/types.ts); the
 * `satisfies` below makes a missing entry a type error, and every switch over a kind below is
 * exhaustive, so a new type reuses existing behaviour by naming it (a `url` type: text in SQL, a
 * `plain` display) and only a new kind needs new code.
 *
 * Pure data below the model (no imports but types), because the validator, the rule checker, the
 * importer and the text ceilings (src/spec, src/rules, src/import) read it as well as the model,
 * the SQL emitter, the printers, the document and the runtime (docs/decisions.md, "One field-type
 * registry").
 */

/** How a value compares in rules; the kinds with parameters (values, states, targets) are resolved by `ruleTypeOfFieldSpec`. */
export type FieldRuleKind =
  | 'text'
  | 'number'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'enum'
  | 'status'
  | 'ref'
  | 'user'
  | 'tags';

/** The form control of a field (src/react/FieldInput.tsx renders one per kind). */
export type WidgetKind =
  | 'text'
  | 'textarea'
  | 'email'
  | 'number'
  | 'integer'
  | 'money'
  | 'checkbox'
  | 'date'
  | 'datetime'
  | 'select'
  | 'status'
  | 'ref'
  | 'user'
  | 'file'
  | 'tags';

/**
 * How a stored value is shown to a person: on screen (src/react/display.tsx) and as plain text in
 * a CSV export (src/runtime/cellText.ts). `multiline` keeps its line breaks on screen.
 */
export type DisplayKind =
  | 'plain'
  | 'multiline'
  | 'status'
  | 'option'
  | 'yesNo'
  | 'user'
  | 'ref'
  | 'date'
  | 'datetime'
  | 'money'
  | 'tags';

/** The type word of a payload member in the document (section 7), when the field has no values. */
export type ShapeWord =
  | 'string'
  | 'string[]'
  | 'email'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'uuid';

/** A JSON Schema (OpenAPI 3.1) of a stored value, before labels, values and nullability. */
export interface ValueSchema {
  readonly type: 'string' | 'number' | 'integer' | 'boolean' | 'array';
  readonly format?: 'uuid' | 'date' | 'date-time';
  readonly items?: { readonly type: 'string' };
}

export interface FieldTypeEntry {
  /** The Postgres column type. */
  readonly sql: 'text' | 'numeric' | 'integer' | 'boolean' | 'date' | 'timestamptz' | 'uuid' | 'text[]';
  /** The TypeScript type of a stored value (`RowOf`, `ninefold types`). */
  readonly ts: 'string' | 'number' | 'boolean' | 'string[]';
  /** The JSON Schema of a stored value (`ninefold openapi`). */
  readonly openApi: ValueSchema;
  /** The document's payload type word (section 7). */
  readonly shape: ShapeWord;
  readonly rule: FieldRuleKind;
  readonly widget: WidgetKind;
  readonly display: DisplayKind;
  /** The document's words for the type (section 3); `ninefold import` reads them back. */
  readonly words: string;
  /** Other spellings `ninefold import` accepts for the type. */
  readonly alsoRead: readonly string[];
  /**
   * Free text: length, pattern and format rules apply, search covers it by default, lists sort it
   * without regard to case, and it gets a default length ceiling (src/spec/valueLimits.ts): `line`
   * the constant `textMaxLength`, `lines` the constant `longTextMaxLength`.
   */
  readonly freeText?: 'line' | 'lines';
  /** A value may span lines (the database keeps line breaks in payloads filled from it). */
  readonly multiline: boolean;
}

const TEXT = { type: 'string' } as const;

const ENTRIES = {
  text: {
    sql: 'text',
    ts: 'string',
    openApi: TEXT,
    shape: 'string',
    rule: 'text',
    widget: 'text',
    display: 'plain',
    words: 'text',
    alsoRead: [],
    freeText: 'line',
    multiline: false,
  },
  longtext: {
    sql: 'text',
    ts: 'string',
    openApi: TEXT,
    shape: 'string',
    rule: 'text',
    widget: 'textarea',
    display: 'multiline',
    words: 'long text',
    alsoRead: ['longtext'],
    freeText: 'lines',
    multiline: true,
  },
  email: {
    sql: 'text',
    ts: 'string',
    openApi: TEXT,
    shape: 'email',
    rule: 'text',
    widget: 'email',
    display: 'plain',
    words: 'email address',
    alsoRead: ['email', 'e-mail'],
    freeText: 'line',
    multiline: false,
  },
  number: {
    sql: 'numeric',
    ts: 'number',
    openApi: { type: 'number' },
    shape: 'number',
    rule: 'number',
    widget: 'number',
    display: 'plain',
    words: 'number',
    alsoRead: [],
    multiline: false,
  },
  integer: {
    sql: 'integer',
    ts: 'number',
    openApi: { type: 'integer' },
    shape: 'integer',
    rule: 'number',
    widget: 'integer',
    display: 'plain',
    words: 'whole number',
    alsoRead: ['integer'],
    multiline: false,
  },
  money: {
    sql: 'numeric',
    ts: 'number',
    openApi: { type: 'number' },
    shape: 'number',
    rule: 'number',
    widget: 'money',
    display: 'money',
    words: 'money',
    alsoRead: [],
    multiline: false,
  },
  boolean: {
    sql: 'boolean',
    ts: 'boolean',
    openApi: { type: 'boolean' },
    shape: 'boolean',
    rule: 'boolean',
    widget: 'checkbox',
    display: 'yesNo',
    words: 'yes / no',
    alsoRead: ['yes/no', 'boolean'],
    multiline: false,
  },
  date: {
    sql: 'date',
    ts: 'string',
    openApi: { type: 'string', format: 'date' },
    shape: 'date',
    rule: 'date',
    widget: 'date',
    display: 'date',
    words: 'date',
    alsoRead: [],
    multiline: false,
  },
  datetime: {
    sql: 'timestamptz',
    ts: 'string',
    openApi: { type: 'string', format: 'date-time' },
    shape: 'datetime',
    rule: 'datetime',
    widget: 'datetime',
    display: 'datetime',
    words: 'date and time',
    alsoRead: ['datetime'],
    multiline: false,
  },
  enum: {
    sql: 'text',
    ts: 'string',
    openApi: TEXT,
    shape: 'string',
    rule: 'enum',
    widget: 'select',
    display: 'option',
    words: 'one of',
    alsoRead: ['enum'],
    multiline: false,
  },
  status: {
    sql: 'text',
    ts: 'string',
    openApi: TEXT,
    shape: 'string',
    rule: 'status',
    widget: 'status',
    display: 'status',
    words: 'status',
    alsoRead: [],
    multiline: false,
  },
  ref: {
    sql: 'uuid',
    ts: 'string',
    openApi: { type: 'string', format: 'uuid' },
    shape: 'uuid',
    rule: 'ref',
    widget: 'ref',
    display: 'ref',
    words: 'reference',
    alsoRead: ['reference to', 'ref'],
    multiline: false,
  },
  user: {
    sql: 'uuid',
    ts: 'string',
    openApi: { type: 'string', format: 'uuid' },
    shape: 'uuid',
    rule: 'user',
    widget: 'user',
    display: 'user',
    words: 'user',
    alsoRead: [],
    multiline: false,
  },
  file: {
    sql: 'text',
    ts: 'string',
    openApi: TEXT,
    shape: 'uuid',
    rule: 'text',
    widget: 'file',
    display: 'plain',
    words: 'file',
    alsoRead: [],
    multiline: true,
  },
  tags: {
    sql: 'text[]',
    ts: 'string[]',
    openApi: { type: 'array', items: { type: 'string' } },
    shape: 'string[]',
    rule: 'tags',
    widget: 'tags',
    display: 'tags',
    words: 'tags',
    alsoRead: [],
    multiline: true,
  },
} as const satisfies Record<FieldType, FieldTypeEntry>;

/** The registry, by type name. */
export const FIELD_TYPES: Readonly<Record<FieldType, FieldTypeEntry>> = ENTRIES;

/** The TypeScript type word of a field type's values, as a type (`defineApp`'s `RowOf`). */
export type FieldTsWord<T extends FieldType> = (typeof ENTRIES)[T]['ts'];

/** Every field type, in the registry's order. */
export const FIELD_TYPE_NAMES = Object.keys(FIELD_TYPES) as FieldType[];

/**
 * The registry entry of a field type.
 *
 * @example
 * fieldTypeEntry('money').sql; // 'numeric'
 */
export function fieldTypeEntry(type: FieldType): FieldTypeEntry {
  return FIELD_TYPES[type];
}

/**
 * Every word `ninefold import` reads as a type, longest first, so `date and time` wins over
 * `date` and `long text` over `text`.
 */
export const FIELD_TYPE_WORDS: readonly (readonly [string, FieldType])[] = FIELD_TYPE_NAMES.flatMap((type) =>
  [FIELD_TYPES[type].words, ...FIELD_TYPES[type].alsoRead].map((w) => [w, type] as const),
).sort((a, b) => b[0].length - a[0].length);
