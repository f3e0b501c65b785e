import type { AppModel } from '../model/appModel.ts';
import { modelOf, type SpecOrModel } from '../model/modelOf.ts';
import { migrationOf } from '../sql/compileMigration.ts';
import { historyTable } from '../sql/emitHistory.ts';
import type { Target } from '../sql/specModel.ts';
import { type Invariant, rowInvariants } from './invariants.ts';
import { type SchemaShape, schemaModelOf } from './schemaModel.ts';

/** What the lock knows of one entity: its table, its fields' columns, its states. */
export interface EntityLock {
  table: string;
  /** History table, for entities with states. */
  history?: string;
  /** field → column */
  fields: Record<string, string>;
  /** The status field and its states, for entities with states. */
  states?: { field: string; values: string[] };
}

/**
 * The model a migration was generated from, as recorded beside the migrations
 * (`supabase/ninefold.lock.json`) and in an embedded database (`ninefold.schema_version.model`).
 * The next `ninefold migrate` diffs it with the current specification's.
 */
export interface LockModel {
  ninefold: 1;
  app: string;
  target: Target;
  entities: Record<string, EntityLock>;
  schema: SchemaShape;
  /**
   * Row rules enforced by triggers that existing rows are checked against when they are new or
   * changed (invariants.ts). Absent in locks written before: then every one is checked.
   */
  invariants?: Invariant[];
}

/** The schema-defining SQL of a model for a target: the migration, plus (embedded) the extras the backend adds. */
export type SchemaSql = (model: AppModel, target: Target) => string;

const migrationOnly: SchemaSql = (model, target) => migrationOf(model, target);

/**
 * The lock model of a specification: what its migration creates. Pure and deterministic.
 *
 * @example
 * lockModel(helpdesk, 'supabase').entities.ticket.table; // 'public.ticket'
 */
export function lockModel(app: SpecOrModel, target: Target, sqlOf: SchemaSql = migrationOnly): LockModel {
  // Which table and column each entity and field is: read from the resolved app model.
  const model = modelOf(app);
  const entities: Record<string, EntityLock> = {};
  for (const [name, t] of model.tables) {
    const lock: EntityLock = {
      table: t.ref,
      fields: Object.fromEntries(
        t.columns.filter((c) => c.origin === 'declared').map((c) => [c.field, c.column]),
      ),
    };
    const status = t.statusField ? t.byField.get(t.statusField) : undefined;
    if (t.statusField && status) {
      lock.history = historyTable(t);
      lock.states = { field: t.statusField, values: (status.values ?? []).map((v) => v.value) };
    }
    entities[name] = lock;
  }
  return {
    ninefold: 1,
    app: model.purpose.name,
    target,
    entities,
    schema: schemaModelOf(sqlOf(model, target)),
    invariants: rowInvariants(model),
  };
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  return v;
}

/** The lock as deterministic JSON (sorted keys, two-space indent, final newline): diffs review well. */
export function lockJson(model: LockModel): string {
  return `${JSON.stringify(sortKeys(model), null, 2)}\n`;
}

/** Reads a lock file; throws with a one-line reason when it is not one. */
export function parseLock(text: string): LockModel {
  const v: unknown = JSON.parse(text);
  if (
    typeof v !== 'object' ||
    v === null ||
    (v as { ninefold?: unknown }).ninefold !== 1 ||
    typeof (v as { schema?: unknown }).schema !== 'object'
  )
    throw new Error('not a Ninefold lock file (version 1)');
  return v as LockModel;
}
