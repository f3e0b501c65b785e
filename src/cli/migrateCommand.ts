import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { type LockModel, lockJson, lockModel, parseLock } from '../migrate/lockModel.ts';
import { type MigrationPlan, planMigration } from '../migrate/planMigration.ts';
import type { AppSpec } from '../spec/types.ts';
import { compileMigration } from '../sql/compileMigration.ts';
import type { Target } from '../sql/specModel.ts';
import { appFileWord, migrationFileName, SUPABASE_MIGRATIONS_DIR } from './migrationFileName.ts';

/**
 * Where `ninefold sql --target supabase` and `ninefold migrate` keep an app's deployed model:
 * one file per app (finding 28.7), so two apps in one project never diff against each other's.
 *
 * @example
 * lockPathFor('Helpdesk'); // 'supabase/ninefold.helpdesk.lock.json'
 */
export function lockPathFor(appName: string): string {
  return `supabase/ninefold.${appFileWord(appName)}.lock.json`;
}

/** The one lock every app shared before: still read when it is this app's (its `app` matches). */
export const LEGACY_LOCK_PATH = 'supabase/ninefold.lock.json';

/**
 * A migration file as written for `psql -f` and `supabase db push`: one transaction, so a refused
 * or failing migration changes nothing even where the runner goes on after an error (finding
 * 28.7: `psql -f` without ON_ERROR_STOP ran the statements after a refusal and left a rule
 * `NOT VALID`). Where the runner already opened a transaction (`supabase db push`), the inner
 * `begin` is only a warning and the `commit` ends that transaction with the whole file in it.
 */
export function inTransaction(sql: string): string {
  return `begin;\n\n${sql.trimEnd()}\n\ncommit;\n`;
}

export interface MigrateOptions {
  target: Target;
  /** The lock file; by default the app's own (`lockPathFor`), or the legacy shared one if it is this app's. */
  lock?: string;
  /** A word for the file name: `<timestamp>_ninefold_<app>_<name>.sql`. */
  name: string;
  output?: string;
  stdout?: boolean;
  allowDestructive?: boolean;
  violations: 'refuse' | 'keep';
  /** Run on this database in a transaction and roll back; write nothing. */
  check?: boolean;
  databaseUrl?: string;
}

export interface MigrateIo {
  out: (text: string) => void;
  err: (text: string) => void;
  now: () => Date;
  cwd: string;
}

/** Writes the lock of the model a migration was generated from (deterministic JSON). */
export async function writeLock(spec: AppSpec, target: Target, file: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, lockJson(lockModel(spec, target)));
}

interface DbError {
  message?: string;
  detail?: string;
  code?: string;
}

/** Runs the plan on a database inside a transaction that is always rolled back; reports what it found. */
async function checkOnDatabase(plan: MigrationPlan, url: string, io: MigrateIo): Promise<boolean> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin');
    for (const loss of plan.losses) {
      const r = await client.query<{ n: string }>(loss.countSql);
      io.out(
        `  would delete ${loss.what}: ${r.rows[0]?.n ?? 0} ${loss.kind === 'table' ? 'rows' : 'values'}\n`,
      );
    }
    try {
      await client.query(plan.sql);
      io.out('✓ the migration runs on this database (rolled back)\n');
      return true;
    } catch (e) {
      const err = e as DbError;
      if (err.message === 'MIGRATION_REFUSED') {
        const problems = JSON.parse(err.detail ?? '[]') as Record<string, unknown>[];
        io.out(`✗ existing rows break the new schema (nothing was changed):\n`);
        for (const p of problems) io.out(`  ${describeProblem(p)}\n`);
      } else io.out(`✗ the migration fails on this database: ${err.message ?? String(e)}\n`);
      return false;
    }
  } finally {
    await client.query('rollback').catch(() => {});
    await client.end();
  }
}

