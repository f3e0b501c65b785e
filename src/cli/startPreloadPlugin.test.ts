import { describe, expect, it } from 'vitest';
import { type StartChunk, startPreloads } from './startPreloadPlugin.ts';

// A build's chunks: the entry imports a shared chunk statically and starts the UI and the backend
// with dynamic imports; the backend's start imports the UI chunk statically, and a facade stands
// for a module another chunk holds; a later screen is left for later.
const chunks: StartChunk[] = [
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
    fileName: 'firstScreen.js',
    imports: ['locale.js'],
    moduleIds: ['/app/renderApp.tsx', '/m/react.mjs'],
  },
  { type: 'chunk', fileName: 'startBackend.js', imports: ['index.js'], moduleIds: ['/app/startBackend.ts'] },
  {
    type: 'chunk',
    fileName: 'startEmbedded.js',
    imports: ['firstScreen.js', 'session.js'],
    moduleIds: ['/app/startEmbedded.ts', '/src/createBrowserBackend.ts'],
  },
  { type: 'chunk', fileName: 'session.js', imports: [], moduleIds: ['/src/session.ts'] },
  {
    type: 'chunk',
    fileName: 'createBrowserBackend.js',
    imports: ['startEmbedded.js'],
    moduleIds: [],
    facadeModuleId: '/src/createBrowserBackend.ts',
  },
  { type: 'chunk', fileName: 'Detail.js', imports: ['firstScreen.js'], moduleIds: ['/src/Detail.tsx'] },
  { type: 'asset', fileName: 'index.css' },
];
const roots = [
  '/app/renderApp.tsx',
  '/app/startBackend.ts',
  '/app/startEmbedded.ts',
  '/src/createBrowserBackend.ts',
];
const sizes: Record<string, number> = { 'firstScreen.js': 500, 'startEmbedded.js': 9, 'session.js': 1 };
const sizeOf = (f: string) => sizes[f] ?? 0;

describe('startPreloads', () => {
  it("asks for the start's chunks, facades and their imports, largest first, not the entry's nor a later screen's", () => {
    expect(startPreloads(chunks, sizeOf, roots)).toEqual([
      'firstScreen.js',
      'startEmbedded.js',
      'session.js',
      'createBrowserBackend.js',
      'startBackend.js',
    ]);
  });

  it('asks for nothing when no chunk holds a root (a build without them)', () => {
    expect(startPreloads(chunks, sizeOf, ['/elsewhere.ts'])).toEqual([]);
  });
});
