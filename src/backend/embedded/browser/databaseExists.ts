/** PGlite's MEMFS mirrored to an OPFS folder of the same name (opfsStorage.ts). */
export const OPFS = 'memfs2opfs://';

/**
 * Whether the database for `dataDir` exists: PGlite's IndexedDB database (`idb://x` is stored as
 * `/pglite/x`), or the OPFS folder `x` (`memfs2opfs://x`) with a non-empty `global/pg_control`
 * (written last of a sync, so a first sync cut short leaves none). No PGlite import: a page may
 * ask without loading the database engine.
 *
 * @example
 * await databaseExists('idb://ninefold-helpdesk'); // false on a first visit
 */
export async function databaseExists(dataDir: string): Promise<boolean> {
  if (dataDir.startsWith(OPFS)) {
    try {
      const root = await navigator.storage.getDirectory();
      const dir = await root.getDirectoryHandle(dataDir.slice(OPFS.length));
      const global = await dir.getDirectoryHandle('global');
      return (await (await global.getFileHandle('pg_control')).getFile()).size > 0;
    } catch {
      return false;
    }
  }
  if (!dataDir.startsWith('idb://') || !indexedDB.databases) return false;
  const name = idbName(dataDir);
  return (await indexedDB.databases()).some((d) => d.name === name);
}

/**
 * Whether an existing database holds a data directory. A first visit closed before its first
 * sync leaves PGlite's IndexedDB database made (its object store) but empty: no file, so no
 * `global/pg_control`. An OPFS folder counts only with that file already (databaseExists).
 *
 * @example
 * await databaseHoldsFiles('idb://ninefold-helpdesk'); // false after an interrupted first visit
 */
export async function databaseHoldsFiles(dataDir: string): Promise<boolean> {
  if (!dataDir.startsWith('idb://')) return true;
  const name = idbName(dataDir);
  return new Promise((resolve) => {
    const opened = indexedDB.open(name);
    // No such database: opening would make one; called off (onerror answers false).
    opened.onupgradeneeded = () => opened.transaction?.abort();
    opened.onerror = () => resolve(false);
    opened.onsuccess = () => {
      const db = opened.result;
      const done = (held: boolean) => {
        db.close();
        resolve(held);
      };
      if (!db.objectStoreNames.contains(IDB_STORE)) return done(false);
      const count = db.transaction(IDB_STORE).objectStore(IDB_STORE).count(`${name}/global/pg_control`);
      count.onsuccess = () => done(count.result > 0);
      count.onerror = () => done(false);
    };
  });
}

/** The object store Emscripten's IDBFS (PGlite's `idb://`) keeps every file in, keyed by path. */
const IDB_STORE = 'FILE_DATA';

/** PGlite stores `idb://x` in the IndexedDB database `/pglite/x` (Emscripten's IDBFS mount). */
const idbName = (dataDir: string): string => `/pglite/${dataDir.slice('idb://'.length)}`;
