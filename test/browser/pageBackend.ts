import { rm } from 'node:fs/promises';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import type { BrowserBackend } from '../../src/backend/embedded/browser/createBrowserBackend.ts';
import {
  type AuthEvent,
  type Backend,
  BackendError,
  type Change,
  type Session,
} from '../../src/backend/types.ts';
import { decodeWire, encodeWire, type Wire, type WireEvent } from './page/rpc.ts';
import { buildTestPage, CHROMIUM, CHROMIUM_ARGS, serveStatic } from './testPage.ts';

/** What the test page (test/browser/page/main.ts) puts on `window`. */
export type Nf = {
  ready: Promise<{ backend: BrowserBackend; bootMs: number }>;
  changes: Change[];
  call(path: string, args: unknown[], clockMs: number | null): Promise<{ result: Wire; events: WireEvent[] }>;
  seedDemoAccounts(): Promise<void>;
};

/** The built test page, its server and one Chromium; `open` loads the page on a database. */
export interface BrowserHarness {
  browser: Browser;
  url: string;
  /** A new tab of `context` (a fresh context when absent) on `idb://…` `db`, booted. */
  open(db: string, context?: BrowserContext): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Builds the test page, serves it and launches Chromium (the shared setup of test/browser).
 *
 * @example
 * const h = await startBrowserHarness();
 * const page = await h.open('idb://ninefold-x');
 */
export async function startBrowserHarness(): Promise<BrowserHarness> {
  const dir = await buildTestPage();
  const server = await serveStatic(dir);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  return {
    browser,
    url: server.url,
    async open(db, context) {
      const page = await (context ?? (await browser.newContext())).newPage();
      page.on('pageerror', (e) => console.error('page error:', e.message));
      await page.goto(`${server.url}?db=${encodeURIComponent(db)}`);
      await bootedIn(page);
      return page;
    },
    async close() {
      await browser.close();
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until the page's backend booted (rejects with the boot error). */
export async function bootedIn(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as { nf: Nf }).nf.ready.then(() => undefined));
}

/**
 * A `Backend` in Node whose every call runs in the page's backend (worker + IndexedDB), so the
 * shared conformance suite can drive the browser adapter unchanged. Errors come back as
 * `BackendError` with the same code, params and field; auth events and live changes a call
 * caused are delivered to the Node listeners before the call resolves. `now` is sent with each
 * call and becomes the page backend's clock.
 *
 * @example
 * const backend = pageBackend(page, () => new Date());
 * await backend.auth.signIn({ email, password });
 */
export function pageBackend(page: Page, now: () => Date, onClose?: () => Promise<void>): Backend {
  const authListeners = new Set<(e: AuthEvent, s: Session | null) => void>();
  const liveListeners = new Map<number, (c: Change) => void>();
  let nextSub = 0;

  const invoke = async (path: string, args: unknown[]): Promise<unknown> => {
    const { result, events } = await page.evaluate(
      ([p, a, ms]) => (window as unknown as { nf: Nf }).nf.call(p, a, ms),
      [path, encodeWire(args) as unknown[], now().getTime()] as const,
    );
    for (const e of events) {
      if (e.kind === 'auth') {
        for (const l of [...authListeners]) l(e.event as AuthEvent, decodeWire(e.session) as Session | null);
      } else liveListeners.get(e.sub)?.(e.change as Change);
    }
    if (result.ok) return decodeWire(result.value);
    const { code, params, field, message } = result.error;
    if (code === 'NOT_A_BACKEND_ERROR') throw new Error(`${path} threw a raw error in the page: ${message}`);
    throw new BackendError(code, params, field);
  };
  // One forwarder per port; the Backend interface types the methods.
  const port = <T>(name: string): T =>
    new Proxy({} as Record<string, unknown>, {
      get:
        (_, method: string) =>
        (...args: unknown[]) =>
          invoke(`${name}.${method}`, args),
    }) as T;

  return {
    kind: 'embedded',
    auth: {
      signUp: (input) => invoke('auth.signUp', [input]) as Promise<Session>,
      signIn: (input) => invoke('auth.signIn', [input]) as Promise<Session>,
      signOut: () => invoke('auth.signOut', []) as Promise<void>,
      session: () => invoke('auth.session', []) as Promise<Session | null>,
      onChange(listener) {
        authListeners.add(listener);
        return () => {
          authListeners.delete(listener);
        };
      },
    },
    data: port<Backend['data']>('data'),
    files: port<Backend['files']>('files'),
    calls: port<Backend['calls']>('calls'),
    admin: port<Backend['admin']>('admin'),
    live: {
      subscribe(target, fn) {
        nextSub += 1;
        const sub = nextSub;
        liveListeners.set(sub, fn);
        // Registered in the page before the next call runs: evaluations run in order.
        void invoke('live.subscribe', [sub, target]);
        return () => {
          liveListeners.delete(sub);
          void invoke('live.unsubscribe', [sub]).catch(() => undefined);
        };
      },
    },
    async close() {
      await onClose?.();
    },
  };
}
