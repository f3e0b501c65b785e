import { type ColumnNode, FILE_FIELD_ALIASES, FILE_META_COLUMNS, IMPLICIT_COLUMNS } from './column.ts';

/**
 * The implicit column of a field name (`createdAt`), or of a files entity's metadata field under
 * any name rules use (`size`, `sizeBytes`); undefined for a declared field. Reads the one list
 * (IMPLICIT_COLUMNS, FILE_META_COLUMNS in column.ts).
 *
 * @example
 * implicitColumnOf('version', false)?.sqlType; // 'integer'
 */
export function implicitColumnOf(field: string, files: boolean): ColumnNode | undefined {
  const implicit = IMPLICIT_COLUMNS.find((c) => c.field === field);
  if (implicit || !files) return implicit;
  const alias = FILE_FIELD_ALIASES[field];
  return FILE_META_COLUMNS.find((c) => (alias === undefined ? c.field === field : c.column === alias));
}

/**
 * A files entity's metadata columns in the order the migration lists them (name, size, type: the
 * order of the first migrations, kept so that deployed SQL does not change), from the one list.
 */
export const FILE_META_SQL_COLUMNS: readonly string[] = ['name', 'size', 'type'].map(
  (field) => FILE_META_COLUMNS.find((c) => c.field === field)?.column ?? field,
);
