import { type DehydratedState, dehydrate, hydrate, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Backend, Session } from '../backend/types.ts';
import {
  forgetStart,
  forgetStartUnless,
  rememberStart,
  type StartMemoryTarget,
} from '../runtime/rememberedStart.ts';
import { onScreenShown, rememberPreview } from '../runtime/screenPreview.ts';
import { appLocation } from './navigation.ts';

/**
 * Puts a remembered screen into a new query cache. Its lists are marked stale (updated at 0): each
 * is asked again the moment a screen uses it, and the database's answer replaces what is shown.
 * Everything else it kept (the rows its cells name: people, categories; the person's profile) is
 * put back as answered, and asked again only after the first list's answer, one request per
 * entity (`refreshRemembered`): asked one by one at mount, some 40 single-row reads at 10 ms each
 * queued in the worker ahead of the list, and of the first click after it.
 *
 * @example
 * hydrateRemembered(client, remembered.queries, backend);
 */
export function hydrateRemembered(client: QueryClient, queries: unknown, backend?: Backend): void {
  const state = queries as DehydratedState | null;
  if (!state || !Array.isArray(state.queries)) return;
  const now = Date.now();
  const isList = (key: readonly unknown[]) => key[1] === 'list';
  hydrate(client, {
    mutations: [],
    queries: state.queries.map((q) => ({
      ...q,
      state: { ...q.state, dataUpdatedAt: isList(q.queryKey) ? 0 : now },
    })),
  });
  const kept = state.queries.map((q) => q.queryKey).filter((key) => !isList(key));
  if (kept.length === 0) return;
  const off = client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success' || event.action.manual) return;
    if (!isList(event.query.queryKey)) return;
    off();
    void refreshRemembered(client, kept, backend);
  });
}

/**
 * Asks the backend again for remembered queries other than lists: rows (`[entity, 'row', id]`)
 * in one `data.list` per entity, by id; the rest (and a row not found that way) invalidated, so
 * each is asked again as its screen uses it.
 */
export async function refreshRemembered(
  client: QueryClient,
  kept: readonly (readonly unknown[])[],
  backend?: Backend,
): Promise<void> {
  const rows = new Map<string, string[]>();
  const others: (readonly unknown[])[] = [];
  for (const key of kept) {
    const [entity, kind, id] = key;
    if (backend && kind === 'row' && key.length === 3 && typeof entity === 'string' && typeof id === 'string')
      rows.set(entity, [...(rows.get(entity) ?? []), id]);
    else others.push(key);
  }
  const batches = [...rows].map(async ([entity, ids]) => {
    try {
      const found = await backend?.data.list(entity, {
        filters: [{ field: 'id', op: 'in', value: ids }],
        limit: ids.length,
        count: 'none',
      });
      const byId = new Map((found?.rows ?? []).map((r) => [String(r.id), r]));
      for (const id of ids) {
        const row = byId.get(id);
        if (row) client.setQueryData([entity, 'row', id], row);
        else others.push([entity, 'row', id]);
      }
    } catch {
      for (const id of ids) others.push([entity, 'row', id]);
    }
  });
  await Promise.all(batches);
  await Promise.all(
    others.map((queryKey) => client.invalidateQueries({ queryKey: [...queryKey], exact: true })),
  );
}

/** How long without a click, key, wheel or scroll counts as the person leaving the page alone. */
const QUIET_MS = 1000;
let lastInput = Number.NEGATIVE_INFINITY;
let tracking = false;

/**
 * Runs `fn` once nobody has touched the page for QUIET_MS and the browser is idle; returns how to
 * call it off.
 */
function whenQuiet(fn: () => void): () => void {
  if (!tracking) {
    tracking = true;
    const touched = () => {
      lastInput = performance.now();
    };
    for (const type of ['pointerdown', 'keydown', 'wheel', 'scroll'])
      window.addEventListener(type, touched, { capture: true, passive: true });
  }
  let off = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = () => {
    if (off) return;
    const wait = lastInput + QUIET_MS - performance.now();
    if (wait > 0) {
      timer = setTimeout(check, wait);
      return;
    }
    if (typeof requestIdleCallback === 'function')
      requestIdleCallback(() => !off && fn(), { timeout: QUIET_MS });
    else fn();
  };
  timer = setTimeout(check, 0);
  return () => {
    off = true;
    if (timer !== undefined) clearTimeout(timer);
  };
}

/** How often a picture is tried while the screen is still loading, a quiet moment apart. */
const PICTURE_TRIES = 10;

/** Above this (JSON characters), a screen is not remembered: localStorage is small and synchronous. */
const MAX_REMEMBERED = 250_000;

/**
 * What the screen on display shows: every query with an answer that a mounted component uses
 * (its rows and total, their labels, the person's profile, a dashboard's figures); null when none,
 * when one of them is still being asked again after a change, or when they would be too large to keep.
 */
