import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/notifications/styles.css';
import spec, { demoLoaded, translationsLoaded } from 'virtual:ninefold-spec';
import { workerRelease } from '../src/backend/embedded/browser/workerHold.ts';
import { appSlug } from '../src/runtime/appSlug.ts';
import { LOCALE_STORAGE_KEY, pickLocale, setLocale } from '../src/runtime/locale.ts';
import { releaseWhenDrawn } from '../src/runtime/releaseWhenDrawn.ts';
import { readRememberedStart, startMemoryKey } from '../src/runtime/rememberedStart.ts';
import { revealScreen } from '../src/runtime/screenPreview.ts';
import { loadUiCatalogue, ui } from '../src/runtime/uiText.ts';
import { codeCacheKey, inCodeCacheWarmUp, warmCodeCache } from '../src/runtime/warmCodeCache.ts';

// The entry chunk is only this: the boot screen (index.html) paints at once, and the backend
// (PGlite client, migration compiler, rules) and the UI (React, Mantine, router) load as two
// chunks in parallel. Each screen kind is a further chunk (React.lazy in NinefoldApp).

/** How long the last visit's screen may stay shown over an app that draws none of its own. */
const PREVIEW_AT_MOST_MS = 15_000;

/** How long the held worker waits at most for the app's first screen to be drawn, from the entry. */
const WORKER_HELD_AT_MOST_MS = 1_500;

/**
 * When the code cache's warm-up starts after the database is open (its first answers are drawn
 * first: the moment between the open and their arrival is idle too), and how long it then waits
 * at most for an idle moment.
 */
const WARM_UP_AFTER_MS = 1_000;
const WARM_UP_AT_MOST_MS = 2_000;

const text = (id: string, value: string) => {
  const el = document.getElementById(id);
  if (el) el.textContent = value;
};

/**
 * The person's saved language, else the browser's, else English, with its texts (a language
 * other than English is its own small chunk); before any text is shown or any screen's code runs.
 */
async function chooseLocale(): Promise<void> {
  let saved: string | null = null;
  try {
    saved = localStorage.getItem(LOCALE_STORAGE_KEY);
  } catch {
    // Storage blocked (privacy settings): the browser's language still applies.
  }
  const locale = pickLocale(saved, navigator.languages ?? [navigator.language]);
  setLocale(locale);
  // Only when it changes: Chromium restyles the whole page on every write of `lang`, even of the
  // same value, and on a return visit the page holds the picture of the last screen (~520
  // elements, 11 ms of a traced return visit).
  if (document.documentElement.lang !== locale) document.documentElement.lang = locale;
  await Promise.all([loadUiCatalogue(locale), translationsLoaded(locale)]);
}

/**
 * The embedded backend's worker: a build's inline script has started it, held until the first
 * screen is drawn (workerHold.ts); the dev server's page has no such script, and the entry starts
 * it here, not held. A dynamic import of a
 * tiny module, not a static one: hosted builds replace the condition with `true`, the bundler
 * drops the import, and the build contains no worker (a `new Worker(new URL(…))` written here
 * would be emitted even when unreachable). `?memory` starts its own, on a throw-away database.
 */
function earlyWorker(params: URLSearchParams): Promise<Worker> | undefined {
  if (import.meta.env.VITE_NINEFOLD_BACKEND === 'supabase' || params.has('memory')) return undefined;
  // Started by the page's inline script when the build emitted one (src/cli/workerStartPlugin.ts).
  const started = (window as { __ninefoldWorker?: Worker }).__ninefoldWorker;
  if (started) return Promise.resolve(started);
  return import('../src/backend/embedded/browser/startBackendWorker.ts').then((m) => {
    const worker = m.startBackendWorker(m.appSlug(spec));
    performance.mark('ninefold:worker-start');
    return worker;
  });
}

/**
 * A return visit that will show what the person saw last (src/runtime/rememberedStart.ts, embedded
 * builds): the signed-in app's code (router, shell, list screen) is asked for now, beside React's,
 * instead of after the first render asks for it, a chain of three round trips later. (The sign-in
 * screen's chunk asked for the same way made a first visit slower, not faster: docs/decisions.md.)
 */
function preloadRememberedScreens(params: URLSearchParams): void {
  if (import.meta.env.VITE_NINEFOLD_BACKEND === 'supabase' || params.has('memory')) return;
  try {
    if (!localStorage.getItem(startMemoryKey(appSlug(spec)))) return;
  } catch {
    return; // Storage blocked: nothing was remembered.
  }
  void import('../src/react/AppRouter.tsx').catch(() => undefined);
  void import('../src/react/ListScreen.tsx').catch(() => undefined);
}

