import type { StorageEntry } from '@electric-sql/pglite/memfs-frontend';
import { MemfsFrontendFS } from '@electric-sql/pglite/memfs-frontend';
import { OpfsBackend } from '@electric-sql/pglite/memfs2opfs';

/** Files read at once while loading (each read is a round trip to the browser's storage). */
const READS_AT_ONCE = 32;

/**
 * PGlite's OPFS mirror (`memfs2opfs://`), loading faster: its own loader reads the data
 * directory's ~1,000 files one after another; this one lists every folder first, then reads the
 * files `READS_AT_ONCE` at a time. Writes are PGlite's: each sync writes the byte ranges Postgres
 * changed, so a one-row write to a 100,000-row table does not rewrite the table's files.
 */
class ConcurrentOpfsBackend extends OpfsBackend {
  override load(): AsyncIterable<StorageEntry> {
    return loadConcurrently(this.dataDir);
  }
}

/**
 * The PGlite filesystem of an OPFS database kept in the folder `name`.
 *
 * @example
 * await PGlite.create({ fs: opfsStorage('ninefold-helpdesk') });
 */
export function opfsStorage(name: string): MemfsFrontendFS {
  return new MemfsFrontendFS(new ConcurrentOpfsBackend(name));
}

async function* loadConcurrently(name: string): AsyncGenerator<StorageEntry> {
  const root = await (await navigator.storage.getDirectory()).getDirectoryHandle(name, { create: true });
  const dirs: string[] = [];
  const files: { path: string; handle: FileSystemFileHandle }[] = [];
  await listTree(root, '', dirs, files);
  // Parents before their children: `listTree` adds a folder before anything inside it.
  for (const path of dirs) yield { kind: 'dir', path };
  const read = async ({ path, handle }: { path: string; handle: FileSystemFileHandle }) => {
    const file = await handle.getFile();
    return {
      kind: 'file',
      path,
      data: new Uint8Array(await file.arrayBuffer()),
      mtime: file.lastModified,
    } as const;
  };
  for (let i = 0; i < files.length; i += READS_AT_ONCE)
    yield* await Promise.all(files.slice(i, i + READS_AT_ONCE).map(read));
}

async function listTree(
  dir: FileSystemDirectoryHandle,
  path: string,
  dirs: string[],
  files: { path: string; handle: FileSystemFileHandle }[],
): Promise<void> {
  const below: Promise<void>[] = [];
  for await (const handle of (dir as unknown as { values(): AsyncIterable<FileSystemHandle> }).values()) {
    const child = `${path}/${handle.name}`;
    if (handle.kind === 'directory') {
      dirs.push(child);
      below.push(listTree(handle as FileSystemDirectoryHandle, child, dirs, files));
    } else files.push({ path: child, handle: handle as FileSystemFileHandle });
  }
  await Promise.all(below);
}
