import type { Page } from 'playwright-core';

/** What the list's rows did in the commits counted since `countRowRenders`' start. */
export interface RowRenders {
  /** Commits React made. */
  commits: number;
  /** Rows drawn for the first time (a row component with a `row` prop, mounted). */
  mounted: number;
  /** Rows drawn again with another row object (an edit, a live change, a row reused in place). */
  updated: number;
  /** Rows drawn again with the very row they showed: work a page change should never do. */
  wasted: number;
}

/**
 * Counts, from the page's next load on, how the list's rows render: a stand-in for React's
 * developer tools hook (React calls it on every commit, in production builds too) walks the
 * fibers that rendered in each commit (the way the developer tools tell them apart) and counts
 * the row components by their props (`row` and `columns`), so minified names do not matter.
 * Counting starts with `start()` in the page and stops with `stop()`, which answers the counts.
 */
export async function countRowRenders(page: Page): Promise<void> {
  await page.addInitScript(() => {
    type Fiber = {
      alternate: Fiber | null;
      child: Fiber | null;
      sibling: Fiber | null;
      flags: number;
      memoizedProps: Record<string, unknown> | null;
      type: unknown;
    };
    const w = window as unknown as Record<string, unknown>;
    const counts = { commits: 0, mounted: 0, updated: 0, wasted: 0 };
    let on = false;
    // A text fiber's props are its text: only components' props are looked into.
    const isRow = (f: Fiber) =>
      (typeof f.type === 'function' || (typeof f.type === 'object' && f.type !== null)) &&
      typeof f.memoizedProps === 'object' &&
      f.memoizedProps !== null &&
      'row' in f.memoizedProps &&
      'columns' in f.memoizedProps;
    const PERFORMED_WORK = 1;
    const walk = (next: Fiber, mounting: boolean) => {
      const prev = next.alternate;
      if (isRow(next)) {
        if (mounting || !prev) counts.mounted++;
        else if (next.flags & PERFORMED_WORK)
          if (next.memoizedProps?.row === prev.memoizedProps?.row) counts.wasted++;
          else counts.updated++;
      }
      // A subtree React bailed out of keeps its children as they were: nothing in it rendered.
      if (!mounting && prev && next.child === prev.child) return;
      for (let c = next.child; c; c = c.sibling) walk(c, mounting || !prev);
    };
    w.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
      supportsFiber: true,
      renderers: new Map(),
      inject: () => 1,
      checkDCE: () => undefined,
      onScheduleFiberRoot: () => undefined,
      onCommitFiberUnmount: () => undefined,
      onPostCommitFiberRoot: () => undefined,
      onCommitFiberRoot: (_id: number, root: { current: Fiber }) => {
        if (!on) return;
        counts.commits++;
        walk(root.current, false);
      },
    };
    w.__rowRenders = {
      start: () => {
        Object.assign(counts, { commits: 0, mounted: 0, updated: 0, wasted: 0 });
        on = true;
      },
      stop: () => {
        on = false;
        return { ...counts };
      },
    };
  });
}

type Counter = { start(): void; stop(): RowRenders };

export async function startRowRenders(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as { __rowRenders: Counter }).__rowRenders.start());
}

export async function stopRowRenders(page: Page): Promise<RowRenders> {
  return page.evaluate(() => (window as unknown as { __rowRenders: Counter }).__rowRenders.stop());
}
