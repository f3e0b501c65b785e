import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSpec } from './loadSpec.ts';

const fixture = (name: string) => fileURLToPath(new URL(`../cli/fixtures/${name}`, import.meta.url));

const tmp = await mkdtemp(join(tmpdir(), 'ninefold-load-'));
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe('loadSpec', () => {
  it('loads a JSON specification', async () => {
    const r = await loadSpec(fixture('clean.json'));
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.spec.purpose.name).toBe('Mini desk');
  });

  it('resolves a directory to its spec.ts and loads the default export', async () => {
    const r = await loadSpec(fixture('desk'));
    expect(r).toMatchObject({ ok: true, diagnostics: [] });
    if (r.ok) expect(r.path).toMatch(/desk[/\\]spec\.ts$/);
  });

  it('reports an invalid specification as invalid, with diagnostics', async () => {
    const r = await loadSpec(fixture('errors.json'));
    expect(r).toMatchObject({ ok: false, kind: 'invalid' });
    expect(r.diagnostics[0]?.hint).toBe('did you mean "assignee"?');
  });

  it('reports missing files, bad JSON and throwing modules as load failures', async () => {
    const broken = join(tmp, 'broken.json');
    await writeFile(broken, '{ "purpose": ');
    for (const [file, code] of [
      [fixture('nope.json'), 'load/not-found'],
      [broken, 'load/failed'],
      [fixture('throws.ts'), 'load/failed'],
      [fixture('.'), 'load/not-found'],
    ] as const) {
      const r = await loadSpec(file);
      expect(r).toMatchObject({ ok: false, kind: 'load' });
      expect(r.diagnostics[0]?.code).toBe(code);
    }
    const thrown = await loadSpec(fixture('throws.ts'));
    expect(thrown.diagnostics[0]?.message).toContain('boom while loading');
  });
});
