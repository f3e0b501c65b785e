import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSpec } from './loadSpec.ts';

const fixture = (name: string) => fileURLToPath(new URL(`../cli/fixtures/${name}`, import.meta.url));

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
    for (const [name, code] of [
      ['nope.json', 'load/not-found'],
      ['broken.json', 'load/failed'],
      ['throws.ts', 'load/failed'],
      ['.', 'load/not-found'],
    ] as const) {
      const r = await loadSpec(fixture(name));
      expect(r).toMatchObject({ ok: false, kind: 'load' });
      expect(r.diagnostics[0]?.code).toBe(code);
    }
    const thrown = await loadSpec(fixture('throws.ts'));
    expect(thrown.diagnostics[0]?.message).toContain('boom while loading');
  });
});
