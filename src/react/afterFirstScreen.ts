import { anyScreenDrawn, onNextScreenDrawn } from '../runtime/screenPreview.ts';
import { afterNextPaint } from './afterNextPaint.ts';

/** Past this, a part waits no longer for the first screen (one that is never drawn must not hide it). */
const LONGEST_WAIT_MS = 2_000;

/** After the paint, how long the loads wait at most for a moment the page has nothing to do. */
const IDLE_AT_MOST_MS = 300;

/** Calls `fn` when the page is next idle (at most IDLE_AT_MOST_MS later). */
function whenIdle(fn: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(fn, { timeout: IDLE_AT_MOST_MS });
  else setTimeout(fn, 0);
}

let painted: Promise<void> | undefined;
let lastTurn: Promise<void> | undefined;

/**
 * Settles once the app's first screen of its own is painted and the page is next idle (at once
 * after that; at the latest after LONGEST_WAIT_MS). The chunks of a screen's secondary parts (a
 * list's filters, pager and column choice, the header's menus, the toasts' container) load after
 * it: loaded while the first screen renders, their fetches and module runs cut into that render
 * and put the live screen later; loaded in the task right after its frame, they held back
 * whatever waited for that frame (docs/performance.md, "Where a return visit's time goes"). Their
 * places keep their size meanwhile (Suspense placeholders).
 *
 * Each caller gets a turn of its own, a task after the caller before: Vite's loader appends a
 * preload link per chunk a part imports (about 1.5 ms each), and the parts' 18 links appended in
 * one task made it one of 50-59 ms. (A turn an idle moment after the one before put the last
 * part a second and more after the screen.)
 *
 * @example
 * const ListFilters = lazyComponent(() => afterFirstScreen().then(() => import('./ListFilters.tsx')).then((m) => m.ListFilters));
 */
export function afterFirstScreen(): Promise<void> {
  const turn = lastTurn
    ? lastTurn.then(() => new Promise<void>((r) => setTimeout(r, 0)))
    : firstScreenPainted();
  lastTurn = turn;
  return turn;
}

function firstScreenPainted(): Promise<void> {
  if (anyScreenDrawn() && !painted) painted = Promise.resolve();
  painted ??= new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, LONGEST_WAIT_MS);
    onNextScreenDrawn(() =>
      afterNextPaint(() =>
        whenIdle(() => {
          clearTimeout(timer);
          resolve();
        }),
      ),
    );
  });
  return painted;
}
