import type { Page } from 'playwright-core';

/**
 * What crossed between the page and its backend worker, in order: a `data.list` asked (its
 * request's sequence number, the query's search and limit), or an answer to a request; `at` is
 * when, in the page's clock (ms).
 */
export type ListTraffic =
  | {
      kind: 'ask';
      at: number;
      seq: number;
      entity: string;
      search: string | undefined;
      limit: number;
      offset: number;
    }
  | { kind: 'answer'; at: number; seq: number };

/**
 * Records, in order, every `data.list` the page sends its backend worker from now on and every
 * answer the page reads (the worker's wire, protocol.ts: `{ type: 'request', seq, request }` and
 * `{ type: 'answer', seq }`). An answer is logged when the page's own listener first reads the
 * message (`MessageEvent.data`), so whatever that listener asks next is logged after it.
 */
export async function recordListTraffic(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __listTraffic?: unknown[] };
    w.__listTraffic = [];
    const answered = new Set<number>();
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: unknown[]) {
      const m = message as {
        type?: string;
        seq?: number;
        request?: { kind?: string; path?: string; args?: unknown[] };
      };
      if (m?.type === 'request' && m.request?.kind === 'call' && m.request.path === 'data.list') {
        const [entity, query] = (m.request.args ?? []) as [
          string,
          { search?: string; limit?: number; offset?: number }?,
        ];
        w.__listTraffic?.push({
          kind: 'ask',
          at: performance.now(),
          seq: m.seq,
          entity,
          search: query?.search,
          limit: query?.limit ?? -1,
          offset: query?.offset ?? 0,
        });
      }
      return (post as (...a: unknown[]) => void).call(this, message, ...rest);
    } as typeof Worker.prototype.postMessage;
    const data = Object.getOwnPropertyDescriptor(MessageEvent.prototype, 'data');
    Object.defineProperty(MessageEvent.prototype, 'data', {
      ...data,
      get(this: MessageEvent) {
        const value = data?.get?.call(this) as { type?: string; seq?: number } | undefined;
        if (this.target instanceof Worker && value?.type === 'answer' && typeof value.seq === 'number') {
          if (!answered.has(value.seq))
            w.__listTraffic?.push({ kind: 'answer', at: performance.now(), seq: value.seq });
          answered.add(value.seq);
        }
        return value;
      },
    });
  });
}

/** The traffic recorded since `recordListTraffic`. */
export async function listTraffic(page: Page): Promise<ListTraffic[]> {
  return page.evaluate(() => (window as unknown as { __listTraffic?: ListTraffic[] }).__listTraffic ?? []);
}
