import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/spec.ts';
import type { AppSpec } from '../spec/types.ts';
import { serverAvailable } from '../sql/testing/pgDb.ts';
import { main } from './main.ts';
import { migrate } from './migrateCommand.ts';

const hasServer = await serverAvailable();
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

function io(cwd: string, at = '2026-03-01T12:00:05Z') {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t), now: () => new Date(at), cwd },
  };
}

const base = helpdesk as AppSpec;
function withNote(): AppSpec {
  const s = structuredClone(base) as AppSpec;
  const ticket = s.entities.ticket;
  if (ticket) ticket.fields.note = { type: 'text', label: 'Note' };
  return s;
}
const opts = {
  target: 'supabase' as const,
  lock: 'supabase/ninefold.lock.json',
  name: 'change',
  violations: 'refuse' as const,
};

describe('ninefold migrate', () => {
  it('writes the first migration and the lock, then only the change, then nothing', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'ninefold-migrate-'));
    dirs.push(cwd);
    const a = io(cwd);
    expect(await migrate(base, opts, a.io)).toBe(0);
    const lock1 = await readFile(join(cwd, 'supabase/ninefold.lock.json'), 'utf8');
    expect(JSON.parse(lock1).entities.ticket.table).toBe('public.ticket');

    const b = io(cwd, '2026-03-02T08:00:00Z');
    expect(await migrate(withNote(), opts, b.io)).toBe(0);
    expect(b.err.join('')).toContain('new field ticket.note');
    const files = (await readdir(join(cwd, 'supabase/migrations'))).sort();
    expect(files).toEqual([
      '20260301120005_ninefold_helpdesk_change.sql',
      '20260302080000_ninefold_helpdesk_change.sql',
    ]);
    const change = await readFile(join(cwd, 'supabase/migrations', files[1] as string), 'utf8');
    expect(change).toContain('alter table public.ticket add column note text;');
    expect(await readFile(join(cwd, 'supabase/ninefold.lock.json'), 'utf8')).not.toBe(lock1);

    const c = io(cwd);
    expect(await migrate(withNote(), opts, c.io)).toBe(0);
    expect(c.err.join('')).toContain('nothing to migrate');
  });

  it('refuses to drop data without --allow-destructive and says what would be lost', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'ninefold-migrate-'));
    dirs.push(cwd);
    await migrate(withNote(), opts, io(cwd).io);
    const d = io(cwd);
    expect(await migrate(base, opts, d.io)).toBe(1);
    expect(d.err.join('')).toMatch(/deletes data: field ticket\.note.*--allow-destructive/);
    expect(await readdir(join(cwd, 'supabase/migrations'))).toHaveLength(1);
    expect(await migrate(base, { ...opts, allowDestructive: true }, io(cwd, '2026-03-09T00:00:00Z').io)).toBe(
      0,
    );
    expect(await readdir(join(cwd, 'supabase/migrations'))).toHaveLength(2);
  });

  it('refuses a removed state without a mapping', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'ninefold-migrate-'));
    dirs.push(cwd);
    const withState = structuredClone(base) as AppSpec;
    const st = withState.states.ticket;
    if (st) st.states.parked = { label: 'Parked' };
    await migrate(withState, opts, io(cwd).io);
    const e = io(cwd);
    expect(await migrate(base, opts, e.io)).toBe(1);
    expect(e.err.join('')).toContain('removedStates.parked');
  });

  it('is on the command line (ninefold sql --target supabase records the lock too)', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'ninefold-migrate-'));
    dirs.push(cwd);
    const spec = join(process.cwd(), 'examples/helpdesk');
    const f = io(cwd);
    expect(await main(['sql', spec, '--target', 'supabase'], f.io)).toBe(0);
    expect(f.err.join('')).toContain('wrote supabase/ninefold.helpdesk.lock.json');
    const g = io(cwd, '2026-03-03T00:00:00Z');
    expect(await main(['migrate', spec, '--name', 'noop'], g.io)).toBe(0);
    expect(g.err.join('')).toContain('nothing to migrate');
  });

  it.skipIf(!hasServer)(
    '--check runs on a database and rolls back',
    async () => {
      const { createServerDb } = await import('../sql/testing/pgDb.ts');
      const { applyMigration } = await import('../sql/testing/users.ts');
      const { compileMigration } = await import('../sql/compileMigration.ts');
      const { STORAGE_STAND_IN_SQL } = await import('../sql/storageStandIn.ts');
      const { AUTH_STAND_IN_SQL } = await import('../sql/authStandIn.ts');
      const db = await createServerDb();
      try {
        // Storage's stand-in grants to the API roles that auth's creates (a fresh server has none).
        await db.exec(AUTH_STAND_IN_SQL + STORAGE_STAND_IN_SQL);
        await applyMigration(db, compileMigration(base, { target: 'supabase' }));
        const cwd = await mkdtemp(join(tmpdir(), 'ninefold-migrate-'));
        dirs.push(cwd);
        await migrate(base, opts, io(cwd).io);
        const h = io(cwd);
        const code = await migrate(
          withNote(),
          { ...opts, check: true, databaseUrl: db.connectionString as string },
          h.io,
        );
        expect(code, h.out.join('') + h.err.join('')).toBe(0);
        expect(h.out.join('')).toContain('runs on this database (rolled back)');
        const cols = await db.query(
          `select 1 from information_schema.columns where table_name = 'ticket' and column_name = 'note'`,
        );
        expect(cols.rows).toHaveLength(0);
      } finally {
        await db.close();
      }
    },
    120_000,
  );
});
