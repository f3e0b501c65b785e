import type { AppModel } from '../model/appModel.ts';
import { sqlColumnOf } from '../model/sqlNames.ts';

/**
 * The column (unquoted) of a field of an entity, from the app model: declared and implicit
 * fields, the implied file fields of a files entity (`size` → `size_bytes`, also `sizeBytes`).
 *
 * @example
 * columnFor(model, 'attachment', 'size'); // 'size_bytes'
 */
export function columnFor(model: AppModel, entity: string, field: string): string {
  return sqlColumnOf(model.tables.get(entity), field);
}
