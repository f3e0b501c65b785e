import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createJiti } from 'jiti';
import { describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import { main } from '../cli/main.ts';
import { renderDoc } from '../doc/renderDoc.ts';
import type { AppSpec } from '../spec/types.ts';
import { tasks } from './fixtures/tasks.ts';
import { normalizeSpec } from './normalizeSpec.ts';

const defineAppFile = fileURLToPath(new URL('../spec/defineApp.ts', import.meta.url));

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t) }, out, err };
}

/** Loads a written spec.ts the way a project would, with `ninefold` resolving to this repository. */
async function loadWritten(file: string): Promise<AppSpec> {
  const jiti = createJiti(import.meta.url, { moduleCache: false, alias: { ninefold: defineAppFile } });
  return ((await jiti.import(file)) as { default: AppSpec }).default;
}

describe('ninefold import', () => {
  it('writes a defineApp module that loads as the same specification', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nf-import-'));
    writeFileSync(join(dir, 'doc.md'), renderDoc(expenses as AppSpec));
    const t = io();
    const code = await main(['import', join(dir, 'doc.md'), '-o', join(dir, 'spec.ts')], t.io);
    expect(t.err.join('')).toContain('wrote');
    expect(code).toBe(0);
    const text = readFileSync(join(dir, 'spec.ts'), 'utf8');
    expect(text.startsWith("import { defineApp } from 'ninefold';")).toBe(true);
    expect(text).toContain('export default defineApp({\n  purpose: {');
    expect(normalizeSpec(await loadWritten(join(dir, 'spec.ts')))).toEqual(
      normalizeSpec(expenses as AppSpec),
    );
  });

  it('prints JSON with --json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nf-import-'));
    writeFileSync(join(dir, 'doc.md'), renderDoc(tasks));
    const t = io();
    expect(await main(['import', join(dir, 'doc.md'), '--json'], t.io)).toBe(0);
    expect(normalizeSpec(JSON.parse(t.out.join('')) as AppSpec)).toEqual(normalizeSpec(tasks));
  });

  it('reports problems with file, line and column, a message and a suggestion; exit 1, nothing written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nf-import-'));
    const md = renderDoc(tasks).replace('`assignee = me or me is lead`', '`asignee = me or me is lead`');
    writeFileSync(join(dir, 'doc.md'), md);
    const t = io();
    const code = await main(['import', join(dir, 'doc.md'), '-o', join(dir, 'spec.ts')], t.io);
    expect(code).toBe(1);
    const line = t.err.find((l) => l.includes('asignee')) ?? '';
    const m =
      /doc\.md:(\d+):(\d+) states\.task\.transitions\.finish\.guard: .*asignee.* — did you mean "assignee"\?/.exec(
        line,
      );
    expect(m, line).not.toBeNull();
    expect(md.split('\n')[Number(m?.[1]) - 1]).toContain('`asignee = me or me is lead`');
    expect(t.err.join('')).toContain('nothing written');
  });

  it('exits 2 for a missing document', async () => {
    const t = io();
    expect(await main(['import', '/nonexistent/doc.md'], t.io)).toBe(2);
  });

  it('check accepts a document and shows where a problem is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nf-import-'));
    writeFileSync(join(dir, 'doc.md'), renderDoc(tasks).replace('| `titleMax` |', '| `titleMax2` |'));
    const t = io();
    expect(await main(['check', join(dir, 'doc.md')], t.io)).toBe(1);
    const line = t.out.find((l) => l.includes('validation.task[0].maxLength')) ?? '';
    const at = /\(line (\d+), column \d+\): .*titleMax/.exec(line);
    expect(at, line).not.toBeNull();
    const md = readFileSync(join(dir, 'doc.md'), 'utf8').split('\n');
    expect(md[Number(at?.[1]) - 1]).toContain('Title must be at most {titleMax}');
  });
});

describe('ninefold init', () => {
  it.each(['blank', 'helpdesk', 'expenses', 'tasks'])(
    '--from %s: doc.md, package.json depending on ninefold, README with the commands',
    async (from) => {
      const dir = join(mkdtempSync(join(tmpdir(), 'nf-init-')), 'my-app');
      const t = io();
      expect(await main(['init', '--from', from, dir], t.io)).toBe(0);
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      expect(pkg.name).toBe('my-app');
      expect(Object.keys(pkg.dependencies)).toEqual(['ninefold']);
      const readme = readFileSync(join(dir, 'README.md'), 'utf8');
      expect(readme).toContain('npx ninefold dev doc.md');
      expect(readme).toContain('npx ninefold build doc.md');
      const doc = readFileSync(join(dir, 'doc.md'), 'utf8');
      expect(doc).toContain('## 9. Constants and limits');
      if (from !== 'blank') expect(await main(['check', join(dir, 'doc.md')], io().io)).toBe(0);
    },
  );

  it('refuses a folder that is not empty', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nf-init-'));
    writeFileSync(join(dir, 'keep.txt'), 'mine');
    const t = io();
    expect(await main(['init', dir], t.io)).toBe(2);
    expect(t.err.join('')).toContain('not empty');
  });
});
