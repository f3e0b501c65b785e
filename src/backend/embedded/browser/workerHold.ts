/**
 * A held worker: the backend's worker started by the page's inline script waits for the page's
 * word before its heavy start (PGlite's wasm compile, the backend's code, the database's open).
 * On a 2-core machine that start took the cores the tab needed to draw a return visit's
 * remembered screen, which needs no database: the live screen came 709 → 484 ms after navigation
 * when the worker waited (docs/performance.md). The page releases it at once when it will wait for
 * the database anyway (a first visit, nothing remembered), else once its first screen is drawn;
 * either side gives up waiting after a while, so a page that never says still gets its database.
 */

/**
 * The end of a held worker's name (the `name` option of `new Worker`, the worker's `self.name`).
 * Not a fragment or query of its URL: the backend's code imports the worker's own chunk back, and
 * a module is known by its whole URL, so that chunk would run a second time.
 */
export const HELD_NAME_SUFFIX = ' (held)';

/** Whether a worker of this name waits for the page's word. */
export function isHeld(name: string): boolean {
  return name.endsWith(HELD_NAME_SUFFIX);
}

/** The page's word: start now. */
export const RELEASE_MESSAGE = { type: 'release' } as const;

/** How long a held worker waits at most for the page's word, from its first script. */
export const HELD_AT_MOST_MS = 3_000;

/** Whether a message from the page is the release (the worker keeps every other one for the backend). */
export function isRelease(data: unknown): boolean {
  return (data as { type?: unknown } | null)?.type === RELEASE_MESSAGE.type;
}

interface MessageScope {
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

/**
 * The worker's side: resolves when the page releases it, at once when it is not held, or after
 * `atMost` ms.
 *
 * @example
 * await whenReleased(self, isHeld(self.name));
 */
export function whenReleased(scope: MessageScope, held: boolean, atMost = HELD_AT_MOST_MS): Promise<void> {
  if (!held) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      scope.removeEventListener('message', onMessage);
      resolve();
    };
    const onMessage = (event: MessageEvent) => {
      if (isRelease(event.data)) done();
    };
    const timer = setTimeout(done, atMost);
    scope.addEventListener('message', onMessage);
  });
}

/**
 * The page's side: releases the worker (idempotent; a worker that was not held ignores it).
 *
 * @example
 * const release = workerRelease(worker);
 * release();
 */
export function workerRelease(worker: Promise<Worker> | undefined): () => void {
  let sent = false;
  return () => {
    if (sent || !worker) return;
    sent = true;
    void worker.then((w) => w.postMessage(RELEASE_MESSAGE)).catch(() => undefined);
  };
}
