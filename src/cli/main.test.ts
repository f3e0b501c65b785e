import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = (name: string) => `src/cli/fixtures/${name}`;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real launcher, as `npx ninefold` would, from the repository root. */
function ninefold(...args: string[]): Promise<Run> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['bin/ninefold.js', ...args],
      // A ceiling against hangs: jiti transpiles the CLI on a cold cache, slow on a loaded 2-core runner.
      { cwd: root, timeout: 110_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        done({ code, stdout, stderr });
      },
    );
  });
}

const noStack = (r: Run) => expect(`${r.stdout}${r.stderr}`).not.toMatch(/\n\s+at .+:\d+:\d+/);

const tmp = await mkdtemp(join(tmpdir(), 'ninefold-cli-'));
// Broken JSON is written here, not kept as a fixture, so the repository's own lint stays clean.
const broken = join(tmp, 'broken.json');
await writeFile(broken, '{ "purpose": ');
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe('ninefold check', () => {
  it.concurrent('passes a clean JSON specification with exit 0', async () => {
    const r = await ninefold('check', fixture('clean.json'));
    expect(r).toMatchObject({ code: 0, stdout: '✓ src/cli/fixtures/clean.json: no problems found\n' });
  });

  it.concurrent('loads spec.ts from a directory', async () => {
    const r = await ninefold('check', fixture('desk'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('desk/spec.ts: no problems found');
  });

  it.concurrent('exits 1 on errors, showing the path and a suggestion', async () => {
    const r = await ninefold('check', fixture('errors.json'));
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /^error states\.ticket\.transitions\.solve\.guard: .*asignee.* — did you mean "assignee"\?$/m,
    );
    expect(r.stdout).toContain('1 error, 0 warnings');
    noStack(r);
  });

  it.concurrent('exits 0 on warnings only', async () => {
    const r = await ninefold('check', fixture('warnings.json'));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^warning constants\.unusedLimit: constant "unusedLimit" is never used — /m);
  });

  it.concurrent('exits 2 when the file is missing or cannot be parsed or loaded', async () => {
    for (const name of [fixture('missing.json'), broken, fixture('throws.ts')]) {
      const r = await ninefold('check', name);
      expect(r.code, name).toBe(2);
      expect(r.stdout, name).toContain('could not be loaded');
      noStack(r);
    }
  });

  it.concurrent('prints { ok, errors, warnings, diagnostics } with --json', async () => {
    const warn = await ninefold('check', fixture('warnings.json'), '--json');
    expect(JSON.parse(warn.stdout)).toEqual({
      ok: true,
      errors: 0,
      warnings: 1,
      diagnostics: [expect.objectContaining({ code: 'lint/unused-constant', path: 'constants.unusedLimit' })],
    });
    const bad = await ninefold('check', fixture('errors.json'), '--json');
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({
      ok: false,
      errors: 1,
      warnings: 0,
      diagnostics: [{ path: 'states.ticket.transitions.solve.guard', hint: 'did you mean "assignee"?' }],
    });
    const missing = await ninefold('check', fixture('missing.json'), '--json');
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stdout)).toMatchObject({
      ok: false,
      errors: 1,
      diagnostics: [{ code: 'load/not-found' }],
    });
  });
});

describe('ninefold build and dev', () => {
  it.concurrent('refuse a specification that check reports as wrong, with the same messages', async () => {
    // Valid shape, but a lint error (a list route param that is no field): build used to go ahead.
    const spec = JSON.parse(await readFile(join(root, fixture('clean.json')), 'utf8'));
    spec.screens.tickets.route = '/tickets/:bogus';
    const file = join(tmp, 'lint-error.json');
    await writeFile(file, JSON.stringify(spec));
    const checked = await ninefold('check', file);
    expect(checked.code).toBe(1);
    const message = checked.stdout.split('\n').find((l) => l.startsWith('error '));
    expect(message).toContain('route param ":bogus"');
    for (const command of [
      ['build', file, '-o', join(tmp, 'out')],
      ['dev', file],
    ]) {
      const r = await ninefold(...command);
      expect(r.code, command[0]).toBe(1);
      expect(r.stderr, command[0]).toContain(message);
      expect(r.stderr, command[0]).toContain('run ninefold check');
      noStack(r);
    }
  });
});

describe('ninefold', () => {
  it.concurrent('prints help for the program and each command', async () => {
    const top = await ninefold('--help');
    expect(top.code).toBe(0);
    for (const c of ['check', 'doc', 'sql', 'dev', 'build']) expect(top.stdout).toContain(c);
    const sql = await ninefold('sql', '--help');
    expect(sql.code).toBe(0);
    expect(sql.stdout).toContain('--target <target>');
  });

  it.concurrent('exits 2 with a one-line message on usage mistakes', async () => {
    const unknown = await ninefold('frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
    const noArg = await ninefold('check');
    expect(noArg.code).toBe(2);
    expect(noArg.stderr).toContain("missing required argument 'spec'");
    const badTarget = await ninefold('sql', fixture('clean.json'), '--target', 'mars');
    expect(badTarget.code).toBe(2);
  });

  it.concurrent('refuses to generate from a specification with errors', async () => {
    for (const cmd of ['doc', 'sql']) {
      const r = await ninefold(cmd, fixture('errors.json'));
      expect(r.code, cmd).toBe(1);
      expect(r.stdout, cmd).toBe('');
      expect(r.stderr, cmd).toContain('did you mean "assignee"?');
    }
  });

  it.concurrent('writes generated output to a file with -o', async () => {
    const out = join(tmp, 'nested', 'migration.sql');
    const r = await ninefold('sql', fixture('clean.json'), '-o', out, '--target', 'supabase');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(await readFile(out, 'utf8')).toContain('Mini desk');
  });
});
