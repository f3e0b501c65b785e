/**
 * The snapshot the page's inline script (see `src/cli/snapshotPlugin.ts`) started downloading,
 * as PGliteWorker options: `{ loadDataDir }` on a first visit, `{}` on a return visit, with
 * `?memory`, or when the page has no such script (tests, other builds).
 *
 * @example
 * const db = await PGliteWorker.create(worker, { dataDir, ...(await firstVisitSnapshot()) });
 */
export async function firstVisitSnapshot(): Promise<{ loadDataDir?: Blob }> {
  const pending = (globalThis as { __ninefoldSnapshot?: Promise<Blob | null> }).__ninefoldSnapshot;
  const blob = pending ? await pending.catch(() => null) : null;
  return blob ? { loadDataDir: blob } : {};
}
