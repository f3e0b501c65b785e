import { columnName, historyTableName, screenWhereFunctionName, tableName } from '../naming.ts';
import { FILE_FIELD_ALIASES } from './column.ts';
import type { TableNode } from './table.ts';

export type { HistorySqlNames, TableSqlNames } from './tableSqlNames.ts';

import type { TableSqlNames } from './tableSqlNames.ts';

/**
 * The SQL names of an entity's table and everything the migration builds on it.
 *
 * @example
 * tableSqlNames('ticket').history.table; // 'ticket_history'
 * tableSqlNames('ticket').foreignKey('assignee'); // 'ticket__assignee__fk'
 */
export function tableSqlNames(entity: string): TableSqlNames {
  const t = tableName(entity);
  const h = historyTableName(entity);
  const own = (suffix: string) => `${t}__${suffix}`;
  return {
    table: t,
    history: {
      table: h,
      appendOnly: `${h}__append_only`,
      rowIdIndex: `${h}__row_id__idx`,
      readPolicy: `${h}__read`,
      rowIdForeignKey: `${h}__row_id__fk`,
    },
    onInsert: own('on_insert'),
    onUpdate: own('on_update'),
    validate: own('validate'),
    revalidateDependents: own('revalidate_dependents'),
    recomputeDependents: own('recompute_dependents'),
    recheckPermission: own('recheck_permission'),
    checkBecomes: own('check_becomes'),
    lockGroups: own('lock_groups'),
    countedForWriter: own('counted_for_writer'),
    audit: own('audit'),
    storagePath: own('storage_path'),
    queueFileRemoval: own('queue_file_removal'),
    search: own('search'),
    runTimed: own('run_timed'),
    readView: own('readable'),
    hiddenFields: own('hidden_fields'),
    readField: (column) => own(`read_${column}`),
    auditAdded: (column) => own(`audit_${column}`),
    auditAddedTrigger: (column) => `ninefold_audit_${column}`,
    policyHelper: (kind, n) => own(`${kind}_${n}`),
    foreignKey: (column) => own(`${column}__fk`),
    index: (column) => own(`${column}__idx`),
    trigramIndex: (column) => own(`${column}__trgm_idx`),
    columnConstraint: (column, what) => own(`${column}__${what}`),
  };
}

/**
 * The column (unquoted) of a field of a table: declared, implicit and file-metadata fields, the
 * other names rules use for file columns (`sizeBytes`), else the field spelled in snake case.
 *
 * @example
 * sqlColumnOf(model.tables.get('attachment'), 'size'); // 'size_bytes'
 */
export function sqlColumnOf(t: TableNode | undefined, field: string): string {
  const c = t?.byField.get(field);
  if (c) return c.column;
  if (t?.files && Object.hasOwn(FILE_FIELD_ALIASES, field)) return FILE_FIELD_ALIASES[field] as string;
  return columnName(field);
}

/** The function applying a screen's `where` to one row (schema public): `<table>__where_<screen>`. */
export function screenWhereFunction(entity: string, screen: string): string {
  return screenWhereFunctionName(entity, screen);
}
