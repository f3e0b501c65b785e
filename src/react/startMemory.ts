import { type DehydratedState, dehydrate, hydrate, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Session } from '../backend/types.ts';
import {
  forgetStart,
  forgetStartUnless,
  rememberStart,
  type StartMemoryTarget,
} from '../runtime/rememberedStart.ts';
import { onScreenShown, rememberPreview } from '../runtime/screenPreview.ts';

/**
 * Puts a remembered screen into a new query cache, every query marked stale (updated at 0): each
 * is asked again the moment a screen uses it, and the database's answer replaces what is shown.
 *
 * @example
 * hydrateRemembered(client, remembered.queries);
 */
export function hydrateRemembered(client: QueryClient, queries: unknown): void {
  const state = queries as DehydratedState | null;
  if (!state || !Array.isArray(state.queries)) return;
  hydrate(client, {
    mutations: [],
    queries: state.queries.map((q) => ({ ...q, state: { ...q.state, dataUpdatedAt: 0 } })),
  });
}

/** How long after an answer what shows is taken as settled. */
const SETTLE_MS = 300;

/** Runs `fn` when the browser is idle (within a second), or soon where it cannot tell. */
function idle(fn: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(fn, { timeout: 1000 });
  else setTimeout(fn, 0);
}

/** Above this (JSON characters), a screen is not remembered: localStorage is small and synchronous. */
const MAX_REMEMBERED = 250_000;

/**
 * What the screen on display shows: every query with an answer that a mounted component uses
 * (its rows and total, their labels, the person's profile, a dashboard's figures); null when none,
 * when one of them is still being asked again after a change, or when they would be too large to keep.
 */
export function shownQueries(client: QueryClient): DehydratedState | null {
  const shown = client.getQueryCache().findAll({ predicate: (q) => q.getObserversCount() > 0 });
  // A screen waiting for an answer since a change is not kept until it has it.
  if (shown.some((q) => q.state.isInvalidated || q.state.fetchStatus === 'fetching')) return null;
  const state = dehydrate(client, {
    shouldDehydrateQuery: (q) => q.state.status === 'success' && q.getObserversCount() > 0,
    shouldDehydrateMutation: () => false,
  });
  if (state.queries.length === 0 || JSON.stringify(state).length > MAX_REMEMBERED) return null;
  return state;
}

/**
 * While `session` is signed in, keeps the screen the person looks at (a moment after each answer
 * from the backend) for the next visit; forgets it on sign-out or when the person changes. Only
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
    let timer: ReturnType<typeof setTimeout> | undefined;
    const here = () => `${window.location.pathname}${window.location.search}`;
    /** The screen's picture (a copy of the page's DOM), once the browser has a moment. */
    const picture = () => {
      const path = here();
      idle(() => {
        if (here() === path) rememberPreview(target, session, path);
      });
    };
    const save = () => {
      timer = undefined;
      const queries = shownQueries(client);
      if (!queries) return;
      rememberStart(target, session, here(), queries);
      picture();
    };
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
      if (timer === undefined) timer = setTimeout(save, SETTLE_MS);
    });
    return () => {
      off();
      offShown();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [client, target, session]);
}
