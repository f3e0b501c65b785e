import type { PGliteInterface } from '@electric-sql/pglite';
import type { AppModel } from '../../model/appModel.ts';
import { modelOf, type SpecOrModel } from '../../model/modelOf.ts';
import { tableShapes } from '../../model/tableShape.ts';
import { AUTH_STAND_IN_SQL } from '../../sql/authStandIn.ts';
import { BackendError } from '../types.ts';
import { embeddedSchemaSql, recordVersion, upgradeSchema } from './upgradeSchema.ts';

/** The whole schema the embedded backend runs on, and its version (SHA-256 of the text). */
export async function embeddedSchema(app: SpecOrModel): Promise<{ sql: string; version: string }> {
  const sql = `${AUTH_STAND_IN_SQL}\n${embeddedSchemaSql(modelOf(app), 'embedded')}`;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(sql));
  const version = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return { sql, version };
}

export type BootResult = { version: string; outcome: 'created' | 'unchanged' | 'upgraded' };

/** Columns the data layer reads, missing from the live tables (what `create table if not exists` cannot add). */
async function missingColumns(db: Pick<PGliteInterface, 'query'>, model: AppModel): Promise<string[]> {
  const r = await db.query<{ table_name: string; column_name: string }>(
    // The system catalog, not information_schema: the snapshot leaves that out (snapshot.ts).
    `select c.relname as table_name, a.attname as column_name
       from pg_catalog.pg_attribute a
       join pg_catalog.pg_class c on c.oid = a.attrelid
       join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p', 'v') and a.attnum > 0 and not a.attisdropped`,
  );
  const have = new Set(r.rows.map((c) => `${c.table_name}.${c.column_name}`));
  const missing: string[] = [];
  for (const info of model.tables.values()) {
    for (const c of info.columns)
      if (!have.has(`${info.table}.${c.column}`)) missing.push(`${info.table}.${c.column}`);
  }
  return missing;
}

/**
 * Tables whose shape (columns, constraints, foreign keys: `src/model/tableShape.ts`) differs
 * between the stored model hashes and the new ones. New tables (a new entity) are fine; a
 * changed or removed one means the data's shape changed and must not be touched silently.
 */
export function changedTables(stored: Record<string, string>, next: Record<string, string>): string[] {
  return Object.keys(stored).filter((t) => next[t] !== stored[t]);
}

function parseShapes(text: string | null | undefined): Record<string, string> | undefined {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as Record<string, string>;
  } catch {
    return undefined;
  }
}

/** The recorded schema version, or undefined when the database has none yet (fresh, or created elsewhere). */
export async function storedSchemaVersion(db: Pick<PGliteInterface, 'query'>): Promise<string | undefined> {
  // One read, no DDL: a return visit must not pay for (or persist) anything when nothing changed.
  try {
    const r = await db.query<{ version: string }>('select version from ninefold.schema_version');
    return r.rows[0]?.version;
  } catch {
    // No table yet (a fresh database): the full path below creates it.
    return undefined;
  }
}

/** What boot may do beyond bringing a database to the spec's schema. */
export interface BootOptions {
  /** The version the build computed (`embeddedSchema(spec).version`): one read when nothing changed. */
  knownVersion?: string;
  /** One line for the boot screen while an upgrade runs (`Upgrading your data…`). */
  onProgress?: (line: string) => void;
  /** Let an upgrade drop fields, entities or history the spec no longer has (their data is deleted). */
  allowDestructive?: boolean;
}

/**
 * Brings a database to the spec's schema, once. A fresh database gets the Supabase stand-in, the
 * migration and the embedded extras. A database made from another version of the spec is
 * upgraded in place (`upgradeSchema`: the migration `ninefold migrate` would write, from the model
 * recorded in the database, in one transaction, keeping every row); if that is refused or fails,
 * nothing changes and SCHEMA_CHANGED says why. A return visit costs one read: the stored version is
 * compared first with `knownVersion` (the build computes it, see `src/cli/snapshotPlugin.ts`).
 *
 * @example
 * const { outcome } = await bootSchema(db, spec); // 'created' on first visit, then 'unchanged'
 */
export async function bootSchema(
  db: PGliteInterface,
  model: AppModel,
  options: string | BootOptions = {},
): Promise<BootResult> {
  const opts: BootOptions = typeof options === 'string' ? { knownVersion: options } : options;
  const stored = await storedSchemaVersion(db);
  if (stored !== undefined && stored === opts.knownVersion) return { version: stored, outcome: 'unchanged' };
  const { sql, version } = await embeddedSchema(model);
  if (stored === version) return { version, outcome: 'unchanged' };
  await db.exec(`create schema if not exists ninefold;
    revoke all on schema ninefold from public;
    create table if not exists ninefold.schema_version (
      id int primary key default 1 check (id = 1),
      version text not null,
      app text not null,
      sql text not null default '',
      applied_at timestamptz not null default now()
    );
    alter table ninefold.schema_version add column if not exists shapes text;
    alter table ninefold.schema_version add column if not exists model jsonb;
    alter table ninefold.schema_version add column if not exists history text[] not null default '{}';`);
  const row = (
    await db.query<{ version: string; shapes: string | null; model: unknown }>(
      'select version, shapes, model from ninefold.schema_version',
    )
  ).rows[0];
  const shapes = await tableShapes(model);
  const current = row?.version;
  if (current === version) return { version, outcome: 'unchanged' };
  // A database that recorded its model is upgraded in place (upgradeSchema.ts).
  if (row?.model) return upgradeSchema(db, model, { sql, version }, opts);
  // Older databases: only changes that leave every table as it was. One recorded before shapes
  // were kept has none: the transaction below still refuses a migration that fails or leaves a
  // column missing.
  const storedShapes = parseShapes(row?.shapes);
  if (storedShapes) {
    const changed = changedTables(storedShapes, shapes).map((t) => `create table ${t}`);
    if (changed.length > 0) {
      throw new BackendError('SCHEMA_CHANGED', {
        from: current,
        to: version,
        changed,
        exportWith: 'exportDatabase()',
      });
    }
  }
  try {
    await db.transaction(async (tx) => {
      await tx.exec(sql);
      const missing = await missingColumns(tx, model);
      if (missing.length > 0) throw new BackendError('SCHEMA_CHANGED', { missing });
      await recordVersion(tx, model, sql, version);
    });
  } catch (e) {
    if (current === undefined && !(e instanceof BackendError)) throw e;
    const detail = e instanceof BackendError ? e.params : {};
    throw new BackendError('SCHEMA_CHANGED', {
      ...detail,
      from: current ?? null,
      to: version,
      // The data is untouched; exporting it is the way to carry it over by hand.
      exportWith: 'exportDatabase()',
    });
  }
  return { version, outcome: current === undefined ? 'created' : 'upgraded' };
}
