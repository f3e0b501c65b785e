/**
 * Start-up marks of the backend's worker (script run, wasm compiled, code loaded, database open,
 * boot done…), kept here and sent to the tab with `ready`: the tab records them on its own
 * performance timeline as `ninefold:worker:<name>`, so a benchmark reads the whole start-up from
 * the page (the worker's timeline is not visible there). Times are absolute (ms since the epoch),
 * because the worker's time origin is not the page's.
 */
const marks: { name: string; at: number }[] = [];

/** Records a worker start-up mark (once per name). */
export function markWorker(name: string): void {
  if (marks.some((m) => m.name === name)) return;
  marks.push({ name, at: performance.timeOrigin + performance.now() });
}

/** The marks so far (sent with the `ready` message). */
export function workerMarks(): { name: string; at: number }[] {
  return [...marks];
}

/** The tab side: each worker mark on the page's timeline. */
export function recordWorkerMarks(list: readonly { name: string; at: number }[] | undefined): void {
  if (!list || typeof performance.mark !== 'function') return;
  for (const m of list) {
    try {
      performance.mark(`ninefold:worker:${m.name}`, {
        startTime: Math.max(0, m.at - performance.timeOrigin),
      });
    } catch {
      // A timeline that refuses marks (very old browsers) only loses the figures.
    }
  }
}
