import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

// `npm run bench:bytes` counts what the tab downloads before its first row: a wrong edge (a
// dynamic import counted, a static one missed) would make its before/after figures lie.
const SCRIPT = resolve(import.meta.dirname, '../../scripts/initial-js.mjs');

/** A build dir shaped like Vite's output: `name-[8 char hash].js` chunks under assets/. */
function fakeBuild(chunks: Record<string, string>, entry = 'index-AAAAAAAA.js'): string {
  const dir = mkdtempSync(join(tmpdir(), 'initial-js-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    `<script type="module" crossorigin src="/assets/${entry}"></script>`,
  );
  for (const [file, code] of Object.entries(chunks)) writeFileSync(join(dir, 'assets', file), code);
  return dir;
}

const run = (dir: string, ...args: string[]) =>
  JSON.parse(execFileSync('node', [SCRIPT, dir, '--json', ...args], { encoding: 'utf8' })) as {
    chunks: { chunk: string; gzip: number }[];
    total: number;
  };

describe('initial-js (bench:bytes)', () => {
  const dir = fakeBuild({
    'index-AAAAAAAA.js':
      'import{a as x}from"./shared-BBBBBBBB.js";import"./side-CCCCCCCC.js";import(`./renderApp-DDDDDDDD.js`);import(`./Admin-EEEEEEEE.js`);',
    'shared-BBBBBBBB.js': 'export const a=1;',
    'side-CCCCCCCC.js': 'console.log(1);',
    'renderApp-DDDDDDDD.js': 'export{b}from"./deep-FFFFFFFF.js";import(`./ListScreen-GGGGGGGG.js`);',
    'deep-FFFFFFFF.js': 'export const b=2;',
    'ListScreen-GGGGGGGG.js': 'import{a}from"./shared-BBBBBBBB.js";export const c=a;',
    'Admin-EEEEEEEE.js': 'import"./adminOnly-HHHHHHHH.js";',
    'adminOnly-HHHHHHHH.js': 'export const d=4;',
  });

  it('follows static imports and re-exports, and only the named dynamic imports', () => {
    const names = run(dir, '--follow', 'renderApp,ListScreen')
      .chunks.map((c) => c.chunk)
      .sort();
    expect(names).toEqual([
      'ListScreen-GGGGGGGG.js',
      'deep-FFFFFFFF.js',
      'index-AAAAAAAA.js',
      'renderApp-DDDDDDDD.js',
      'shared-BBBBBBBB.js',
      'side-CCCCCCCC.js',
    ]);
  });

  it('totals gzip -9 sizes, each chunk once', () => {
    const r = run(dir, '--follow', 'renderApp');
    const gz = (code: string) => gzipSync(code, { level: 9 }).length;
    expect(r.chunks.find((c) => c.chunk === 'shared-BBBBBBBB.js')?.gzip).toBe(gz('export const a=1;'));
    expect(r.total).toBe(r.chunks.reduce((s, c) => s + c.gzip, 0));
    expect(r.chunks.map((c) => c.chunk)).not.toContain('ListScreen-GGGGGGGG.js');
  });

  it('fails when a named chunk is not reached (the names no longer match the build)', () => {
    expect(() => execFileSync('node', [SCRIPT, dir, '--follow', 'Nowhere'], { stdio: 'pipe' })).toThrow(
      /not reached: Nowhere/,
    );
  });
});
