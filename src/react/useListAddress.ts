import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { ListQuery, Row } from '../backend/types.ts';
import type { TableNode } from '../model/table.ts';
import { listScreenQueries } from '../runtime/listScreenQueries.ts';
import { wordOf } from '../runtime/wordOf.ts';
import { useRuntime } from './context.ts';
import { fetchList, keys } from './hooks.ts';
import { appLocation } from './navigation.ts';

/**
 * How long a list's new address waits for its rows: within it, the new filter (or page, or search)
 * and its rows show in one render; past it, the filter shows with the last rows until they come.
 */
export const HOLD_MS = 80;

/**
 * How long a search's total waits for a pause in typing, on a backend in this browser: its one
 * worker answers one query at a time, and a total counted between two keys held the next key's
 * rows behind it (and drew on the cores the rows' render needed). The rows come at each key.
 */
export const TYPING_PAUSE_MS = 250;

/**
 * What `warmSearch` searches for when the list shows no row to take a word from (or is searched
 * already): four letters no text is likely to hold, so the trigram indexes answer with no row.
 * Three characters or more, as a real search's third key takes the search function's path
 * (shorter ones are a plain `ilike`: embedded/data.ts).
 */
export const WARM_SEARCH = 'qzxv';

/**
 * What `warmSearch` asks: the page the screen would ask for a word of the first row it shows, so
 * the search function finds rows and a page of them is read in the screen's order, as a real
 * search runs (a word nobody holds leaves the second half cold).
 */
function warmQuery(
  table: Pick<TableNode, 'searchable' | 'byColumn'>,
  page: ListQuery,
  shown: readonly Row[],
): ListQuery {
  const fields = table.searchable.map((c) => table.byColumn.get(c)?.field ?? c);
  const search = page.search ? WARM_SEARCH : (wordOf(shown, fields) ?? WARM_SEARCH);
  return { ...page, search, count: 'none' };
}

interface Held {
  params: URLSearchParams;
  /** Applies it now, if it is still waiting. */
  settle(): void;
  /** Drops it, if it is still waiting. */
  drop(): void;
}

/**
 * A list screen's address (its search, filters, sort and page), changed the way a person sees one
 * change. `go(next)` asks the rows for `next` from the event itself, before React renders anything
 * (the database works meanwhile), then its total, and changes the address when the rows are in,
 * or after HOLD_MS: one render shows the new filter with its rows, instead of a render of the old
 * rows under the new filter and a second one when the rows come. A newer change replaces one still
 * held, and calls off the reads of the last change it no longer needs (a search's earlier letters,
 * which would otherwise hold the database's queue). Rows already in the cache, not outdated by a
 * write, show at once. `readAhead(next)` asks the rows of an address the person may go to next.
 * `warmSearch()`, when the search box takes the focus, runs one search the person will not see on a
 * backend in this browser, so that their first real one does not pay for the search path's first
 * run (PGlite loads the trigram extension's code and plans the search function's query: a first
 * search of three letters at 100,000 tickets took 34–48 ms in the worker, 29–39 ms after one
 * search of other letters; docs/performance.md).
 * `base()` is what the next change builds on: the held address while there is one, else the page's.
 *
 * @example
 * const address = useListAddress('tickets', 'ticket', setParams);
 * address.go(listStateToParams({ ...listStateFromParams(address.base()), page: 2 }), false);
 */
