import { useQueries } from '@tanstack/react-query';
import { createContext, useMemo } from 'react';
import type { Row } from '../backend/types.ts';
import { useAppCore } from './context.ts';
import { rowQuery } from './hooks.ts';
import { missingReferences } from './referenceLabels.ts';

/** What a reference shows: the referenced row once read, an error, or nothing yet. */
export type PageLabel = { row: Row } | { error: true } | { pending: true };

/** The labels of every reference on a page of rows, by referenced entity and id. */
export interface PageLabels {
  get(entity: string, id: string): PageLabel | undefined;
}

/**
 * A list page's reference labels, for RefLabel: given, a label reads its row from here instead of
 * observing the row cache itself. One observer per distinct referenced row on the page, not one
 * per cell: a page of 50 tickets with three reference columns made 150 query observers (each a
 * key hashed, a subscription made and dropped), a third of the next-page click's render.
 */
export const PageLabelsContext = createContext<PageLabels | null>(null);

/** How long a reference label counts as fresh (lists seed them with the page: referenceLabels.ts). */
export const LABEL_STALE_MS = 5 * 60_000;

/**
 * The labels `rows` of `entity` reference, read from the row cache (where the list's page query
 * put them: referenceLabels.ts) under the same keys and freshness as RefLabel's own lookup, so
 * a row missing there is asked for in the same way.
 */
export function usePageLabels(entity: string, rows: readonly Row[]): PageLabels {
  const { model, backend, user } = useAppCore();
  const wanted = useMemo(
    () =>
      [...missingReferences(model, entity, rows, user?.id, () => false)].flatMap(([target, ids]) =>
        ids.map((id) => [target, id] as const),
      ),
    [model, entity, rows, user?.id],
  );
  const results = useQueries({
    queries: wanted.map(([target, id]) => rowQuery(backend, target, id, LABEL_STALE_MS)),
  });
  // A new object only when a label changes (useQueries answers a new array on every render).
  const signature = results.map((r) => (r.data ? r.dataUpdatedAt : r.isError ? 'e' : 'p')).join();
  // biome-ignore lint/correctness/useExhaustiveDependencies: `signature` stands for `results`' contents
  return useMemo(() => {
    const byKey = new Map<string, PageLabel>();
    wanted.forEach(([target, id], i) => {
      const r = results[i];
      byKey.set(
        `${target}\u0000${id}`,
        r?.data ? { row: r.data } : r?.isError ? { error: true } : { pending: true },
      );
    });
    return { get: (e, id) => byKey.get(`${e}\u0000${id}`) };
  }, [wanted, signature]);
}
