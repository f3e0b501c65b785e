/**
 * Finding 28.7 of the attack review (issue 28): two apps in one project do not share one lock
 * file (the second app's `migrate` diffed against the first's model and planned to drop its
 * tables); a lock in the old shared place is still read when it is the app's own.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { lockJson, lockModel } from '../migrate/lockModel.ts';
import type { AppSpec } from '../spec/types.ts';
import { main } from './main.ts';
import { inTransaction, LEGACY_LOCK_PATH, lockPathFor, migrate } from './migrateCommand.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

function io(cwd: string, at: string) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t), now: () => new Date(at), cwd },
  };
}

const opts = { target: 'supabase' as const, name: 'change', violations: 'refuse' as const };

describe('finding 28.7: one lock file per app', () => {
  it('finding 28.7: two apps in one project keep two locks, and neither plans against the other', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'ninefold-locks-'));
    dirs.push(cwd);
    expect(
      await main(['sql', join(process.cwd(), 'examples/helpdesk'), '--target', 'supabase'], {
        ...io(cwd, '2026-03-01T00:00:00Z').io,
      }),
    ).toBe(0);
    const second = io(cwd, '2026-03-02T00:00:00Z');
    // The second app's first migration: the whole schema, not a plan from the helpdesk's model.
    expect(await migrate(expenses as AppSpec, opts, second.io)).toBe(0);
    expect(second.err.join('')).toContain('no lock at supabase/ninefold.expenses.lock.json');
    expect(second.err.join('')).not.toContain('drop');
    expect((await readdir(join(cwd, 'supabase'))).filter((f) => f.endsWith('.json')).sort()).toEqual([
      'ninefold.expenses.lock.json',
      'ninefold.helpdesk.lock.json',
    ]);
    const third = io(cwd, '2026-03-03T00:00:00Z');
    expect(await migrate(helpdesk as AppSpec, opts, third.io)).toBe(0);
    expect(third.err.join('')).toContain('nothing to migrate');
  });

  it('finding 28.7: the old shared lock is read when it is this app’s, and ignored when it is another’s', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'ninefold-locks-'));
    dirs.push(cwd);
    await mkdir(join(cwd, 'supabase'), { recursive: true });
    await writeFile(join(cwd, LEGACY_LOCK_PATH), lockJson(lockModel(helpdesk as AppSpec, 'supabase')));
    const own = io(cwd, '2026-03-01T00:00:00Z');
    expect(await migrate(helpdesk as AppSpec, opts, own.io)).toBe(0);
    expect(own.err.join('')).toContain('nothing to migrate');
    const other = io(cwd, '2026-03-02T00:00:00Z');
    expect(await migrate(expenses as AppSpec, opts, other.io)).toBe(0);
    expect(other.err.join('')).toContain('is the lock of "Helpdesk", not of this app: not read');
    expect(await readFile(join(cwd, lockPathFor('Expenses')), 'utf8')).toBe(
      lockJson(lockModel(expenses as AppSpec, 'supabase')),
    );
    const [file] = await readdir(join(cwd, 'supabase/migrations'));
    const sql = await readFile(join(cwd, 'supabase/migrations', file as string), 'utf8');
    expect(sql.startsWith('begin;\n')).toBe(true);
    expect(sql.endsWith('\ncommit;\n')).toBe(true);
    expect(inTransaction('select 1;\n')).toBe('begin;\n\nselect 1;\n\ncommit;\n');
  });
});
