import { columnName, tableName, transitionFunctionName } from '../naming.ts';
import type { AppSpec, FieldSpec } from '../spec/types.ts';
import { enumValues, ownerFields, referencedEntity, sqlType } from '../sql/specModel.ts';

// The facts the user-facing printers (types, OpenAPI, pgTAP) need, read from the specification
// through the SQL compiler's own helpers (naming, specModel). One small adapter, so the printers
// switch to the resolved app model (src/model) by changing this file only.

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
  label: string;
  columns: PrintColumn[];
  transitions: PrintTransition[];
  /** The append-only history table, for entities with states. */
  history?: string;
}

const implicit = (field: string, sql: string, optional: boolean): PrintColumn => ({
  field,
  column: columnName(field),
  sqlType: sql,
  nullable: false,
  optionalOnInsert: optional,
});

/**
 * The tables of a specification as the hosted (Supabase) migration creates them, in spec order.
 *
 * @example
 * printerTables(helpdesk)[1].columns.map((c) => c.column); // ['id', 'created_at', …, 'title', …]
 */
export function printerTables(spec: AppSpec): PrintTable[] {
  return Object.entries(spec.entities).map(([entity, e]) => {
    const states = spec.states[entity];
    const owners = ownerFields(e);
    const columns: PrintColumn[] = [
      implicit('id', 'uuid', !e.profile),
      implicit('createdAt', 'timestamptz', true),
      implicit('updatedAt', 'timestamptz', true),
      implicit('version', 'integer', true),
    ];
    if (e.files)
      columns.push(
        implicit('name', 'text', false),
        { ...implicit('size', 'bigint', false), column: 'size_bytes' },
        { ...implicit('type', 'text', true), column: 'mime_type' },
        { ...implicit('storagePath', 'text', true), nullable: true },
      );
    for (const [field, f] of Object.entries(e.fields)) {
      const isStatus = states?.field === field;
      const nullable = !(f.required || f.owner || isStatus);
      const values = enumValues(spec, entity, field, f);
      const ref = referencedEntity(spec, f);
      columns.push({
        field,
        column: columnName(field),
        sqlType: sqlType(f),
        nullable,
        optionalOnInsert:
          nullable || isStatus || owners.includes(field) || (f.default !== undefined && f.default !== null),
        ...(values ? { values } : {}),
        ...(ref ? { references: tableName(ref) } : {}),
        spec: f,
      });
    }
    const transitions: PrintTransition[] = Object.entries(states?.transitions ?? {}).map(([name, t]) => ({
      name,
      fn: transitionFunctionName(entity, name),
      from: t.from,
      to: t.to,
      roles: t.roles,
      input: t.input ?? [],
    }));
    return {
      entity,
      table: tableName(entity),
      label: e.label,
      columns,
      transitions,
      ...(states ? { history: `${tableName(entity)}_history` } : {}),
    };
  });
}