/**
 * Once the app has started and the page is idle, the start's scripts run a second time in a
 * module worker, so that the next visit reads their compiled code (src/runtime/warmCodeCache.ts;
 * docs/performance.md). Not with `?memory` (a throw-away visit).
 */
function warmCodeCacheWhenIdle(params: URLSearchParams): void {
  if (params.has('memory')) return;
  const warm = () =>
    void warmCodeCache(codeCacheKey(appSlug(spec))).then((ran) =>
      performance.mark('ninefold:code-cache-warm-up', { detail: { ran } }),
    );
  setTimeout(() => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(warm, { timeout: WARM_UP_AT_MOST_MS });
    else warm();
  }, WARM_UP_AFTER_MS);
}

async function boot(): Promise<void> {
  // First, before the locale or any text: the worker, held until the first screen is drawn.
  const params = new URLSearchParams(location.search);
  const worker = earlyWorker(params);
  // Held by the page's inline script (src/backend/embedded/browser/workerHold.ts): it starts
  // once the app's first screen (the sign-in screen, or the one the person saw last) is drawn and
  // painted (and a demo account's first screens, when one is chosen before that), so that
  // PGlite's compile and the database's open do not take the cores those screens' renders need;
  // at once when the app will wait for the database instead (below), and after
  // WORKER_HELD_AT_MOST_MS should the first screen be slow.
  const releaseWorker = workerRelease(worker);
  releaseWhenDrawn(releaseWorker, WORKER_HELD_AT_MOST_MS);
  preloadRememberedScreens(params);
  await chooseLocale();
  document.title = spec.purpose.name;
  text('boot-title', ui('appLoading', { name: spec.purpose.name }));
  text('boot-detail', ui('appLoadingDetail'));
  const ui$ = import('./renderApp.tsx').then((m) => {
    performance.mark('ninefold:ui-loaded');
    return m;
  });
  // The demo (its own chunk, fetched since this script ran) is registered before anything in
  // the tab reads it: the `?memory` database is seeded with the accounts' people the tab plans from
  // it, the sign-in screen lists its accounts. The default mode's database comes from the snapshot,
  // which the build seeded with the demo, so it does not hold the worker's `init` back for it.
  if (params.has('memory')) await demoLoaded;
  const started = await (await import('./startBackend.ts')).startBackend(spec, params, worker);
  const ready = started.ready.then(() => performance.mark('ninefold:backend-ready'));
  ready.catch(() => undefined);
  // What can be shown before the database is open: the sign-in screen when nobody is signed in,
  // or the person and the list they saw last time (src/runtime/rememberedStart.ts); the database's
  // answers replace it as they arrive. Otherwise the app waits for the database, as it always did.
  const memory = started.remembers;
  const remembered = memory ? readRememberedStart(memory.target, memory.signedIn, Date.now()) : null;
  // The picture of the last screen (src/runtime/screenPreview.ts) stays only over a remembered
  // person's screen, which the app draws at once; otherwise the boot screen or sign-in is next.
  if (!remembered?.session) revealScreen();
  if (!remembered) {
    // Nothing to draw before the database: it starts now.
    releaseWorker();
    await ready;
  }
  const root = document.getElementById('root');
  if (!root) throw new Error('no #root');
  const bootScreen = root.innerHTML;
  const [{ renderApp }] = await Promise.all([ui$, demoLoaded]);
  const unmount = renderApp(
    root,
    spec,
    started.backend,
    memory?.target ?? null,
    remembered,
    started.demoScreens,
  );
  // Should the app not draw a screen of its own soon (its code failed to load), the picture goes.
  setTimeout(revealScreen, PREVIEW_AT_MOST_MS);
  try {
    await ready;
  } catch (e) {
    // The database did not open after all: the boot screen comes back to say why.
    unmount();
    root.innerHTML = bootScreen;
    throw e;
  }
  warmCodeCacheWhenIdle(params);
}

// In the code cache warm-up's worker the entry only runs (its module's code is compiled and kept).
if (!inCodeCacheWarmUp())
  boot().catch((e: unknown) => {
    console.error(e);
    revealScreen();
    text('boot-title', ui('appFailed'));
    text('boot-detail', e instanceof Error ? e.message : String(e));
  });
