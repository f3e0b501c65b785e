import { fileURLToPath } from 'node:url';
import type { HtmlTagDescriptor, Plugin, ResolvedConfig } from 'vite';
import { type ChunkFacts, staticClosure } from './firstScreenChunkPlugin.ts';

const source = (file: string) => fileURLToPath(new URL(`../../${file}`, import.meta.url));

/**
 * The modules every visit runs before its first screen, each reached from the entry by a dynamic
 * import (app/main.tsx): the UI (React, Mantine, the router and the list: the first-screen chunk)
 * and the backend's start, embedded (the tab's side of the worker) or hosted.
 */
export const START_ROOTS: readonly string[] = [
  source('app/renderApp.tsx'),
  source('app/startBackend.ts'),
  source('app/startEmbedded.ts'),
  source('src/backend/embedded/browser/createBrowserBackend.ts'),
  source('src/backend/start/startHosted.ts'),
  source('src/backend/supabase/createSupabaseBackend.ts'),
];

/** A chunk as the bundle gives it to `transformIndexHtml` (the fields read here). */
export interface StartChunk extends ChunkFacts {
  facadeModuleId?: string | null;
}

/**
 * The chunks to ask for from the HTML: those holding a root (as a member or as the facade a
 * dynamic import of it loads) and every chunk they import statically, less the entry and what it
 * imports statically (the browser asks for those itself). The largest first: it takes longest.
 */
export function startPreloads(
  chunks: readonly StartChunk[],
  sizeOf: (fileName: string) => number,
  roots: readonly string[] = START_ROOTS,
): string[] {
  const byFile = new Map(chunks.filter((c) => c.type === 'chunk').map((c) => [c.fileName, c]));
  const closure = (files: Iterable<string>) => staticClosure(byFile, files);
  const entries = [...byFile.values()].filter((c) => c.isEntry).map((c) => c.fileName);
  const fromEntry = closure(entries);
  const holding = [...byFile.values()].filter((c) =>
    roots.some((r) => c.facadeModuleId === r || c.moduleIds?.includes(r)),
  );
  return [...closure(holding.map((c) => c.fileName))]
    .filter((f) => !fromEntry.has(f))
    .sort((a, b) => sizeOf(b) - sizeOf(a) || a.localeCompare(b));
}

/**
 * Vite plugin (builds only): `<link rel=modulepreload>` for `startPreloads`' chunks in the page's
 * head. Without them each is asked for only when the module importing it runs: the first-screen
 * chunk after the entry had arrived and run (~100 ms into a return visit here), the backend's start
 * three round trips deep (startBackend → startEmbedded → createBrowserBackend), and the first
 * render waited for the last of them (docs/performance.md, "Where a return visit's time goes").
 */
export function ninefoldStartPreloadPlugin(): Plugin {
  let config: ResolvedConfig | undefined;
  return {
    name: 'ninefold:start-preload',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx): HtmlTagDescriptor[] {
        const bundle = ctx.bundle;
        if (!bundle || !config) return [];
        const sizeOf = (f: string) => {
          const o = bundle[f];
          return o?.type === 'chunk' ? o.code.length : 0;
        };
        const chunks = Object.values(bundle).map((o) =>
          o.type === 'chunk'
            ? {
                type: 'chunk' as const,
                fileName: o.fileName,
                isEntry: o.isEntry,
                imports: o.imports,
                moduleIds: o.moduleIds,
                facadeModuleId: o.facadeModuleId,
              }
            : { type: 'asset' as const, fileName: o.fileName },
        );
        return startPreloads(chunks, sizeOf).map((file) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `${config?.base ?? '/'}${file}` },
          injectTo: 'head',
        }));
      },
    },
  };
}