/** `ticket__title_too_short__1 on public.ticket: 3 rows (e.g. 1f…, 2a…)` */
export function describeProblem(p: Record<string, unknown>): string {
  const examples = Array.isArray(p.examples) ? p.examples.map(String).join(', ') : '';
  const what =
    p.kind === 'rule'
      ? `rule ${String(p.constraint)} (${String(p.rule)})`
      : p.kind === 'unique'
        ? `unique ${String(p.constraint)}: duplicate values`
        : String(p.message ?? p.kind);
  return `${what} on ${String(p.table)}: ${String(p.count)} rows${examples ? ` (e.g. ${examples})` : ''}`;
}

/**
 * `ninefold migrate`: diffs the lock with the spec and writes one migration (and the new lock).
 * Without a lock it writes the first, full migration. Returns the exit code: 0 written (or nothing
 * to do, or --check passed), 1 refused.
 */
/**
 * The lock to read: the given file, else the app's own, else the legacy shared file when the app
 * it records is this one (a lock of another app is never diffed against: it would plan to drop
 * that app's tables). The lock is always written to `path`.
 */
async function readLock(
  spec: AppSpec,
  given: string | undefined,
  io: MigrateIo,
): Promise<{ path: string; locked?: LockModel } | { error: string }> {
  const path = given ?? lockPathFor(spec.purpose.name);
  const candidates = given || existsSync(resolve(io.cwd, path)) ? [path] : [LEGACY_LOCK_PATH];
  for (const file of candidates) {
    if (!existsSync(resolve(io.cwd, file))) continue;
    let locked: LockModel;
    try {
      locked = parseLock(await readFile(resolve(io.cwd, file), 'utf8'));
    } catch (e) {
      return { error: `${file}: ${e instanceof Error ? e.message : String(e)}` };
    }
    if (file === path) return { path, locked };
    if (locked.app !== spec.purpose.name) {
      io.err(`${file} is the lock of "${locked.app}", not of this app: not read\n`);
      continue;
    }
    io.err(`read the lock from ${file}; this app's lock is ${path} from now on\n`);
    return { path, locked };
  }
  return { path };
}

export async function migrate(spec: AppSpec, opts: MigrateOptions, io: MigrateIo): Promise<number> {
  const found = await readLock(spec, opts.lock, io);
  if ('error' in found) {
    io.err(`✗ ${found.error}\n`);
    return 2;
  }
  const { path: lockPath, locked } = found;
  const lockFile = resolve(io.cwd, lockPath);
  let sql: string;
  if (!locked) {
    io.err(`no lock at ${lockPath}: writing the first migration (the whole schema)\n`);
    sql = compileMigration(spec, { target: opts.target });
  } else {
    if (lockJson(locked) === lockJson(lockModel(spec, opts.target))) {
      io.err('nothing to migrate: the spec is the locked model\n');
      return 0;
    }
    const plan = planMigration(locked, spec, {
      target: opts.target,
      allowDestructive: opts.allowDestructive === true,
      violations: opts.violations,
    });
    for (const c of plan.changes) io.err(`  ${c}\n`);
    if (plan.refused.length > 0) {
      for (const r of plan.refused) io.err(`✗ ${r.message}\n`);
      return 1;
    }
    if (opts.check) {
      const url = opts.databaseUrl ?? process.env.DATABASE_URL;
      if (!url) {
        io.err('✗ --check needs a database: --database-url <url> or DATABASE_URL\n');
        return 2;
      }
      return (await checkOnDatabase(plan, url, io)) ? 0 : 1;
    }
    sql = plan.sql;
  }
  sql = inTransaction(sql);
  const output =
    opts.output ??
    (opts.stdout || opts.target !== 'supabase'
      ? undefined
      : `${SUPABASE_MIGRATIONS_DIR}/${migrationFileName(`${spec.purpose.name} ${opts.name}`, io.now())}`);
  if (output === undefined) {
    // A preview: the lock moves only when a migration file is written.
    io.out(sql);
    return 0;
  }
  const file = resolve(io.cwd, output);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, sql);
  io.err(`wrote ${output}\n`);
  await writeLock(spec, opts.target, lockFile);
  io.err(`wrote ${lockPath}\n`);
  return 0;
}
