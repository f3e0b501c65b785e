import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useParams as useRouteParams } from 'wouter';

// The app's location for wouter (docs/decisions.md, "Initial JavaScript"): wouter matches routes
// and renders links, this module owns the history. It is wouter's browser location plus what
// react-router's data router gave the edit forms: a blocker that holds an in-app navigation, a
// back or forward button, until the person confirms. The screens read the location from this
// module's store, not from `window.location`, so a back press that is being undone never
// reaches React (the form stays mounted, its dialog opens, nothing flickers).

const inBrowser = typeof window !== 'undefined';

/** The history entry's position, kept in `history.state` so a back/forward jump can be undone. */
const indexOf = (state: unknown): number =>
  state && typeof state === 'object' && 'idx' in state && typeof state.idx === 'number' ? state.idx : 0;

let index = inBrowser ? indexOf(history.state) : 0;
let shownPath = inBrowser ? location.pathname : '/';
let shownSearch = inBrowser ? location.search : '';
const listeners = new Set<() => void>();

function show(): void {
  shownPath = location.pathname;
  shownSearch = location.search;
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

interface ActiveBlocker {
  when(from: string, to: string): boolean;
  block(retry: () => void): void;
}
/** The one mounted blocker (an edit form; two forms are never on screen at once). */
let active: ActiveBlocker | undefined;
/** Set by "proceed": the navigation it retries passes the blocker once. */
let bypass = false;
/** A blocked back/forward jump being undone: its popstate is swallowed, then the dialog opens. */
let undoing: (() => void) | undefined;

function blocks(to: string, retry: () => void): boolean {
  if (bypass) {
    bypass = false;
    return false;
  }
  if (!active?.when(shownPath, to)) return false;
  active.block(retry);
  return true;
}

/** Goes to `to` (an app path with its search) unless an edit form with unsaved changes holds it. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const next = new URL(to, location.href);
  if (blocks(next.pathname, () => navigate(to, options))) return;
  if (options.replace) history.replaceState({ idx: index }, '', next);
  else history.pushState({ idx: ++index }, '', next);
  show();
}

if (inBrowser) {
  // Entries this page did not make (the first load) count from 0.
  if (!(history.state && typeof history.state === 'object' && 'idx' in history.state))
    history.replaceState({ ...history.state, idx: index }, '');
  // Registered when the module loads, before wouter's own listener, so a blocked jump can be
  // stopped before anything else sees it.
  window.addEventListener('popstate', (ev) => {
    const to = indexOf(history.state);
    if (undoing) {
      const open = undoing;
      undoing = undefined;
      index = to;
      ev.stopImmediatePropagation();
      open();
      return;
    }
    const delta = to - index;
    // A jump the blocker holds is undone at once (the browser has already moved), and the
    // dialog opens once the page is back where it was; "Discard" replays the jump.
    const held = () => {
      bypass = true;
      history.go(delta);
    };
    if (delta !== 0 && active?.when(shownPath, location.pathname) && !bypass) {
      const blocker = active;
      ev.stopImmediatePropagation();
      undoing = () => blocker.block(held);
      history.go(-delta);
      return;
    }
    bypass = false;
    index = to;
    show();
  });
}

/** wouter's `hook`: the shown path and the guarded navigate. */
export function useAppLocation(): [string, typeof navigate] {
  return [useSyncExternalStore(subscribe, () => shownPath), navigate];
}

/** wouter's `searchHook`: the shown search, from the same store as the path. */
export function useAppSearch(): string {
  return useSyncExternalStore(subscribe, () => shownSearch);
}

/** An app path, or a number of history entries (`-1`: back). */
function go(to: string | number, options?: { replace?: boolean }): void {
  if (typeof to === 'number') history.go(to);
  else navigate(to, options);
}

/**
 * Navigates to an app path, or through the history by a number of entries (`-1`: back). The same
 * function every render, as react-router's was: the list passes it to its memoised rows.
 */
export function useNavigate(): typeof go {
  return go;
}

/** The route's named params, decoded (`/tickets/:id` → `{ id }`), like react-router gave them. */
export function useParams(): Record<string, string | undefined> {
  const raw = useRouteParams() as Record<string, string | undefined>;
  return useMemo(() => {
    const out: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(raw)) {
      // wouter also lists the captures by position ("0", "1"): only the names are params.
      if (/^\d+$/.test(k)) continue;
      try {
        out[k] = v === undefined ? v : decodeURIComponent(v);
      } catch {
        out[k] = v;
      }
    }
    return out;
  }, [raw]);
}

export interface Blocker {
  /** `blocked` while a held navigation waits for the person's answer. */
  state: 'blocked' | 'unblocked';
  /** Goes where the held navigation was going. */
  proceed(): void;
  /** Stays here. */
  reset(): void;
}

/**
 * Holds in-app navigations (links, `navigate`, back and forward) while `when(from, to)` says so
 * (paths without search). The page's unload is the caller's `beforeunload`.
 */
export function useBlocker(when: (from: string, to: string) => boolean): Blocker {
  const [held, setHeld] = useState<(() => void) | null>(null);
  // Read when a navigation happens, so the latest render's rule decides (a save clears it).
  const rule = useRef(when);
  rule.current = when;
  useEffect(() => {
    const mine: ActiveBlocker = {
      when: (from, to) => rule.current(from, to),
      block: (retry) => setHeld(() => retry),
    };
    active = mine;
    return () => {
      if (active === mine) active = undefined;
    };
  }, []);
  return useMemo(
    () =>
      held
        ? {
            state: 'blocked',
            proceed: () => {
              setHeld(null);
              bypass = true;
              held();
            },
            reset: () => setHeld(null),
          }
        : { state: 'unblocked', proceed: () => {}, reset: () => {} },
    [held],
  );
}
