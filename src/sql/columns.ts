import { FILE_FIELD_ALIASES } from '../model/column.ts';
import { resolve } from '../model/resolve.ts';
import { columnName } from '../naming.ts';
import type { AppSpec } from '../spec/types.ts';

/**
 * The column (unquoted) of a field of an entity, from the app model: declared and implicit
 * fields, the implied file fields of a files entity (`size` → `size_bytes`, also `sizeBytes`).
 *
 * @example
 * columnFor(spec, 'attachment', 'size'); // 'size_bytes'
 */
export function columnFor(spec: AppSpec, entity: string, field: string): string {
  const t = resolve(spec).tables.get(entity);
  const c = t?.byField.get(field);
  if (c) return c.column;
  if (t?.files && Object.hasOwn(FILE_FIELD_ALIASES, field)) return FILE_FIELD_ALIASES[field] as string;
  return columnName(field);
}
