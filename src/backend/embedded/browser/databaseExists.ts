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
  const name = `/pglite/${dataDir.slice('idb://'.length)}`;
  return (await indexedDB.databases()).some((d) => d.name === name);
}
