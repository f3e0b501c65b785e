/**
 * The embedded backend's worker: PGlite and the whole backend (data, auth, files, calls) run here;
 * the tab sends one message per port call (see serveBackend.ts and createBrowserBackend.ts).
 *
 * This first script is tiny on purpose: once it may start (at once, or when the page releases a
 * held worker: workerHold.ts) it starts PGlite's wasm and data downloads (prefetchPglite.ts), then
 * loads the backend's code (a separate chunk, ~170 KB gzip), keeping the tab's messages that
 * arrive meanwhile.
 */
import { prefetchPglite } from './prefetchPglite.ts';
import { isHeld, isRelease, whenReleased } from './workerHold.ts';
import { markWorker } from './workerMarks.ts';

markWorker('script');

type Scope = Parameters<typeof import('./serveBackend.ts').serveBackend>[0];
const scope = self as unknown as Scope & {
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
};
const early: MessageEvent[] = [];
const keep = (event: MessageEvent) => {
  if (!isRelease(event.data)) early.push(event);
};
scope.addEventListener('message', keep);

void whenReleased(scope, isHeld(self.name))
  .then(() => {
    markWorker('released');
    prefetchPglite();
    return import('./serveBackend.ts');
  })
  .then(({ serveBackend }) => {
    markWorker('code-loaded');
    const listeners: ((event: MessageEvent) => void)[] = [];
    serveBackend({
      postMessage: (m) => scope.postMessage(m),
      addEventListener: (type, listener) => {
        listeners.push(listener as (event: MessageEvent) => void);
        scope.addEventListener(type, listener);
      },
    });
    scope.removeEventListener('message', keep);
    for (const event of early.splice(0)) for (const l of listeners) l(event);
  });
