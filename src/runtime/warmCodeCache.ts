import { buildOf } from './screenPreview.ts';

/**
 * Chromium keeps a script's compiled code (V8's code cache) only from the script's second run
 * within 72 hours, and uses it from the third: a return visit, the second run, compiled the
 * start's chunks again (V8's parse and compile: ~50 ms of a traced visit's main thread) and then
 * serialised them for the cache (~25 ms more), before its live screen. `warmCodeCache` gives the start's
 * scripts their second run on the visit that loaded them first, once that visit is idle: in a
 * hidden frame of the same origin, each module run again (the frame's own module map), so the
 * next visit is the third run and reads the compiled code. Once per build (remembered under
 * `key`). The entry script starts no app in that frame (`inWarmupFrame`).
 */

/** The global a warm-up frame's window carries; the entry script (app/main.tsx) checks it. */
const WARMUP_FLAG = '__ninefoldCodeCacheWarmup';

/** The localStorage key remembering the build whose scripts were run twice (per app slug). */
export const codeCacheKey = (slug: string): string => `ninefold-${slug}-code-cache`;

/** Whether this window is a warm-up frame: the entry script then starts nothing. */
export function inWarmupFrame(win: Window = window): boolean {
  return (win as unknown as Record<string, unknown>)[WARMUP_FLAG] === true;
}

function storage(): Storage | undefined {
  try {
    return (globalThis as { localStorage?: Storage }).localStorage;
  } catch {
    return undefined;
  }
}

/** A module script added to `doc`; settles once it has run (or failed: the warm-up goes on). */
function runModule(doc: Document, src: string): Promise<void> {
  return new Promise((resolve) => {
    const script = doc.createElement('script');
    script.type = 'module';
    script.src = src;
    script.onload = () => resolve();
    script.onerror = () => resolve();
    doc.head.append(script);
  });
}

/** A task later: each script's run (and its cache's serialising) is a task of its own. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Runs the page's start scripts again in a hidden frame (the entry, then the chunks the HTML
 * preloads, smallest first: each brings its own imports, so the largest come last with little
 * left to run), then remembers the build. Nothing on a page that is no build's (the dev server),
 * when the build was warmed already, or when storage is blocked (it would warm on every visit).
 * True when it ran them.
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
  const chunks = [...doc.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((l) => l.href);
  const frame = doc.createElement('iframe');
  frame.hidden = true;
  frame.tabIndex = -1;
  frame.title = 'code cache warm-up';
  frame.setAttribute('aria-hidden', 'true');
  doc.body.append(frame);
  try {
    const win = frame.contentWindow;
    const frameDoc = frame.contentDocument;
    if (!win || !frameDoc) return false;
    (win as unknown as Record<string, unknown>)[WARMUP_FLAG] = true;
    for (const src of [new URL(build, doc.baseURI).href, ...chunks.reverse()]) {
      await runModule(frameDoc, src);
      await nextTask();
    }
    store.setItem(key, build);
    return true;
  } catch {
    return false; // Storage full or blocked now: the next visit tries again.
  } finally {
    frame.remove();
  }
}
