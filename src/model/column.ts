import { FIELD_TYPES } from '../spec/fieldTypes.ts';
import type { FieldSpec, FieldType } from '../spec/types.ts';
import type { CheckedRule } from './checkedRule.ts';
import type { EnumValueNode } from './enumValue.ts';
import type { FieldFormat } from './formats.ts';

/**
 * Where a column comes from: `implicit` (id, timestamps, version: every table), `declared`
 * (a field of the spec), `file-meta` (name, size, type of a files entity's rows).
 */
export type ColumnOrigin = 'implicit' | 'declared' | 'file-meta';

/** One column of a table, with its spec field name and its SQL facts. */
export interface ColumnNode {
  /** The field name rules, rows and the UI use (`assignedTo`, `size`). */
  field: string;
  /** The SQL column (unquoted): `assigned_to`, `size_bytes`. */
  column: string;
  origin: ColumnOrigin;
  /** The spec's field type (`implicit`/`file-meta` columns have their own). */
  type: FieldType | 'implicit' | 'file-meta';
  /** Postgres type: `text`, `numeric`, `uuid`, `timestamptz`, `text[]`... */
  sqlType: string;
  /** For people: the field's label, else the name spelled out. */
  label: string;
  /** NOT NULL (required, owner, the status field, implicit columns). */
  notNull: boolean;
  /** The field's default as written in the spec (`me`, `now`, a literal), if any. */
  default?: string | number | boolean;
  unique: boolean;
  /** Unique ignoring case (`unique: 'ignoreCase'`): a unique index over `lower(column)`. */
  uniqueIgnoringCase?: boolean;
  /** The allowed values (enum, tags with values, the status field from its states). */
  values?: readonly EnumValueNode[];
  /** Field formats declared for this column by validation rules (`format: 'email'`). */
  formats: readonly FieldFormat[];
  /** The entity a `ref`/`user` column points at. */
  references?: string;
  /** Matched by free-text search (text, longtext, email unless `search: false`; any with `search: true`). */
  searchable: boolean;
  /** The caller may write it through create/update (declared fields). */
  writable: boolean;
  /** Holds a timestamp (normalised to ISO strings by the adapters). */
  timestamp: boolean;
  /** A computed field's rule (`computed`), checked: the server sets it on every write. */
  computed?: CheckedRule;
  /**
   * Who may read the value (`read`), checked: a row rule over the row and `me`. The server masks
   * the value (null) where it fails; the column is not granted to the client roles.
   */
  read?: CheckedRule;
  /** Money: its fixed currency code (`currency`, a constant resolved), when it has one. */
  currency?: string;
  /** The spec's declaration, for declared columns. */
  spec?: FieldSpec;
}

/** The Postgres type of a declared field (the field-type registry's). */
export function sqlTypeOf(type: FieldType): string {
  return FIELD_TYPES[type].sql;
}

function implicit(field: string, column: string, sqlType: string, label: string): ColumnNode {
  return {
    field,
    column,
    origin: 'implicit',
    type: 'implicit',
    sqlType,
    label,
    notNull: true,
    unique: field === 'id',
    formats: [],
    searchable: false,
    writable: false,
    timestamp: sqlType === 'timestamptz',
  };
}

/** Columns every table has, in the order rows list them. */
export const IMPLICIT_COLUMNS: readonly ColumnNode[] = [
  implicit('id', 'id', 'uuid', 'Id'),
  implicit('createdAt', 'created_at', 'timestamptz', 'Created at'),
  implicit('updatedAt', 'updated_at', 'timestamptz', 'Updated at'),
  implicit('version', 'version', 'integer', 'Version'),
];

function fileMeta(field: string, column: string, sqlType: string, label: string): ColumnNode {
  return {
    field,
    column,
    origin: 'file-meta',
    type: 'file-meta',
    sqlType,
    label,
    notNull: true,
    unique: false,
    formats: [],
    searchable: false,
    // The caller names the file and its type; the size is measured from the bytes.
    writable: field !== 'size',
    timestamp: false,
  };
}

/** Columns a files entity's rows have besides their declared fields (the bytes are not a column rows show). */
export const FILE_META_COLUMNS: readonly ColumnNode[] = [
  fileMeta('name', 'name', 'text', 'Name'),
  fileMeta('type', 'mime_type', 'text', 'Type'),
  fileMeta('size', 'size_bytes', 'bigint', 'Size'),
];

/** Other names rules may use for file columns (`sizeBytes <= maxUploadBytes`). */
export const FILE_FIELD_ALIASES: Readonly<Record<string, string>> = {
  sizeBytes: 'size_bytes',
  mimeType: 'mime_type',
};
