import type { AppModel } from '../../model/appModel.ts';
import type { ColumnNode } from '../../model/column.ts';
import { tableOf } from '../../model/lookup.ts';
import type { TableNode } from '../../model/table.ts';
import { qualified } from '../../sql/quote.ts';
import { BackendError } from '../types.ts';

/** What the data layer knows about one entity's table: the app model's table node. */
export type EntityInfo = TableNode;
export type ColumnInfo = ColumnNode;

/**
 * Table and column facts for an entity, from the app model; rejects with UNKNOWN_ENTITY for
 * names not in the spec.
 *
 * @example
 * entityInfo(model, 'ticket').byField.get('assignedTo')?.column; // 'assigned_to'
 */
export function entityInfo(model: AppModel, entity: string): EntityInfo {
  return tableOf(model, entity);
}

/** The transition's function, quoted and schema-qualified; INVALID_TRANSITION when the entity has no such transition. */
export function transitionRef(info: EntityInfo, transition: string): string {
  const t = info.transitions.find((x) => x.name === transition);
  if (!t) throw new BackendError('INVALID_TRANSITION', { entity: info.entity, transition });
  return qualified('public', t.functionName);
}

/** The entity's history table, quoted and schema-qualified (entities with states only). */
export function historyRef(info: EntityInfo): string {
  if (!info.historyTable) throw new Error(`${info.entity} has no history table`);
  return qualified('public', info.historyTable);
}
