import { columnName } from '../naming.ts';
import type { AppSpec } from '../spec/types.ts';

/**
 * Implied columns of a files entity, by the field names rules may use for them
 * (`size <= maxUploadBytes`): name, size (bytes), type / mimeType.
 */
export const FILE_COLUMNS: Readonly<Record<string, string>> = {
  name: 'name',
  size: 'size_bytes',
  sizeBytes: 'size_bytes',
  type: 'mime_type',
  mimeType: 'mime_type',
};

/**
 * The column (unquoted) of a field of an entity: declared and implicit fields by `columnName`,
 * implied file fields of a files entity by `FILE_COLUMNS`.
 *
 * @example
 * columnFor(spec, 'attachment', 'size'); // 'size_bytes'
 */
export function columnFor(spec: AppSpec, entity: string, field: string): string {
  const e = spec.entities[entity];
  const implied = Object.hasOwn(FILE_COLUMNS, field) ? FILE_COLUMNS[field] : undefined;
  if (e?.files && !Object.hasOwn(e.fields, field) && implied) return implied;
  return columnName(field);
}
