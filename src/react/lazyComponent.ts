import { type ComponentType, createElement, type ReactNode, type ReactPromise, use } from 'react';

/** A component whose code is its own chunk, and how to fetch that chunk ahead of its first render. */
export type LazyComponent<P extends object> = ((props: P) => ReactNode) & {
  /** Fetches the chunk (once; again after a failure); rendering it from then on does not suspend. */
  preload(): Promise<unknown>;
};

/**
 * A promise that says how it settled, as React's `use` reads one (React's types name it
 * `ReactPromise`): one marked `fulfilled` is read at once, without suspending.
 */
type Settling<T> = Promise<T> & { status?: 'fulfilled' | 'rejected'; value?: T; reason?: unknown };

/**
 * `React.lazy`, except that once the chunk has loaded the component renders at once, on its first
 * render too. React.lazy suspends at every first render, even of a chunk already here, until a
 * promise callback has run; and React 19 holds a Suspense boundary's reveal until 300 ms after the
 * last fallback anywhere was shown or hidden ("throttled"): a chain of lazy screens cost a first
 * visit 0.3 s per link (docs/performance.md). A chunk not loaded yet still suspends, as React.lazy
 * does, to the nearest Suspense boundary; a chunk that failed to load throws its error to the
 * nearest error boundary and is fetched again at the next render. Every render calls `use` (React
 * requires a component that suspended in `use` to call it again when it resumes).
 *
 * @example
 * const ListScreen = lazyComponent(() => import('./ListScreen.tsx').then((m) => m.ListScreen));
 * await ListScreen.preload(); // the next <ListScreen … /> renders without suspending
 */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>): LazyComponent<P> {
  let pending: Settling<ComponentType<P>> | undefined;
  const preload = (): Settling<ComponentType<P>> => {
    if (pending) return pending;
    const settling: Settling<ComponentType<P>> = load();
    settling.then(
      (component) => {
        settling.status = 'fulfilled';
        settling.value = component;
      },
      (error: unknown) => {
        settling.status = 'rejected';
        settling.reason = error;
        // The next render (or preload) asks for the chunk again.
        if (pending === settling) pending = undefined;
      },
    );
    pending = settling;
    return settling;
  };
  const Lazy = (props: P): ReactNode =>
    createElement(use(preload() as ReactPromise<ComponentType<P>>), props);
  return Object.assign(Lazy, { preload });
}
