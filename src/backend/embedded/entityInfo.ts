import type { ColumnNode } from '../../model/column.ts';
import { tableOf } from '../../model/lookup.ts';
import { resolve } from '../../model/resolve.ts';
import type { TableNode } from '../../model/table.ts';
import { historyTableName, transitionFunctionName } from '../../naming.ts';
import type { AppSpec } from '../../spec/types.ts';
import { qualified } from '../../sql/quote.ts';

/** What the data layer knows about one entity's table: the app model's table node. */
export type EntityInfo = TableNode;
export type ColumnInfo = ColumnNode;

/**
 * Table and column facts for an entity, from the app model; rejects with UNKNOWN_ENTITY for
 * names not in the spec.
 *
 * @example
 * entityInfo(spec, 'ticket').byField.get('assignedTo')?.column; // 'assigned_to'
 */
export function entityInfo(spec: AppSpec, entity: string): EntityInfo {
  return tableOf(resolve(spec), entity);
}

/** `public.<table>_<transition>` quoted. */
export function transitionRef(entity: string, transition: string): string {
  return qualified('public', transitionFunctionName(entity, transition));
}

/** `public.<table>_history` quoted. */
export function historyRef(entity: string): string {
  return qualified('public', historyTableName(entity));
}

/** A column name, always quoted: spec fields like `order`, `user` or `type` are SQL keywords. */
export function col(column: string): string {
  return `"${column.replace(/"/g, '""')}"`;
}
