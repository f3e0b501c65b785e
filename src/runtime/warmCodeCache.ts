import { storage } from './rememberedStart.ts';
import { buildOf } from './screenPreview.ts';

/**
 * Chromium keeps a script's compiled code (V8's code cache) only from the script's second run
 * within 72 hours, and uses it from the third: a return visit, the second run, compiled the
 * start's chunks again (V8's parse and compile: ~50 ms of a traced visit's main thread) and then
 * serialised them for the cache (~25 ms more), before its live screen. `warmCodeCache` gives the
 * page's scripts their second run on the visit that loaded them first, once that visit is idle:
 * in a module worker of the same origin (its own module map; the code cache is per script and
 * origin, shared with the page), so the next visit is the third run and reads the compiled code.
 * Not a hidden frame: a frame added and removed left Playwright's `waitForLoadState('networkidle')`
 * waiting on the page until its next request, and people test their apps with it. Once per build
 * (remembered under `key`). The entry script starts no app there (`inCodeCacheWarmUp`).
 */

/** The global the warm-up's worker carries; the entry script (app/main.tsx) checks it. */
const WARM_UP_FLAG = '__ninefoldCodeCacheWarmUp';

/** How long the warm-up may take before its worker is stopped (nothing is remembered then). */
const WARM_UP_AT_MOST_MS = 20_000;

/** The localStorage key remembering the build whose scripts were run twice (per app slug). */
export const codeCacheKey = (slug: string): string => `ninefold-${slug}-code-cache`;

/** Whether this script runs in the warm-up's worker: the entry script then starts nothing. */
export function inCodeCacheWarmUp(): boolean {
  return (globalThis as unknown as Record<string, unknown>)[WARM_UP_FLAG] === true;
}

/**
 * The chunks to run again after the entry: those the HTML preloads (the start's), smallest first
 * (each brings its own imports, so the largest come last with little left to run), then those the
 * page has imported since (a screen's secondary parts, its menus), in the order it asked for them:
 * the resource timeline's `script` entries of the build's assets. The backend worker's script is
 * an `other` entry there, and is not run again.
 */
function chunksToWarm(doc: Document, entry: string): string[] {
  const preloaded = [...doc.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map(
    (l) => l.href,
  );
  const imported = (doc.defaultView?.performance.getEntriesByType('resource') ?? [])
    .filter((e) => (e as PerformanceResourceTiming).initiatorType === 'script')
    .map((e) => new URL(e.name))
    .filter((u) => u.origin === new URL(entry).origin && /\/assets\/[^/]+\.js$/.test(u.pathname))
    .map((u) => u.href);
  return [...new Set([...preloaded.reverse(), ...imported])].filter((src) => src !== entry);
}

/**
 * The warm-up worker's code: each script imported in turn, a task apart (a script that cannot run
 * outside a window, or fails, is compiled all the same and skipped), then a message.
 */
function warmUpWorkerCode(scripts: readonly string[]): string {
  return [
    `self.${WARM_UP_FLAG} = true;`,
    `for (const src of ${JSON.stringify(scripts)}) {`,
    '  try { await import(src); } catch {}',
    '  await new Promise((r) => setTimeout(r, 0));',
    '}',
    "postMessage('warmed');",
  ].join('\n');
}

/**
 * Runs the page's scripts again in a module worker (the entry, then `chunksToWarm`), then
 * remembers the build. Nothing on a page that is no build's (the dev server), when the build was
 * warmed already, when storage is blocked (it would warm on every visit), or where a worker cannot
 * be made (a content security policy without `blob:` workers). True when it ran them.
 *
 * @example
 * whenIdle(() => warmCodeCache(codeCacheKey(appSlug(spec))));
 */
export async function warmCodeCache(key: string, doc: Document = document): Promise<boolean> {
  const build = buildOf(doc);
  const store = storage();
  if (!build || !store) return false;
  try {
    if (store.getItem(key) === build) return false;
  } catch {
    return false;
  }
  const entry = new URL(build, doc.baseURI).href;
  const code = URL.createObjectURL(
    new Blob([warmUpWorkerCode([entry, ...chunksToWarm(doc, entry)])], { type: 'text/javascript' }),
  );
  let worker: Worker | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    worker = new Worker(code, { type: 'module', name: 'code cache warm-up' });
    const started = worker;
    const warmed = await new Promise<boolean>((resolve) => {
      started.onmessage = () => resolve(true);
      started.onerror = () => resolve(false);
      timer = setTimeout(() => resolve(false), WARM_UP_AT_MOST_MS);
    });
    if (warmed) store.setItem(key, build);
    return warmed;
  } catch {
    return false; // No worker here, or storage full or blocked now: the next visit tries again.
  } finally {
    clearTimeout(timer);
    worker?.terminate();
    URL.revokeObjectURL(code);
  }
}
