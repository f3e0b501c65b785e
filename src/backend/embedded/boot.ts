import type { PGliteInterface } from '@electric-sql/pglite';
import { resolve } from '../../model/resolve.ts';
import { tableShapes } from '../../model/tableShape.ts';
import type { AppSpec } from '../../spec/types.ts';
import { AUTH_STAND_IN_SQL } from '../../sql/authStandIn.ts';
import { compileMigration } from '../../sql/compileMigration.ts';
import { BackendError } from '../types.ts';
import { embeddedExtrasSql } from './embeddedExtras.sql.ts';
import { entityInfo } from './entityInfo.ts';

/** The whole schema the embedded backend runs on, and its version (SHA-256 of the text). */
export async function embeddedSchema(spec: AppSpec): Promise<{ sql: string; version: string }> {
  const sql = `${AUTH_STAND_IN_SQL}\n${compileMigration(spec, { target: 'embedded' })}\n${embeddedExtrasSql(spec)}`;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(sql));
  const version = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return { sql, version };
}

export type BootResult = { version: string; outcome: 'created' | 'unchanged' | 'upgraded' };

/** Columns the data layer reads, missing from the live tables (what `create table if not exists` cannot add). */
async function missingColumns(db: Pick<PGliteInterface, 'query'>, spec: AppSpec): Promise<string[]> {
  const r = await db.query<{ table_name: string; column_name: string }>(
    `select table_name, column_name from information_schema.columns where table_schema = 'public'`,
  );
  const have = new Set(r.rows.map((c) => `${c.table_name}.${c.column_name}`));
  const missing: string[] = [];
  for (const entity of Object.keys(spec.entities)) {
    const info = entityInfo(spec, entity);
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

/**
 * Brings a database to the spec's schema, once: applies the Supabase stand-in, the migration and
 * the embedded extras to a fresh database and records the version. When the spec changed, the new
 * migration is applied if it leaves every existing table definition as it was (new tables, new
 * functions, policies and grants are fine); if a table changed, or applying fails, or a column is
 * missing, nothing is changed and SCHEMA_CHANGED says how to keep the data (export it).
 * Never drops anything. A return visit costs one read: the stored version is compared first with
 * `knownVersion` (the build computes it, see `src/cli/snapshotPlugin.ts`), so the migration is not
 * even compiled when nothing changed.
 *
 * @example
 * const { outcome } = await bootSchema(db, spec); // 'created' on first visit, then 'unchanged'
 */
export async function bootSchema(
  db: PGliteInterface,
  spec: AppSpec,
  knownVersion?: string,
): Promise<BootResult> {
  const stored = await storedSchemaVersion(db);
  if (stored !== undefined && stored === knownVersion) return { version: stored, outcome: 'unchanged' };
  const { sql, version } = await embeddedSchema(spec);
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
    alter table ninefold.schema_version add column if not exists shapes text;`);
  const row = (
    await db.query<{ version: string; shapes: string | null }>(
      'select version, shapes from ninefold.schema_version',
    )
  ).rows[0];
  const shapes = await tableShapes(resolve(spec));
  const current = row?.version;
  if (current === version) return { version, outcome: 'unchanged' };
  // A database recorded before shapes were kept has none: the transaction below still refuses
  // a migration that fails or leaves a column missing.
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
      const missing = await missingColumns(tx, spec);
      if (missing.length > 0) throw new BackendError('SCHEMA_CHANGED', { missing });
      await tx.query(
        `insert into ninefold.schema_version (id, version, app, sql, shapes) values (1, $1, $2, $3, $4)
         on conflict (id) do update set version = excluded.version, app = excluded.app, sql = excluded.sql,
           shapes = excluded.shapes, applied_at = now()`,
        [version, spec.purpose.name, sql, JSON.stringify(shapes)],
      );
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
