import type { PGliteInterface } from '@electric-sql/pglite';
import type { AppSpec } from '../../spec/types.ts';
import { AUTH_STAND_IN_SQL } from '../../sql/authStandIn.ts';
import { compileMigration } from '../../sql/compileMigration.ts';
import { BackendError } from '../types.ts';
import { embeddedExtrasSql } from './embeddedExtras.sql.ts';
import { entityInfo } from './entityInfo.ts';
import { recordVersion, upgradeSchema } from './upgradeSchema.ts';

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
 * The statements that shape stored data: table definitions (columns, checks) and added
 * constraints. Everything else in the migration (functions, policies, grants, triggers) is
 * replaced in place by running it again; these are not, so a changed one means the data's shape
 * changed and must not be touched silently. New ones (a new entity) are fine.
 */
export function tableShape(sql: string): string[] {
  const tables = sql.match(/create table if not exists[\s\S]*?\n\);/g) ?? [];
  const constraints = sql.match(/alter table [^\n]* add constraint [^\n]*/g) ?? [];
  return [...tables, ...constraints];
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
  spec: AppSpec,
  options: string | BootOptions = {},
): Promise<BootResult> {
  const opts: BootOptions = typeof options === 'string' ? { knownVersion: options } : options;
  const stored = await storedSchemaVersion(db);
  if (stored !== undefined && stored === opts.knownVersion) return { version: stored, outcome: 'unchanged' };
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
    alter table ninefold.schema_version add column if not exists model jsonb;
    alter table ninefold.schema_version add column if not exists history text[] not null default '{}';`);
  const row = (
    await db.query<{ version: string; sql: string; model: unknown }>(
      'select version, sql, model from ninefold.schema_version',
    )
  ).rows[0];
  const current = row?.version;
  if (current === version) return { version, outcome: 'unchanged' };
  if (row?.model) return upgradeSchema(db, spec, { sql, version }, opts);
  if (row) {
    // A database from before models were recorded: only changes that leave every table as it was.
    const next = new Set(tableShape(sql));
    const changed = tableShape(row.sql).filter((s) => !next.has(s));
    if (changed.length > 0) {
      throw new BackendError('SCHEMA_CHANGED', {
        from: current,
        to: version,
        changed: changed.map((s) => s.split('\n')[0]),
        exportWith: 'exportDatabase()',
      });
    }
  }
  try {
    await db.transaction(async (tx) => {
      await tx.exec(sql);
      const missing = await missingColumns(tx, spec);
      if (missing.length > 0) throw new BackendError('SCHEMA_CHANGED', { missing });
      await recordVersion(tx, spec, sql, version);
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
