import type { AppModel } from './appModel.ts';
import { BackendError } from './builtinCodes.ts';
import type { ColumnNode } from './column.ts';
import type { TableNode } from './table.ts';

/**
 * The table of an entity, or `UNKNOWN_ENTITY` (names from the caller are not trusted).
 *
 * @example
 * tableOf(model, 'ticket').ref; // 'public.ticket'
 */
export function tableOf(model: AppModel, entity: string): TableNode {
  const t = model.tables.get(entity);
  if (!t) throw new BackendError('UNKNOWN_ENTITY', { entity });
  return t;
}

/** The table whose SQL name is `table`, if the spec has one. */
export function tableByName(model: AppModel, table: string | undefined): TableNode | undefined {
  if (!table) return undefined;
  for (const t of model.tables.values()) if (t.table === table) return t;
  return undefined;
}

/** A column of an entity by field name (declared, implicit or file metadata), if any. */
export function columnOf(model: AppModel, entity: string, field: string): ColumnNode | undefined {
  return model.tables.get(entity)?.byField.get(field);
}
