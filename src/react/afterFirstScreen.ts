import { anyScreenDrawn, onNextScreenDrawn } from '../runtime/screenPreview.ts';
import { afterNextPaint } from './afterNextPaint.ts';

/** Past this, a part waits no longer for the first screen (one that is never drawn must not hide it). */
const LONGEST_WAIT_MS = 2_000;

let painted: Promise<void> | undefined;

/**
 * Settles once the app's first screen of its own is painted (at once after that; at the latest
 * after LONGEST_WAIT_MS). The chunks of a screen's secondary parts (filters, pager, column choice,
 * the header's menus) load after it: loaded while the first screen renders, their fetches and
 * module runs cut into that render and put the live screen later (docs/performance.md, "Where a
 * return visit's time goes"); their places keep their size meanwhile (Suspense placeholders).
 *
 * @example
 * const ListFilters = lazyComponent(() => afterFirstScreen().then(() => import('./ListFilters.tsx')).then((m) => m.ListFilters));
 */
export function afterFirstScreen(): Promise<void> {
  if (anyScreenDrawn() && !painted) painted = Promise.resolve();
  painted ??= new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, LONGEST_WAIT_MS);
    onNextScreenDrawn(() =>
      afterNextPaint(() => {
        clearTimeout(timer);
        resolve();
      }),
    );
  });
  return painted;
}
