import { appSlug, type EmbeddedBackend } from '../src/backend/embedded/createEmbeddedBackend.ts';
import type { Change } from '../src/backend/types.ts';
import type { AppSpec } from '../src/spec/types.ts';

/**
 * The end-to-end tests' window into the app, installed by `main.tsx` only when the URL has both
 * `memory` and `test` (`/?memory&test`): the database is then a throw-away in-memory one, so owner
 * access cannot touch anyone's data. It lets a test move time (back-date `solvedAt`), set up what
 * the UI has no screen for (a reporting line) and call the backend as the signed-in user, to show
 * the server refuses what the UI hides. Loaded as its own chunk: normal visits never fetch it.
 *
 * @example
 * await page.goto(`${url}/?memory&test`);
 * await page.evaluate(() => window.__ninefoldTest.sql("update public.ticket set solved_at = now() - interval '8 days'"));
 */
export interface NinefoldTestHook {
  /**
   * Runs SQL as the database owner (bypasses row-level security; triggers still run). `changed`
   * is announced like a committed change, so open screens refetch as they would for a user's write.
   */
  sql(text: string, params?: unknown[], changed?: Change): Promise<Record<string, unknown>[]>;
  /** Calls `backend[port][method](...args)` as the signed-in user. */
  call(port: 'data' | 'files', method: string, ...args: unknown[]): Promise<unknown>;
}

export function installTestHook(
  backend: Pick<EmbeddedBackend, 'asOwner' | 'data' | 'files'>,
  spec: AppSpec,
): void {
  // The live channel's other end: this tab's listeners hear it like another tab's write.
  const channel = new BroadcastChannel(`ninefold-${appSlug(spec)}-changes`);
  const hook: NinefoldTestHook = {
    sql: async (text, params = [], changed) => {
      const rows = await backend.asOwner(
        async (tx) => (await tx.query<Record<string, unknown>>(text, params)).rows,
      );
      if (changed) channel.postMessage(changed);
      return rows;
    },
    call: (port, method, ...args) => {
      const target = backend[port] as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
      const fn = target[method];
      if (!fn) return Promise.reject(new Error(`no method ${port}.${method}`));
      return fn.apply(target, args);
    },
  };
  (window as unknown as { __ninefoldTest: NinefoldTestHook }).__ninefoldTest = hook;
}
