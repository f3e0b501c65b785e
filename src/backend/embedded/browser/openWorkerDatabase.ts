import { PGlite } from '@electric-sql/pglite';
import { pgliteExtensions } from '../pgliteExtensions.ts';
import { pgliteSettings } from '../pgliteSettings.ts';
import { snapshotBlob } from '../snapshotBlob.ts';
import { databaseExists, databaseHoldsFiles, OPFS } from './databaseExists.ts';
import { opfsStorage } from './opfsStorage.ts';
import { prefetchPglite } from './prefetchPglite.ts';
import { syncOnlyWhenWritten } from './syncOnlyWhenWritten.ts';
import { markWorker } from './workerMarks.ts';

/** Where the leader's worker opens the database (serveBackend.ts). */
export interface WorkerDatabaseOptions {
  dataDir?: string;
  /**
   * Keep a new database in OPFS (PGlite's MEMFS mirrored to OPFS, `memfs2opfs://`) instead of
   * IndexedDB when the worker can (sync access handles): each sync writes the changed byte ranges,
   * not whole files. An existing IndexedDB database stays where it is.
   */
  preferOpfs?: boolean;
  /** A snapshot to create the database from; only used when the database does not exist yet. */
  loadDataDir?: Blob | File;
  /**
   * Where the snapshot is served: fetched when the database exists but holds no files. A first
   * visit's unpack reaches IndexedDB in one transaction at the first sync; a tab closed before it
   * leaves the database created and empty, and the next visit (which sees a database, so fetches
   * no snapshot) must not start from an empty initdb instead of the app's data.
   */
  snapshotUrl?: string;
}

/**
 * Opens the database in the leader's worker: from the snapshot on a first visit (no initdb, no
 * migration), else the existing IndexedDB database.
 *
 * @example
 * const db = await openWorkerDatabase({ dataDir: 'idb://ninefold-helpdesk' });
 */
export async function openWorkerDatabase(options: WorkerDatabaseOptions): Promise<PGlite> {
  const prefetched = prefetchPglite();
  const [pgliteWasmModule, fsBundle, dataDir] = await Promise.all([
    prefetched.wasm,
    prefetched.fsBundle,
    storageFor(options.dataDir ?? 'idb://ninefold', options.preferOpfs === true),
  ]);
  const base = {
    extensions: pgliteExtensions,
    startParams: [...PGlite.defaultStartParams, ...pgliteSettings],
    // Not `relaxedDurability`: with it the IndexedDB sync of one query overlaps the next query's
    // file changes, and in Chromium that ends in ErrnoError (test/browser caught it).
    ...(pgliteWasmModule ? { pgliteWasmModule } : {}),
    ...(fsBundle ? { fsBundle } : {}),
  };
  // Each attempt gets its own filesystem (an OPFS one holds state of its own).
  const storage = () =>
    dataDir.startsWith(OPFS) ? { fs: opfsStorage(dataDir.slice(OPFS.length)) } : { dataDir };
  // PGlite downloads initdb.wasm at every start unless it is handed one; it runs it only for a
  // new database without a snapshot. When there is a snapshot or the database already exists, it
  // gets an empty module instead (if initdb were needed after all, that fails and the plain
  // start below fetches the real one).
  const noInitdb = { initdbWasmModule: new WebAssembly.Module(EMPTY_WASM) };
  if (dataDir.startsWith(OPFS)) await opfsReady(dataDir.slice(OPFS.length));
  if (options.loadDataDir) {
    try {
      return syncOnlyWhenWritten(
        await PGlite.create({
          ...base,
          ...storage(),
          ...noInitdb,
          loadDataDir: await snapshotBlob(options.loadDataDir),
        }),
      );
    } catch (e) {
      // Another tab created the database between this tab's check and now: open that one.
      if (!String(e).includes('already exists')) throw e;
    }
  }
  if (await databaseExists(dataDir)) {
    if (await databaseHoldsFiles(dataDir)) {
      try {
        return syncOnlyWhenWritten(await PGlite.create({ ...base, ...storage(), ...noInitdb }));
      } catch {
        // Unreadable after all: its snapshot, else initdb (below).
      }
    }
    // A database without files (an interrupted first visit): its snapshot, else initdb. Not
    // opened first: PGlite's failed start (running an empty initdb) cost about a second before
    // the snapshot was fetched (the refetch's mark 3.1–3.7 s → 1.9–2.3 s after navigation).
    const snapshot = options.snapshotUrl ? await fetchSnapshot(options.snapshotUrl) : null;
    if (snapshot) {
      markWorker('snapshot-refetched');
      return syncOnlyWhenWritten(
        await PGlite.create({
          ...base,
          ...storage(),
          ...noInitdb,
          loadDataDir: await snapshotBlob(snapshot),
        }),
      );
    }
  }
  // initdb: it reads files the prefetched bundle of a build with a snapshot leaves out
  // (src/cli/pgliteDataPlugin.ts), so PGlite fetches its full bundle itself.
  const { fsBundle: _trimmed, ...full } = base;
  return syncOnlyWhenWritten(await PGlite.create({ ...full, ...storage() }));
}

/**
 * Readies the OPFS folder `name` for opening: a folder whose first sync was cut short (no
 * `global/pg_control`, written last) is removed, so the snapshot loads into an empty one; then
 * waits (up to 5 s) until no other worker holds its WAL: PGlite keeps a sync access handle
 * (exclusive) on the segments it last wrote, and the worker of a tab that just closed may release
 * them a moment after its leader lock. Probed before PGlite opens anything, so a failed open never
 * leaves handles of its own behind.
 */
async function opfsReady(name: string): Promise<void> {
  const root = await navigator.storage.getDirectory();
  let wal: FileSystemDirectoryHandle;
  try {
    wal = await (await root.getDirectoryHandle(name)).getDirectoryHandle('pg_wal');
  } catch {
    return; // No database yet.
  }
  if (!(await databaseExists(`${OPFS}${name}`))) {
    await root.removeEntry(name, { recursive: true });
    return;
  }
  const entries = (wal as unknown as { values(): AsyncIterable<FileSystemHandle> }).values();
  for await (const handle of entries) {
    if (handle.kind !== 'file') continue;
    const open = (handle as unknown as { createSyncAccessHandle(): Promise<{ close(): void }> })
      .createSyncAccessHandle;
    for (let waited = 0; waited < 5000; waited += 50) {
      try {
        (await open.call(handle)).close();
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  }
}

/** The snapshot, or null when it cannot be had (offline): then the database starts empty. */
async function fetchSnapshot(url: string): Promise<Blob | null> {
  try {
    const response = await fetch(url);
    return response.ok ? await response.blob() : null;
  } catch {
    return null;
  }
}

/** The smallest valid WebAssembly module (magic number and version). */
const EMPTY_WASM = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

/**
 * Where the database lives: `idb://x` as given, or `memfs2opfs://x` when OPFS is preferred, this
 * worker has sync access handles and no IndexedDB database `x` exists yet (its data stays there).
 */
async function storageFor(dataDir: string, preferOpfs: boolean): Promise<string> {
  if (!preferOpfs || !dataDir.startsWith('idb://')) return dataDir;
  if (
    typeof (globalThis as { FileSystemSyncAccessHandle?: unknown }).FileSystemSyncAccessHandle !== 'function'
  )
    return dataDir;
  if (await databaseExists(dataDir)) return dataDir;
  return `${OPFS}${dataDir.slice('idb://'.length)}`;
}
