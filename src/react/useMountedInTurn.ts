import { useEffect, useState } from 'react';

/**
 * How many of `count` parts to mount now: the first at once, then one more in each task after
 * the last one's commit, until all are. For parts that cost much to mount and cannot be rendered
 * in slices: Mantine's `Select` and `Tooltip` position their popovers with floating-ui, whose
 * callback refs set state during the commit, and React renders that state synchronously, so a
 * list's filters mounted together were one task of ~54 ms after the live screen (a click waited
 * for it; docs/performance.md, "The tasks left over 50 ms on a return visit"). In turn, each task
 * holds one part.
 *
 * @example
 * const mounted = useMountedInTurn(names.length);
 * names.map((n, i) => (i < mounted ? <Filter key={n} name={n} /> : <Placeholder key={n} />));
 */
export function useMountedInTurn(count: number): number {
  const [mounted, setMounted] = useState(1);
  useEffect(() => {
    if (mounted >= count) return;
    // A task of its own (not a frame: the parts need not wait for one to be painted).
    const next = setTimeout(() => setMounted((n) => n + 1), 0);
    return () => clearTimeout(next);
  }, [mounted, count]);
  return Math.min(mounted, count);
}
