import { describe, expect, it } from 'vitest';
import { snapshotPrefetchScript } from './snapshotPlugin.ts';

/** Runs the inline script against stand-ins for the page's globals; returns what it left and fetched. */
async function run(search: string, databases: string[], opfs: Record<string, number> = {}) {
  const fetched: string[] = [];
  const window: { __ninefoldSnapshot?: Promise<unknown> } = {};
  const script = snapshotPrefetchScript('/assets/ninefold-app-1234.tar.gz', '/pglite/ninefold-app');
  // OPFS as the script reads it: folder → size of its global/pg_control (absent folder: NotFoundError).
  const storage = {
    getDirectory: async () => ({
      getDirectoryHandle: async (name: string) => {
        const size = opfs[name];
        if (size === undefined) throw new Error('NotFoundError');
        return {
          getDirectoryHandle: async (sub: string) => {
            if (sub !== 'global') throw new Error('NotFoundError');
            return {
              getFileHandle: async (file: string) => {
                if (file !== 'pg_control') throw new Error('NotFoundError');
                return { getFile: async () => ({ size }) };
              },
            };
          },
        };
      },
    }),
  };
  new Function('window', 'location', 'indexedDB', 'fetch', 'navigator', script)(
    window,
    { search },
    { databases: async () => databases.map((name) => ({ name })) },
    async (url: string) => {
      fetched.push(url);
      return { ok: true, blob: async () => 'the snapshot' };
    },
    { storage },
  );
  return { result: await window.__ninefoldSnapshot, fetched };
}

describe('snapshotPrefetchScript', () => {
  it('downloads the snapshot on a first visit', async () => {
    expect(await run('', ['other'])).toEqual({
      result: 'the snapshot',
      fetched: ['/assets/ninefold-app-1234.tar.gz'],
    });
  });

  it('does not download it when the database exists in OPFS', async () => {
    expect(await run('', [], { 'ninefold-app': 4096 })).toEqual({ result: null, fetched: [] });
  });

  it('downloads it when the OPFS folder has no database (empty state file) or another app', async () => {
    const fetched = ['/assets/ninefold-app-1234.tar.gz'];
    expect(await run('', [], { 'ninefold-app': 0 })).toEqual({ result: 'the snapshot', fetched });
    expect(await run('', [], { 'ninefold-other': 4096 })).toEqual({ result: 'the snapshot', fetched });
  });

  it('does not download it when the database exists, or with ?memory', async () => {
    expect(await run('', ['/pglite/ninefold-app'])).toEqual({ result: null, fetched: [] });
    expect(await run('?memory&test', [])).toEqual({ result: null, fetched: [] });
  });
});
