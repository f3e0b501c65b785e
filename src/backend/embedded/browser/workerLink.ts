import type { BrowserBackend } from './browserBackendTypes.ts';
import {
  type Answer,
  fromWireError,
  type InitMessage,
  type Request,
  type TabMessage,
  type WorkerMessage,
} from './protocol.ts';
import { recordWorkerMarks } from './workerMarks.ts';

/**
 * The tab's end of the worker: sends `init` (once the first visit's snapshot, if any, has arrived),
 * then one `request` per call, and matches the answers to them by sequence number.
 */
export function workerLink(
  worker: Worker,
  init: InitMessage,
  options: {
    loadDataDir?: Blob | Promise<Blob | null | undefined>;
    onUpgradeProgress?: (line: string) => void;
  },
) {
  let leader = false;
  let seq = 0;
  const pending = new Map<number, (a: Answer) => void>();
  let fail: (e: unknown) => void = () => undefined;
  const ready = new Promise<BrowserBackend['schema']>((resolve, reject) => {
    fail = reject;
    worker.addEventListener('message', (event: MessageEvent<WorkerMessage>) => {
      const m = event.data;
      if (m.type === 'ready') {
        recordWorkerMarks(m.marks);
        resolve(m.schema);
      } else if (m.type === 'failed') reject(fromWireError(m.error));
      else if (m.type === 'leader') leader = true;
      else if (m.type === 'progress') options.onUpgradeProgress?.(m.line);
      else if (m.type === 'answer') {
        const done = pending.get(m.seq);
        pending.delete(m.seq);
        done?.(m.answer);
      }
    });
  });
  worker.addEventListener('error', (e) => {
    const error = new Error(`backend worker failed: ${e.message}`);
    fail(error);
    for (const [, done] of pending)
      done({
        ok: false,
        error: { code: 'UNAVAILABLE', params: {}, message: error.message },
        auth: [],
        changes: [],
      });
    pending.clear();
  });
  const send = (m: TabMessage) => worker.postMessage(m);
  // Calls made before the snapshot has arrived go after the `init` that carries it.
  let initDone = false;
  const initSent = Promise.resolve(options.loadDataDir)
    .catch(() => undefined)
    .then((blob) => {
      send(blob ? { ...init, loadDataDir: blob } : init);
      initDone = true;
    });
  /**
   * Sends `m` after the `init`: at once (in the caller's own task) when that went already. A
   * promise callback would run only after the render React queues in the same task, so a list
   * asked from a click would leave after that click's render instead of during it.
   */
  const sendAfterInit = (m: TabMessage) => {
    if (initDone) send(m);
    else void initSent.then(() => send(m));
  };

  const request = (r: Request, signal?: AbortSignal) =>
    new Promise<Answer>((resolve, reject) => {
      const n = ++seq;
      pending.set(n, resolve);
      sendAfterInit({ type: 'request', seq: n, request: r });
      // A read called off: its answer is not waited for, and the worker drops it unless it has
      // started (reads queue behind each other there, so a superseded search never delays the next).
      signal?.addEventListener(
        'abort',
        () => {
          if (!pending.delete(n)) return;
          sendAfterInit({ type: 'cancel', seq: n });
          reject(signal.reason);
        },
        { once: true },
      );
    });
  return { ready, request, isLeader: () => leader };
}
