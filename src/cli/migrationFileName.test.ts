import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from './main.ts';
import { appFileWord, defaultMigrationPath, migrationFileName } from './migrationFileName.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const clean = join(root, 'src/cli/fixtures/clean.json');
const tmp = await mkdtemp(join(tmpdir(), 'ninefold-migname-'));
afterAll(() => rm(tmp, { recursive: true, force: true }));

function capture(now: Date, cwd: string) {
  const io = { out: '', err: '' };
  return {
    io,
    port: { out: (t: string) => (io.out += t), err: (t: string) => (io.err += t), now: () => now, cwd },
  };
}

describe('migrationFileName', () => {
  it('is <UTC yyyymmddhhmmss>_ninefold_<app snake>.sql', () => {
    expect(migrationFileName('Helpdesk', new Date('2026-03-01T12:00:05Z'))).toBe(
      '20260301120005_ninefold_helpdesk.sql',
    );
    // UTC, zero-padded, whatever the local zone: 23:59:59 on Jan 9 in UTC-5 is Jan 10 in UTC.
    expect(migrationFileName('Mini desk', new Date('2026-01-09T23:59:59-05:00'))).toBe(
      '20260110045959_ninefold_mini_desk.sql',
    );
    expect(defaultMigrationPath('Expense Claims', new Date(Date.UTC(2027, 10, 3, 4, 5, 6)))).toBe(
      'supabase/migrations/20271103040506_ninefold_expense_claims.sql',
    );
  });

  it('makes a file-name word of any app name', () => {
    expect(appFileWord('Café Expenses')).toBe('cafe_expenses');
    expect(appFileWord('ACME HelpDesk 2')).toBe('acme_help_desk_2');
    expect(appFileWord('../../etc/passwd')).toBe('etc_passwd');
    expect(appFileWord('  ***  ')).toBe('app');
    expect(appFileWord('日本')).toBe('app');
  });
});

describe('ninefold sql --target supabase', () => {
  const now = new Date('2026-05-06T07:08:09Z');

  it('writes supabase/migrations/<timestamp>_ninefold_<app>.sql under the cwd and prints the path', async () => {
    const cwd = await mkdtemp(join(tmp, 'default-'));
    const { io, port } = capture(now, cwd);
    expect(await main(['sql', clean, '--target', 'supabase'], port)).toBe(0);
    const file = join(cwd, 'supabase/migrations/20260506070809_ninefold_mini_desk.sql');
    const text = await readFile(file, 'utf8');
    expect(text).toContain('(target: supabase)');
    expect(text).toContain('create or replace function public.set_roles');
    expect(io.out).toBe('');
    expect(io.err).toContain('20260506070809_ninefold_mini_desk.sql');
  });

  it('still writes to -o, prints with --stdout, and keeps printing for the embedded target', async () => {
    const cwd = await mkdtemp(join(tmp, 'flags-'));
    const o = capture(now, cwd);
    expect(await main(['sql', clean, '--target', 'supabase', '-o', 'out/m.sql'], o.port)).toBe(0);
    expect(await readFile(join(cwd, 'out/m.sql'), 'utf8')).toContain('(target: supabase)');

    const s = capture(now, cwd);
    expect(await main(['sql', clean, '--target', 'supabase', '--stdout'], s.port)).toBe(0);
    expect(s.io.out).toContain('(target: supabase)');

    const e = capture(now, cwd);
    expect(await main(['sql', clean], e.port)).toBe(0);
    expect(e.io.out).toContain('(target: embedded)');
    // Neither wrote a default migration file.
    expect(await readdir(cwd)).toEqual(['out']);
  });

  it('names the file from the real clock through the launcher', async () => {
    const cwd = await mkdtemp(join(tmp, 'launcher-'));
    const before = migrationFileName('Mini desk', new Date()).slice(0, 12);
    const r = await new Promise<{ code: number; stderr: string }>((done) =>
      execFile(
        process.execPath,
        [join(root, 'bin/ninefold.js'), 'sql', clean, '--target', 'supabase'],
        { cwd, timeout: 30_000 },
        (error, _stdout, stderr) =>
          done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stderr }),
      ),
    );
    expect(r.code, r.stderr).toBe(0);
    const files = await readdir(join(cwd, 'supabase/migrations'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{14}_ninefold_mini_desk\.sql$/);
    // Same minute-ish as the test's clock (the first 12 digits are yyyymmddhhmm).
    expect(Number(files[0]?.slice(0, 12)) - Number(before)).toBeLessThanOrEqual(1);
  });
});
