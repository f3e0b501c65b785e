import type { AppModel } from '../../model/appModel.ts';
import { HIDDEN_COLUMN } from '../../model/index.ts';
import { transitionFunctionName } from '../../naming.ts';
import type { FieldSpec } from '../../spec/types.ts';
import { BackendError, HIDDEN_FIELDS, type Row } from '../types.ts';

/** The bytes live in Storage; `storage_path` is written by the adapter and never shown. */
export const STORAGE_PATH_COLUMN = 'storage_path';

/** What the adapter needs to know about one entity to talk to its table. */
export interface EntityModel {
  entity: string;
  table: string;
  /** What reads go to: the table, or its masking view when some field is read-restricted. */
  readTable: string;
  /** Some field is read-restricted: writes return the id only and the row is read again. */
  masked: boolean;
  files: boolean;
  /** Field name → field spec (declared fields only). */
  fields: ReadonlyMap<string, FieldSpec>;
  /** Column → field, for every column the adapter may read back. */
  fieldOfColumn: ReadonlyMap<string, string>;
  /** Field → column for declared fields (and the implicit ones). */
  columnOfField: ReadonlyMap<string, string>;
  /** Columns matched by free-text search. */
  searchColumns: readonly string[];
  /** Fields holding timestamps, normalised to `Date#toISOString()` like the embedded backend. */
  timestamps: ReadonlySet<string>;
}

/**
 * The table/column lookups of every entity, read from the app model (the same table nodes the
 * embedded backend and the SQL printer use).
 *
 * @example
 * const models = entityModels(model);
 * models.get('expenseClaim')?.table; // 'expense_claim'
 */
export function entityModels(model: AppModel): ReadonlyMap<string, EntityModel> {
  const out = new Map<string, EntityModel>();
  for (const t of model.tables.values()) {
    const fields = new Map<string, FieldSpec>();
    for (const c of t.columns) if (c.origin === 'declared' && c.spec) fields.set(c.field, c.spec);
    out.set(t.entity, {
      entity: t.entity,
      table: t.table,
      readTable: t.readTable,
      masked: t.readRestricted.length > 0,
      files: t.files,
      fields,
      fieldOfColumn: new Map(t.columns.map((c) => [c.column, c.field])),
      columnOfField: new Map(t.columns.map((c) => [c.field, c.column])),
      searchColumns: t.searchable,
      timestamps: new Set(t.columns.filter((c) => c.timestamp).map((c) => c.field)),
    });
  }
  return out;
}

/** The model of an entity, or `UNKNOWN_ENTITY`. */
export function modelOf(models: ReadonlyMap<string, EntityModel>, entity: string): EntityModel {
  const m = models.get(entity);
  if (!m) throw new BackendError('UNKNOWN_ENTITY', { entity });
  return m;
}

/** PostgREST's `2026-01-02T03:04:05.678901+00:00` → `2026-01-02T03:04:05.678Z`, as PGlite rows give. */
export function isoTimestamp(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const t = Date.parse(v);
  return Number.isNaN(t) ? v : new Date(t).toISOString();
}

/**
 * A database row (snake_case columns) as the UI sees it (camelCase fields). Only columns the
 * specification knows come through, as in the embedded backend (no `storage_path`).
 */
export function toRow(model: EntityModel, record: Record<string, unknown>): Row {
  const out: Record<string, unknown> = {};
  for (const [column, field] of model.fieldOfColumn) {
    if (!(column in record)) continue;
    const value = record[column] ?? null;
    out[field] = model.timestamps.has(field) ? isoTimestamp(value) : value;
  }
  const hidden = record[HIDDEN_COLUMN];
  if (Array.isArray(hidden) && hidden.length > 0) out[HIDDEN_FIELDS] = hidden;
  return out as Row;
}

const READ_ONLY = new Set(['id', 'createdAt', 'updatedAt', 'version']);

/**
 * UI values → a request body with column names. Implicit columns are dropped (the database owns
 * them); names the entity does not declare are refused so a typo never becomes a silent no-op.
 */
export function toColumns(
  model: EntityModel,
  values: Record<string, unknown>,
  extra: readonly string[] = [],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(values)) {
    if (value === undefined || READ_ONLY.has(field)) continue;
    const column =
      model.fields.has(field) || extra.includes(field) ? model.columnOfField.get(field) : undefined;
    if (!column) throw new BackendError('INVALID_INPUT', { entity: model.entity, field });
    out[column] = value;
  }
  return out;
}

/** The column of a field usable in filters and sorting (declared or implicit), or `INVALID_INPUT`. */
export function filterColumn(model: EntityModel, field: string): string {
  const column = model.columnOfField.get(field);
  if (!column) throw new BackendError('INVALID_INPUT', { entity: model.entity, field });
  return column;
}

/** The RPC function running a transition (`public.<table>_<transition>`). */
export function transitionRpc(model: EntityModel, transition: string): string {
  return transitionFunctionName(model.entity, transition);
}
