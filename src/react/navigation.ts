import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useParams as useRouteParams } from 'wouter';
import { afterNextPaint } from './afterNextPaint.ts';

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

function show(at: { pathname: string; search: string } = location): void {
  shownPath = at.pathname;
  shownSearch = at.search;
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

/**
 * The history entry of a change of the screen's search (a list's page, filter, search, sort),
 * written once the screen has drawn it: Chromium's `pushState` takes 5–20 ms on a slow machine (the
 * browser records the entry), time the click's new rows waited for before they could paint. Until
 * then the app's location (`appLocation()`, what the screens read) is the new one and
 * `window.location` is not. A change of path (another screen) writes its entry at once.
 */
let pendingEntry: { write(): void; indexBefore: number } | undefined;
let cancelEntryWrite: (() => void) | undefined;

/** Writes a navigation's history entry still waiting, now (before another, or leaving the page). */
export function writeHistory(): void {
  const entry = dropEntry();
  entry?.write();
}

/** The entry still waiting, no longer waited for. */
function dropEntry(): typeof pendingEntry {
  const entry = pendingEntry;
  pendingEntry = undefined;
  cancelEntryWrite?.();
  cancelEntryWrite = undefined;
  return entry;
}

/** Goes to `to` (an app path with its search) unless an edit form with unsaved changes holds it. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  writeHistory();
  const next = new URL(to, location.href);
  if (blocks(next.pathname, () => navigate(to, options))) return;
  const indexBefore = index;
  const idx = options.replace ? index : ++index;
  const write = () =>
    options.replace ? history.replaceState({ idx }, '', next) : history.pushState({ idx }, '', next);
  if (next.pathname !== shownPath) {
    write();
    show();
    return;
  }
  pendingEntry = { write, indexBefore };
  show(next);
  cancelEntryWrite = afterNextPaint(writeHistory);
}

/** The app's location: the one shown, whose history entry may not be written yet (navigate). */
export function appLocation(): { pathname: string; search: string } {
  return { pathname: shownPath, search: shownSearch };
}

if (inBrowser) {
  // Entries this page did not make (the first load) have no index: `indexOf` counts them as 0.
  // (Writing it into the entry here cost the first screen 9 ms in Chromium, see navigate.)
  window.addEventListener('pagehide', writeHistory);
  // Registered when the module loads, before wouter's own listener, so a blocked jump can be
  // stopped before anything else sees it.
  window.addEventListener('popstate', (ev) => {
    // Back or forward within a frame of a navigation: its entry was never written; the jump
    // starts from the entry the browser was on.
    const unwritten = dropEntry();
    if (unwritten) index = unwritten.indexBefore;
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
  if (typeof to === 'number') {
    writeHistory();
    history.go(to);
  } else navigate(to, options);
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
