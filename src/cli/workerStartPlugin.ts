import type { Plugin, ResolvedConfig } from 'vite';
import { HELD_NAME_SUFFIX } from '../backend/embedded/browser/workerHold.ts';
import { inlineScriptJson } from '../printers/codeText.ts';

/**
 * The inline `<head>` script that starts the embedded backend's worker while the HTML is still
 * being parsed: PGlite's wasm, data and the backend's code start loading before the entry chunk
 * has even arrived (app/main.tsx picks the worker up from `window.__ninefoldWorker`, or starts it
 * itself when there is none). The worker is held (src/backend/embedded/browser/workerHold.ts): it
 * waits for the entry's word, given at once unless the page draws a remembered screen first. Not with `?memory` (that page starts its own worker, on a throw-away database). Plain ES2017.
 *
 * @example
 * workerStartScript('/assets/backendWorker-1a2b.js', 'ninefold-helpdesk')
 */
export function workerStartScript(url: string, name: string): string {
  return `try{if(!/[?&]memory(?:[&=]|$)/.test(location.search)){window.__ninefoldWorker=new Worker(${inlineScriptJson(url)},{type:"module",name:${inlineScriptJson(name + HELD_NAME_SUFFIX)}});performance.mark("ninefold:worker-start")}}catch(e){}`;
}

/**
 * Vite plugin for embedded builds: emits `workerStartScript` for the backend's worker chunk
 * (`backendWorker-<hash>.js`). Only in `vite build` (the dev server serves the worker's module
 * itself, and the entry starts it); a hosted build does not use this plugin (devServer.ts).
 *
 * @example
 * plugins: [react(), ninefoldWorkerStartPlugin(specFile)]
 */
export function ninefoldWorkerStartPlugin(specFile: string): Plugin {
  let config: ResolvedConfig | undefined;
  return {
    name: 'ninefold-worker-start',
    configResolved(resolved) {
      config = resolved;
    },
    transformIndexHtml: {
      order: 'post',
      async handler(_html, ctx) {
        if (!ctx.bundle || !config) return [];
        const file = Object.keys(ctx.bundle).find((f) => /(^|\/)backendWorker-[^/]*\.js$/.test(f));
        if (!file) return [];
        // Named as startBackendWorker.ts names it (what the browser's tools show).
        const { loadSpecForBuild } = await import('./snapshotPlugin.ts');
        const { appSlug } = await import('../backend/embedded/browser/startBackendWorker.ts');
        const name = `ninefold-${appSlug(await loadSpecForBuild(specFile))}`;
        return [
          {
            tag: 'script',
            children: workerStartScript(`${config.base}${file}`, name),
            injectTo: 'head-prepend',
          },
        ];
      },
    },
  };
}
