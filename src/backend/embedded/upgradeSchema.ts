import type { PGliteInterface, Transaction } from '@electric-sql/pglite';
import { type LockModel, lockModel, type SchemaSql } from '../../migrate/lockModel.ts';
import { planMigration } from '../../migrate/planMigration.ts';
import type { AppModel } from '../../model/appModel.ts';
import { tableShapes } from '../../model/tableShape.ts';
import { migrationOf } from '../../sql/compileMigration.ts';
import { BackendError } from '../types.ts';
import { embeddedExtrasSql } from './embeddedExtras.sql.ts';

// A model is never changed once resolved, so its SQL and lock are computed once: an upgrade needs
// them four times (version, plan, lock, record), the studio's live app at each edit.
const sqlOf = new WeakMap<AppModel, string>();
const lockOf = new WeakMap<AppModel, LockModel>();

/** The schema-defining SQL of the embedded backend (without the auth stand-in, which never changes shape). */
export const embeddedSchemaSql: SchemaSql = (model) => {
  let sql = sqlOf.get(model);
  if (sql === undefined) {
    sql = `${migrationOf(model, 'embedded')}\n${embeddedExtrasSql()}`;
    sqlOf.set(model, sql);
  }
  return sql;
};

/** The model an embedded database records (`ninefold.schema_version.model`). */
export function embeddedModel(model: AppModel): LockModel {
  let lock = lockOf.get(model);
  if (lock === undefined) {
    lock = lockModel(model, 'embedded', embeddedSchemaSql);
    lockOf.set(model, lock);
  }
  return lock;
}

/** Records the version, the SQL, the model and the versions this database has had. */
export async function recordVersion(
  tx: Pick<Transaction, 'query'>,
  model: AppModel,
  sql: string,
  version: string,
): Promise<void> {
  const shapes = await tableShapes(model);
  await tx.query(
    `insert into ninefold.schema_version (id, version, app, sql, shapes, model, history)
     values (1, $1, $2, $3, $4, $5::jsonb, array[$1])
     on conflict (id) do update set version = excluded.version, app = excluded.app, sql = excluded.sql,
       shapes = excluded.shapes, model = excluded.model, applied_at = now(),
       history = array_append(array_remove(ninefold.schema_version.history, excluded.version), excluded.version)`,
    [version, model.purpose.name, sql, JSON.stringify(shapes), JSON.stringify(embeddedModel(model))],
  );
}

interface Problem {
  message?: string;
  [k: string]: unknown;
}

/**
 * Upgrades a database made from another version of the spec: plans the migration from the model
 * the database recorded to the spec (the planner `ninefold migrate` uses), then applies it in ONE
 * transaction that first locks the version row and checks again, so two tabs (or a tab and the
 * dev server) never upgrade twice. Every row is kept; a plan that would delete data (without
 * `allowDestructive`), a removed state without a mapping, or rows that break a new rule stop the
 * upgrade before anything changes, with SCHEMA_CHANGED and the reasons. A database whose model this
 * app cannot reach without losing data, and which already had this app's version, is *newer*
 * than the app (`reason: 'database-newer'`).
 */
export async function upgradeSchema(
  db: PGliteInterface,
  model: AppModel,
  target: { sql: string; version: string },
  opts: { onProgress?: (line: string) => void; allowDestructive?: boolean },
) {
  const row = (
    await db.query<{ version: string; model: LockModel; history: string[] | null }>(
      'select version, model, history from ninefold.schema_version',
    )
  ).rows[0];
  if (!row) throw new Error('upgradeSchema: no recorded version');
  const plan = planMigration(row.model, model, {
    target: 'embedded',
    sqlOf: embeddedSchemaSql,
    allowDestructive: opts.allowDestructive === true,
  });
  const base = { from: row.version, to: target.version, exportWith: 'exportDatabase()' };
  if (plan.refused.length > 0) {
    const newer = (row.history ?? []).includes(target.version);
    throw new BackendError('SCHEMA_CHANGED', {
      ...base,
      reason: newer ? 'database-newer' : 'upgrade-refused',
      problems: plan.refused.map((r) => r.message),
    });
  }
  opts.onProgress?.(
    plan.changes.length > 0
      ? `Upgrading your data to the new version of the app (${plan.changes.length} change${plan.changes.length === 1 ? '' : 's'})…`
      : 'Updating the app’s rules…',
  );
  let outcome: 'upgraded' | 'unchanged' = 'upgraded';
  try {
    await db.transaction(async (tx) => {
      // The version row is the upgrade's lock: a second upgrader waits here, then finds it done.
      const now = (
        await tx.query<{ version: string }>(
          'select version from ninefold.schema_version where id = 1 for update',
        )
      ).rows[0];
      if (now?.version === target.version) {
        outcome = 'unchanged';
        return;
      }
      if (now?.version !== row.version) throw new Error('the database changed while the upgrade was planned');
      await tx.exec(plan.sql);
      await recordVersion(tx, model, target.sql, target.version);
    });
  } catch (e) {
    const err = e as Problem & { detail?: string };
    let problems: unknown[] = [String(err.message ?? e)];
    if (err.message === 'MIGRATION_REFUSED' && typeof err.detail === 'string') {
      try {
        problems = JSON.parse(err.detail) as unknown[];
      } catch {
        // Keep the message.
      }
    }
    // The transaction rolled back: the database is the old one, rows and all.
    throw new BackendError('SCHEMA_CHANGED', { ...base, reason: 'upgrade-failed', problems });
  }
  return { version: target.version, outcome };
}
