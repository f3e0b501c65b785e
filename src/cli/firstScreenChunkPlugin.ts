import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const source = (file: string) => fileURLToPath(new URL(`../../${file}`, import.meta.url));

/**
 * The modules a first visit to the list loads after the entry: the app's shell (React, Mantine,
 * the router), the router's screen table and the list screen. Each is a dynamic import.
 */
export const FIRST_SCREEN_ROOTS: readonly string[] = [
  source('app/renderApp.tsx'),
  source('src/react/AppRouter.tsx'),
  source('src/react/ListScreen.tsx'),
];

/** The chunk's name in the build (`assets/firstScreen-[hash].js`). */
export const FIRST_SCREEN_CHUNK = 'firstScreen';

/**
 * V8's explicit compile hint (Chromium 136+): every function of the file is compiled while it
 * streams in, on a background thread, instead of on the main thread the first time each is
 * called. The first render calls most of this chunk's functions, and a first visit has no
 * compiled code kept (the next visit reads what the first visit's warm-up had Chromium keep,
 * src/runtime/warmCodeCache.ts). It must be the file's first line.
 */
export const COMPILE_ALL_HINT = '//# allFunctionsCalledOnLoad\n';

/** What the first pass of a build says about one chunk (the fields of Vite's output chunk read here). */
export interface ChunkFacts {
  type: 'chunk' | 'asset';
  fileName: string;
  isEntry?: boolean;
  imports?: readonly string[];
  moduleIds?: readonly string[];
}

/** The chunks `files` are and import statically, directly or not (files not in `chunks` left out). */
export function staticClosure(chunks: ReadonlyMap<string, ChunkFacts>, files: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const todo = [...files];
  for (let f = todo.pop(); f !== undefined; f = todo.pop()) {
    if (seen.has(f) || !chunks.has(f)) continue;
    seen.add(f);
    todo.push(...(chunks.get(f)?.imports ?? []));
  }
  return seen;
}

/**
 * The modules to put in the first-screen chunk, from a first build's chunks: those of every chunk
 * the roots' chunks import statically (the roots' own included), less the chunks the entry
 * imports statically. Read off the bundler's own split, so only modules the first screen really
 * runs are taken: a walk of the module graph would also take every component a barrel file such
 * as `@mantine/core`'s index re-exports, which later screens use and the first never does.
 */
export function firstScreenModules(
  output: readonly ChunkFacts[],
  roots: readonly string[] = FIRST_SCREEN_ROOTS,
): Set<string> {
  const chunks = new Map(output.filter((c) => c.type === 'chunk').map((c) => [c.fileName, c]));
  const closure = (files: Iterable<string>) => staticClosure(chunks, files);
  const fromEntry = closure([...chunks.values()].filter((c) => c.isEntry).map((c) => c.fileName));
  const holding = [...chunks.values()].filter((c) => roots.some((r) => c.moduleIds?.includes(r)));
  const members = new Set<string>();
  for (const f of closure(holding.map((c) => c.fileName))) {
    if (!fromEntry.has(f)) for (const id of chunks.get(f)?.moduleIds ?? []) members.add(id);
  }
  return members;
}

/**
 * Vite plugin (builds only): the modules `firstScreenModules` chose go into one chunk. Left to
 * itself the bundler cut the list's first-screen path into some 40 chunks (every module shared
 * with a later screen made a chunk of its own); each is a request, and each is compressed alone,
 * without the others' words to refer back to: the sum was about 17 KB gzip more than the same
 * code in one file (docs/decisions.md, "One chunk for the first screen"). Later screens import
 * what they share with it from that chunk, which a visitor has by then.
 *
 * Modules the entry reaches stay out: the entry would otherwise import the chunk statically and
 * wait for all of it before starting the database. Dependencies are not pulled in after the
 * members (`includeDependenciesRecursively: false`), for the same reason; every static import of
 * a member is a member or reached from the entry, so the chunk runs in its modules' order.
 */
export function ninefoldFirstScreenChunkPlugin(members: ReadonlySet<string>): Plugin {
  return {
    name: 'ninefold:first-screen-chunk',
    apply: 'build',
    // Last: after minifying, which would drop the comment, and after Vite's preload helper puts
    // its list of files at the top (docs/performance.md, "Where a return visit's time goes").
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle))
          if (
            chunk.type === 'chunk' &&
            chunk.name === FIRST_SCREEN_CHUNK &&
            !chunk.code.startsWith(COMPILE_ALL_HINT)
          )
            chunk.code = COMPILE_ALL_HINT + chunk.code;
      },
    },
    config: () => ({
      build: {
        rollupOptions: {
          output: {
            codeSplitting: {
              includeDependenciesRecursively: false,
              groups: [{ name: FIRST_SCREEN_CHUNK, test: (id: string) => members.has(id) }],
            },
          },
        },
      },
    }),
  };
}
