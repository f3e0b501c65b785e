import type { Session } from '../backend/types.ts';
import { previewKey, type StartMemoryTarget, storage } from './rememberedStart.ts';

/**
 * A picture of the screen a signed-in person last looked at: its HTML, kept beside the remembered
 * start (rememberedStart.ts). On the next visit to the same address, the page's inline script
 * (src/cli/screenPreviewPlugin.ts) shows it before any of the app's code has loaded, over the app,
 * inert (nothing in it can be clicked, focused or read out); the app takes its place the moment
 * its own screen is drawn (`revealScreen`). Only the build that drew it shows it: class names and
 * markup belong to one build.
 */
export interface StoredPreview {
  v: 1;
  /** The build that drew them: the page's entry script (hashed; any change of code or spec renames it). */
  build: string;
  /** Whose screens they are, and until when that session holds (after that: not shown). */
  user: string;
  expiresAt: number;
  /** The last few screens, newest first, by path (pathname and search, as the remembered start keeps them). */
  screens: {
    path: string;
    /** The colour scheme it was drawn in (Mantine's `data-mantine-color-scheme`). */
    scheme: string | null;
    /** Drawn on a wide screen (48em and up, where lists show every column): shown only on one. */
    wide: boolean;
    html: string;
  }[];
}

/** Where the app's layout is the wide one (the list's `useMediaQuery`; the inline script's test). */
const WIDE = '(min-width: 48em)';

/** How many screens' pictures are kept: the list survives a look at a ticket (as rememberedStart.ts). */
const SCREENS_KEPT = 3;

/** The element the page's inline script shows a preview in. */
export const PREVIEW_ID = 'ninefold-preview';

/** Above this (characters of HTML), a screen's picture is not kept: localStorage is small and synchronous. */
const MAX_PREVIEW = 400_000;

/** The build a page comes from: its entry script's address, or null (the dev server: no picture). */
export function buildOf(doc: Document): string | null {
  const src = doc.querySelector('script[type="module"][src]')?.getAttribute('src') ?? null;
  return src && /\/assets\//.test(src) ? src : null;
}

/**
 * The app's screen (`#root`) as HTML to show again, without the table rows below the window: no scripts or embedded documents, no inline
 * event handlers, and no text typed into fields (a half-typed form is not kept on the device);
 * a read-only field keeps what it shows (a filter's chosen option).
 */
export function previewHtml(root: Element): string {
  const copy = root.cloneNode(true) as Element;
  // Only the rows a window shows with nothing scrolled (the picture shows the top of the screen,
  // clipped, and cannot scroll), and a quarter window more in case the next one is taller: the
  // picture's style and layout, before any of the app's code can run, cost as much as its rows
  // (a list page's 50 rows: 0.5 s on a loaded machine, 0.2 s for 20). Self-contained (no helper
  // of this module): a test runs this function's source in a page.
  const view = root.ownerDocument.defaultView;
  const bottom = (view?.innerHeight || Number.POSITIVE_INFINITY) * 1.25;
  const unscrolledTop = (el: Element) => {
    let top = el.getBoundingClientRect().top + (view?.scrollY ?? 0);
    for (let p = el.parentElement; p && p !== root; p = p.parentElement) top += p.scrollTop;
    return top + root.scrollTop;
  };
  const bodies = copy.querySelectorAll('tbody');
  root.querySelectorAll('tbody').forEach((body, b) => {
    const below = [...body.children].findIndex((row) => unscrolledTop(row) >= bottom);
    if (below >= 0) for (const row of [...(bodies[b]?.children ?? [])].slice(below)) row.remove();
  });
  for (const el of copy.querySelectorAll(
    'script, iframe, frame, frameset, object, embed, base, meta, link, noscript, template',
  ))
    el.remove();
  for (const el of copy.querySelectorAll('*')) {
    for (const a of [...el.attributes])
      if (/^on/i.test(a.name) || /^\s*(javascript|data|vbscript):/i.test(a.value)) el.removeAttribute(a.name);
    if (el.tagName === 'INPUT' && !el.hasAttribute('readonly')) el.removeAttribute('value');
    if (el.tagName === 'TEXTAREA') el.textContent = '';
  }
  return copy.innerHTML;
}

/**
 * Keeps a picture of what `doc`'s app shows now for `session`'s next visit to `path`, beside the
 * last few other screens; nothing when the page is not a build's, shows a picture itself or a
 * loader, and no picture for `path` when it is too large. False when it took none because a part
 * of the screen is still loading (the caller may try again), else true.
 */
