import type { AppModel } from '../model/appModel.ts';
import type { ColumnNode } from '../model/column.ts';
import type { FieldSpec } from '../spec/types.ts';

// The facts the user-facing printers (types, OpenAPI, pgTAP) need, read from the resolved app model
// (src/model) in the shape the hosted (Supabase) migration gives them.

/** One column of a table as the hosted database has it. */
export interface PrintColumn {
  /** The spec's field name (camelCase), or the implicit column's API name. */
  field: string;
  column: string;
  sqlType: string;
  /** The column accepts null. */
  nullable: boolean;
  /** An insert may leave it out: a default, a trigger (owner fields) or null fills it. */
  optionalOnInsert: boolean;
  /** Allowed values of an enum, status or tags column. */
  values?: readonly string[];
  /** The table a reference column points at. */
  references?: string;
  /** Declared in the specification (not implicit: id, timestamps, version, file columns). */
  spec?: FieldSpec;
  /** The field's `read` rule: clients read the value only through the table's masking view. */
  read?: string;
}

export interface PrintTransition {
  name: string;
  /** The database function (PostgREST `rpc/<fn>`). */
  fn: string;
  from: readonly string[];
  to: string;
  roles: readonly string[];
  input: readonly string[];
}

export interface PrintTable {
  entity: string;
  table: string;
  /** What clients read: the table, or its masking view when some field has a `read` rule. */
  readTable: string;
  label: string;
  columns: PrintColumn[];
  transitions: PrintTransition[];
  /** The append-only history table, for entities with states. */
  history?: string;
}

function printColumn(
  model: AppModel,
  isOwnerOrStatus: boolean,
  c: ColumnNode,
  isProfile: boolean,
): PrintColumn {
  const optional =
    c.origin === 'implicit'
      ? !(c.field === 'id' && isProfile)
      : c.origin === 'file-meta'
        ? c.column === 'mime_type'
        : !c.notNull || isOwnerOrStatus || c.default !== undefined;
  const ref = c.references === undefined ? undefined : model.tables.get(c.references)?.table;
  return {
    field: c.field,
    column: c.column,
    sqlType: c.sqlType,
    nullable: !c.notNull,
    optionalOnInsert: optional,
    ...(c.values ? { values: c.values.map((v) => v.value) } : {}),
    ...(ref ? { references: ref } : {}),
    ...(c.spec ? { spec: c.spec } : {}),
    ...(c.read ? { read: c.read.text } : {}),
  };
}

/**
 * The tables of an app as the hosted (Supabase) migration creates them, in spec order.
 *
 * @example
 * printerTables(resolve(helpdesk))[1].columns.map((c) => c.column); // ['id', 'created_at', …, 'title', …]
 */
export function printerTables(model: AppModel): PrintTable[] {
  return [...model.tables.values()].map((t) => {
    const columns = t.columns.map((c) =>
      printColumn(model, c.field === t.statusField || t.ownerFields.includes(c.field), c, t.profile),
    );
    // Hosted: a files row keeps the path of its object in Storage (src/sql/emitFiles.ts).
    if (t.files)
      columns.push({
        field: 'storagePath',
        column: 'storage_path',
        sqlType: 'text',
        nullable: true,
        optionalOnInsert: true,
      });
    return {
      entity: t.entity,
      table: t.table,
      readTable: t.readTable,
      label: t.label,
      columns,
      transitions: t.transitions.map((tr) => ({
        name: tr.name,
        fn: tr.functionName,
        from: tr.from,
        to: tr.to,
        roles: tr.roles,
        input: tr.input,
      })),
      ...(t.historyTable ? { history: t.historyTable } : {}),
    };
  });
}
