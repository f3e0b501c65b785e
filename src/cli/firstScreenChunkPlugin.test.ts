import { describe, expect, it } from 'vitest';
import {
  type ChunkFacts,
  COMPILE_ALL_HINT,
  firstScreenModules,
  ninefoldFirstScreenChunkPlugin,
} from './firstScreenChunkPlugin.ts';

// A first pass's chunks: the entry starts the shell (a dynamic import), which imports a chunk it
// shares with a later screen and one it shares with the entry itself.
const chunks: ChunkFacts[] = [
  {
    type: 'chunk',
    fileName: 'index.js',
    isEntry: true,
    imports: ['locale.js'],
    moduleIds: ['/app/main.tsx'],
  },
  { type: 'chunk', fileName: 'locale.js', imports: [], moduleIds: ['/src/locale.ts'] },
  {
    type: 'chunk',
    fileName: 'renderApp.js',
    imports: ['shared.js', 'locale.js'],
    moduleIds: ['/app/renderApp.tsx'],
  },
  { type: 'chunk', fileName: 'shared.js', imports: [], moduleIds: ['/m/Button.mjs', '/m/Box.mjs'] },
  {
    type: 'chunk',
    fileName: 'Detail.js',
    imports: ['shared.js', 'modal.js'],
    moduleIds: ['/src/Detail.tsx'],
  },
  { type: 'chunk', fileName: 'modal.js', imports: [], moduleIds: ['/m/Modal.mjs'] },
  { type: 'asset', fileName: 'index.css' },
];

describe('firstScreenModules', () => {
  it("takes the roots' chunks and what they import, not the entry's nor a later screen's own", () => {
    expect([...firstScreenModules(chunks, ['/app/renderApp.tsx'])].sort()).toEqual([
      '/app/renderApp.tsx',
      '/m/Box.mjs',
      '/m/Button.mjs',
    ]);
  });

  it('is empty when no chunk holds a root (nothing to group)', () => {
    expect(firstScreenModules(chunks, ['/elsewhere.tsx']).size).toBe(0);
  });
});

describe('ninefoldFirstScreenChunkPlugin', () => {
  it('groups exactly the chosen modules, and only in builds', () => {
    const plugin = ninefoldFirstScreenChunkPlugin(new Set(['/m/Button.mjs']));
    expect(plugin.apply).toBe('build');
    const config = (
      plugin.config as () => { build: { rollupOptions: { output: { codeSplitting: unknown } } } }
    )();
    const split = config.build.rollupOptions.output.codeSplitting as {
      includeDependenciesRecursively: boolean;
      groups: { name: string; test(id: string): boolean }[];
    };
    expect(split.includeDependenciesRecursively).toBe(false);
    expect(split.groups[0]?.name).toBe('firstScreen');
    expect(split.groups[0]?.test('/m/Button.mjs')).toBe(true);
    expect(split.groups[0]?.test('/m/Modal.mjs')).toBe(false);
  });
});

describe('the compile hint', () => {
  it("opens the first-screen chunk's code once, and no other chunk's", () => {
    const plugin = ninefoldFirstScreenChunkPlugin(new Set());
    const bundle = {
      a: { type: 'chunk', name: 'firstScreen', code: 'export{}' },
      b: { type: 'chunk', name: 'Detail', code: 'export{}' },
      c: { type: 'asset', name: 'index.css', source: '' },
    };
    const run = (plugin.generateBundle as unknown as { handler: (o: unknown, b: typeof bundle) => void })
      .handler;
    run({}, bundle);
    run({}, bundle);
    expect(bundle.a.code).toBe(`${COMPILE_ALL_HINT}export{}`);
    expect(bundle.a.code.split('\n')[0]).toBe('//# allFunctionsCalledOnLoad');
    expect(bundle.b.code).toBe('export{}');
  });
});