export function useListAddress(
  screen: string,
  entity: string,
  setParams: (next: URLSearchParams, options: { replace: boolean }) => void,
): {
  base(): URLSearchParams;
  go(next: URLSearchParams, replace: boolean): void;
  readAhead(next: URLSearchParams): void;
  warmSearch(): void;
} {
  const { backend, model, user } = useRuntime();
  const qc = useQueryClient();
  const held = useRef<Held | null>(null);
  /** The queries the last change asked (keys as JSON). */
  const lastAsked = useRef<string[]>([]);
  const warmed = useRef(false);
  // Leaving the screen drops a change still held (it must not bring the list back).
  useEffect(() => () => held.current?.drop(), []);
  /** A list query's cache key, and that key as JSON (how `lastAsked` compares them). */
  const keyOf = (q: ListQuery) => {
    const queryKey = keys.list(entity, q, user?.id);
    return { queryKey, key: JSON.stringify(queryKey) };
  };
  /** Asks one list query (fetched unless the cache holds a fresh answer) and what the cache held. */
  const ask = (q: ListQuery) => {
    const { queryKey, key } = keyOf(q);
    const answered = qc.prefetchQuery({
      queryKey,
      queryFn: ({ signal }) => fetchList(qc, { backend, model, user }, entity, q, true, signal),
    });
    return { key, answered, cached: qc.getQueryState(queryKey) };
  };
  const base = () => held.current?.params ?? new URLSearchParams(appLocation().search);
  return {
    base,
    // The rows of an address the person may go to next (a filter's choices while its list is
    // open), so that `go` finds them in the cache; its total is asked when it is chosen.
    readAhead(next) {
      if (!model.tables.get(entity)?.spec) return;
      ask(listScreenQueries(model, screen, entity, next, user).page);
    },
    warmSearch() {
      if (warmed.current || backend.kind !== 'embedded') return;
      const table = model.tables.get(entity);
      if (!table?.searchable.length) return;
      warmed.current = true;
      const { page } = listScreenQueries(model, screen, entity, base(), user);
      const shown = qc.getQueryData<{ rows?: readonly Row[] }>(keyOf(page).queryKey)?.rows ?? [];
      // Its answer is of no use (not cached); a failure is the real search's to report.
      void backend.data.list(entity, warmQuery(table, page, shown)).catch(() => undefined);
    },
    go(next, replace) {
      // Typing on a backend in this browser: the screen asks the total after a pause (useListPage).
      const typing = backend.kind === 'embedded' && (base().get('q') ?? '') !== (next.get('q') ?? '');
      held.current?.drop();
      if (!model.tables.get(entity)?.spec) {
        setParams(next, { replace });
        return;
      }
      const { page, total } = listScreenQueries(model, screen, entity, next, user);
      // What the cache holds for the rows before this change asks them (a page read ahead, or one
      // remembered from the last visit while the database opens).
      const rows = ask(page);
      // The total is asked once the rows are in (at once when the cache holds them): the database
      // answers one query at a time, and a total asked with the rows held up the next key of a
      // search as you type behind it; asked after, a newer change calls it off before it runs.
      const totalKey = keyOf(total).key;
      let dropped = false;
      const askTotal = () => {
        if (!dropped && !typing) ask(total);
      };
      // What the last change asked and this one does not need is called off (if it still runs),
      // and so is a page read ahead that nothing shows (the next page of an earlier letter).
      const now = [rows.key, totalKey];
      for (const k of lastAsked.current)
        if (!now.includes(k)) void qc.cancelQueries({ queryKey: JSON.parse(k), exact: true });
      lastAsked.current = now;
      void qc.cancelQueries({
        queryKey: keys.entity(entity),
        predicate: (q) =>
          q.queryKey[1] === 'list' &&
          q.getObserversCount() === 0 &&
          q.state.fetchStatus === 'fetching' &&
          !now.includes(JSON.stringify(q.queryKey)),
      });
      const path = appLocation().pathname;
      let waiting = true;
      const change: Held = {
        params: next,
        settle() {
          if (!waiting) return;
          waiting = false;
          clearTimeout(timer);
          if (held.current === change) held.current = null;
          // Only if the person is still on this list (a link followed meanwhile wins).
          if (appLocation().pathname === path) setParams(next, { replace });
        },
        drop() {
          dropped = true;
          waiting = false;
          clearTimeout(timer);
          if (held.current === change) held.current = null;
        },
      };
      const timer = setTimeout(() => change.settle(), HOLD_MS);
      held.current = change;
      // Rows the cache holds and no write has outdated show at once (refreshed as they come): a
      // return visit's first "Next page" needs no database (startMemory.ts keeps the page read ahead).
      if (rows.cached?.data !== undefined && !rows.cached.isInvalidated) {
        change.settle();
        askTotal();
      } else
        void rows.answered.then(() => {
          change.settle();
          askTotal();
        });
    },
  };
}
