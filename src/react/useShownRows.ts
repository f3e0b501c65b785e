import { startTransition, useEffect, useState } from 'react';
import type { Row } from '../backend/types.ts';

const NONE: readonly Row[] = [];

interface Shown {
  rows: readonly Row[];
  /** The page they answer (the screen and its query). */
  key: string;
  /** Whether they stand in for the page's own (the last page's, while its rows load). */
  placeholder: boolean;
}

/**
 * The rows a list draws for the page `key`. A new answer for the page already drawn (the
 * database's rows replacing the remembered ones of a return visit, a page refreshed after a write)
 * is drawn in a transition, which React renders in slices between frames: read from TanStack
 * Query's store (`useSyncExternalStore`), such an answer was rendered in one task, 46–57 ms on a
 * loaded machine when every row of the page changed. Another page, a filter, a sort, a first
 * answer, or the page's own rows replacing a placeholder are drawn at once, in the render that
 * shows the change (in a transition, their rows came a frame after the rest of it).
 *
 * @example
 * const rows = useShownRows(list.data?.rows, `${route.name} ${JSON.stringify(query)}`, list.isPlaceholderData);
 */
export function useShownRows(
  rows: readonly Row[] | undefined,
  key: string,
  placeholder: boolean,
): readonly Row[] {
  const next: Shown = { rows: rows ?? NONE, key, placeholder };
  const [shown, setShown] = useState(next);
  const refreshed =
    shown.key === key &&
    !shown.placeholder &&
    !placeholder &&
    shown.rows.length > 0 &&
    shown.rows !== next.rows;
  let current = shown;
  if (!refreshed && (shown.rows !== next.rows || shown.key !== key || shown.placeholder !== placeholder)) {
    current = next;
    setShown(next);
  }
  useEffect(() => {
    if (refreshed) startTransition(() => setShown({ rows: next.rows, key, placeholder }));
  }, [refreshed, next.rows, key, placeholder]);
  return current.rows;
}