export function shownQueries(client: QueryClient): DehydratedState | null {
  const cache = client.getQueryCache();
  const shown = cache.findAll({ predicate: (q) => q.getObserversCount() > 0 });
  // A screen waiting for an answer since a change is not kept until it has it.
  if (shown.some((q) => q.state.isInvalidated || q.state.fetchStatus === 'fetching')) return null;
  const ahead = readAheads(cache.getAll(), new Set(shown.map((q) => q.queryHash)));
  const state = dehydrate(client, {
    shouldDehydrateQuery: (q) => q.state.status === 'success' && (q.getObserversCount() > 0 || ahead(q)),
    shouldDehydrateMutation: () => false,
  });
  if (state.queries.length === 0 || JSON.stringify(state).length > MAX_REMEMBERED) return null;
  return state;
}

type CachedQuery = ReturnType<ReturnType<QueryClient['getQueryCache']>['getAll']>[number];

/**
 * Which unshown queries a remembered screen keeps too: the next page read ahead of a list it
 * shows (`meta.readAheadOf`, usePrefetchList; not one a write outdated since) and the rows that
 * page names (its labels), so that a
 * return visit's first "Next page" is answered from memory like the first page, before the
 * database is open, and refreshed once it is (a remembered list is stale: hydrateRemembered).
 */
function readAheads(all: readonly CachedQuery[], shown: ReadonlySet<string>): (q: CachedQuery) => boolean {
  const pages = all.filter(
    (q) =>
      q.state.status === 'success' &&
      !q.state.isInvalidated &&
      typeof q.meta?.readAheadOf === 'string' &&
      shown.has(q.meta.readAheadOf),
  );
  const named = new Set<string>();
  for (const p of pages)
    for (const row of (p.state.data as { rows?: Record<string, unknown>[] } | undefined)?.rows ?? [])
      for (const v of Object.values(row)) if (typeof v === 'string') named.add(v);
  return (q) => pages.includes(q) || (q.queryKey[1] === 'row' && named.has(String(q.queryKey[2])));
}

/**
 * While `session` is signed in, keeps the screen the person looks at (once the page is left alone
 * after an answer from the backend, and when it is left) for the next visit; forgets it on sign-out or when the person changes. Only
 * for a backend whose data already lives on this device (`target`).
 */
export function useRememberStart(
  client: QueryClient,
  target: StartMemoryTarget | null | undefined,
  session: Session | null | undefined,
): void {
  useEffect(() => {
    if (!target || session === undefined) return;
    if (session === null) {
      forgetStart(target);
      return;
    }
    forgetStartUnless(target, session.user.id);
    const here = () => {
      const at = appLocation();
      return `${at.pathname}${at.search}`;
    };
    // The screen's picture (a copy of the page's DOM, some 10–20 ms on a slow machine) is taken
    // once the person has left the page alone for a moment, so it never delays a click, a key or
    // a scroll frame; and at the latest when the page is left.
    let wanted: string | undefined;
    let quiet: (() => void) | undefined;
    let tries = 0;
    const take = () => {
      quiet = undefined;
      // A part of the screen still loading (a list's filters load after its rows): again later.
      if (wanted !== undefined && here() === wanted && !rememberPreview(target, session, wanted)) {
        if (++tries < PICTURE_TRIES) {
          quiet = whenQuiet(take);
          return;
        }
      }
      tries = 0;
      wanted = undefined;
    };
    const picture = () => {
      wanted = here();
      quiet ??= whenQuiet(take);
    };
    // The answers are kept the same way: `dehydrate` and some 100–200 KB of JSON written into
    // localStorage (synchronous) would otherwise land in the middle of the next click.
    let saving: (() => void) | undefined;
    const save = () => {
      saving = undefined;
      const queries = shownQueries(client);
      if (!queries) return;
      rememberStart(target, session, here(), queries);
      picture();
    };
    // Leaving (a reload, another address, closing the tab) keeps what is shown now, whatever
    // changed since the last picture without an answer from the backend (a column hidden, say).
    const onLeave = () => {
      if (saving) {
        saving();
        save();
      }
      quiet?.();
      wanted = here();
      take();
    };
    window.addEventListener('pagehide', onLeave);
    // A screen drawn from what this device kept (a return visit, a demo's first screen) is
    // pictured too: a page left before the backend answers still shows it next time.
    const offShown = onScreenShown(picture);
    const off = client.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated') return;
      // Something changed (a write here or in another tab): what was kept may show a row that is
      // gone or a value that is not, so it is dropped until the screen's answers come back; a
      // reload meanwhile waits for the database instead.
      if (event.action.type === 'invalidate') {
        forgetStart(target);
        return;
      }
      // Only answers from the backend (not a remembered screen put back into the cache).
      if (event.action.type !== 'success' || event.action.manual) return;
      saving ??= whenQuiet(save);
    });
    // Answers that came before this effect ran (a fast database, a slow first render; and the
    // live screen's ScreenShown fires in the child's commit, before this parent's effect listens)
    // would otherwise never be kept: what shows now is kept once the page is quiet. Not for a
    // session the backend has not confirmed (no token): what shows is then what was kept, and
    // storing it again would only make it look newer; the confirmed session runs this again.
    if (session.accessToken !== '') saving = whenQuiet(save);
    return () => {
      off();
      offShown();
      quiet?.();
      saving?.();
      window.removeEventListener('pagehide', onLeave);
    };
  }, [client, target, session]);
}