export function rememberPreview(
  target: StartMemoryTarget,
  session: Session,
  path: string,
  doc: Document = document,
): boolean {
  const root = doc.getElementById('root');
  const build = buildOf(doc);
  if (!root || !build || doc.getElementById(PREVIEW_ID)) return true;
  if (screenLoading(doc)) return false;
  const html = previewHtml(root);
  const key = previewKey(target.key);
  try {
    const old = JSON.parse(storage()?.getItem(key) ?? 'null') as StoredPreview | null;
    const kept =
      old?.v === 1 && old.build === build && old.user === session.user.id && Array.isArray(old.screens)
        ? old.screens.filter((sc) => sc.path !== path)
        : [];
    const scheme = doc.documentElement.getAttribute('data-mantine-color-scheme');
    const wide = doc.defaultView?.matchMedia(WIDE).matches ?? true;
    const value: StoredPreview = {
      v: 1,
      build,
      user: session.user.id,
      expiresAt: session.expiresAt,
      screens: [...(html.length > MAX_PREVIEW ? [] : [{ path, scheme, wide, html }]), ...kept].slice(
        0,
        SCREENS_KEPT,
      ),
    };
    storage()?.setItem(key, JSON.stringify(value));
  } catch {
    // Over the quota, blocked or unreadable: the next visit starts without a picture, as before.
    try {
      storage()?.removeItem(key);
    } catch {
      // Blocked storage held nothing.
    }
  }
  return true;
}

const shownListeners = new Set<() => void>();
const drawnListeners: (() => void)[] = [];

/**
 * Calls `listener` once, when the app next draws a screen of its own, the sign-in screen included
 * (in the commit that draws it, before the browser paints it).
 *
 * @example
 * onNextScreenDrawn(() => requestAnimationFrame(() => setTimeout(afterPaint, 0)));
 */
export function onNextScreenDrawn(listener: () => void): void {
  drawnListeners.push(listener);
}

let coming: Promise<void> | null = null;

/**
 * A screen that needs no database is on its way (a demo account's first screens, drawn from the
 * build's, src/react/demoScreens.ts): `drawn` settles once it is drawn, or once it will not be.
 * The held worker waits for it (app/main.tsx): its start (PGlite's compile, the snapshot's unpacking)
 * took the cores that screen's render needed, which then ended in a task of 50-67 ms.
 */
export function screenComing(drawn: Promise<unknown>): void {
  const settled = drawn.then(
    () => undefined,
    () => undefined,
  );
  coming = settled;
  void settled.then(() => {
    if (coming === settled) coming = null;
  });
}

/** The screen on its way (`screenComing`) while it is not drawn yet, else null. */
export function screenOnItsWay(): Promise<void> | null {
  return coming;
}

let drawnOnce = false;

/** The app drew a screen of its own (`screenShown`, or the sign-in screen, which keeps no picture). */
export function screenDrawn(): void {
  drawnOnce = true;
  for (const listener of drawnListeners.splice(0)) listener();
}

/** Whether the app has drawn a screen of its own yet (`screenDrawn`). */
export function anyScreenDrawn(): boolean {
  return drawnOnce;
}

const SHOWN_SETTLE_MS = 300;

/**
 * A screen of the app was drawn for the first time (its own content, not a loading fallback): the
 * picture goes, and whoever keeps pictures (`onScreenShown`) may take one of it.
 */
export function screenShown(doc: Document = document): void {
  revealScreen(doc);
  screenDrawn();
  // A moment later: the screen's effects have run (the one keeping pictures subscribes in one)
  // and what the first draw asked for has mostly arrived.
  setTimeout(() => {
    for (const listener of shownListeners) listener();
  }, SHOWN_SETTLE_MS);
}

/** Calls `listener` a moment after each `screenShown`; returns how to stop. */
export function onScreenShown(listener: () => void): () => void {
  shownListeners.add(listener);
  return () => {
    shownListeners.delete(listener);
  };
}

/** Whether the app's screen still waits for something (a loader or skeleton shows): no picture then. */
export function screenLoading(doc: Document = document): boolean {
  return doc.getElementById('root')?.querySelector('.mantine-Loader-root, .mantine-Skeleton-root') !== null;
}

/**
 * Takes the picture away, when there is one: the app's own screen is drawn (or will not be: the
 * sign-in screen, a failed start). Idempotent.
 */
export function revealScreen(doc: Document = document): void {
  const shown = doc.getElementById(PREVIEW_ID);
  if (!shown) return;
  shown.remove();
  performance.mark('ninefold:preview-replaced');
}
