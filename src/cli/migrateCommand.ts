import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { type LockModel, lockJson, lockModel, parseLock } from '../migrate/lockModel.ts';
import { type MigrationPlan, planMigration } from '../migrate/planMigration.ts';
import type { AppSpec } from '../spec/types.ts';
import { compileMigration } from '../sql/compileMigration.ts';
import type { Target } from '../sql/specModel.ts';
import { migrationFileName, SUPABASE_MIGRATIONS_DIR } from './migrationFileName.ts';

/** Where `ninefold sql --target supabase` and `ninefold migrate` keep the deployed model. */
export const DEFAULT_LOCK_PATH = 'supabase/ninefold.lock.json';

export interface MigrateOptions {
  target: Target;
  lock: string;
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
export async function migrate(spec: AppSpec, opts: MigrateOptions, io: MigrateIo): Promise<number> {
  const lockFile = resolve(io.cwd, opts.lock);
  let locked: LockModel | undefined;
  if (existsSync(lockFile)) {
    try {
      locked = parseLock(await readFile(lockFile, 'utf8'));
    } catch (e) {
      io.err(`✗ ${opts.lock}: ${e instanceof Error ? e.message : String(e)}\n`);
      return 2;
    }
  }
  let sql: string;
  if (!locked) {
    io.err(`no lock at ${opts.lock}: writing the first migration (the whole schema)\n`);
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
  io.err(`wrote ${opts.lock}\n`);
  return 0;
}
