import { describe, expect, it } from 'vitest';
import { snapshotPrefetchScript } from './snapshotPlugin.ts';

/** Runs the inline script against stand-ins for the page's globals; returns what it left and fetched. */
async function run(search: string, databases: string[]) {
  const fetched: string[] = [];
  const window: { __ninefoldSnapshot?: Promise<unknown> } = {};
  const script = snapshotPrefetchScript('/assets/ninefold-app-1234.tar.gz', '/pglite/ninefold-app');
  new Function('window', 'location', 'indexedDB', 'fetch', script)(
    window,
    { search },
    { databases: async () => databases.map((name) => ({ name })) },
    async (url: string) => {
      fetched.push(url);
      return { ok: true, blob: async () => 'the snapshot' };
    },
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

  it('does not download it when the database exists, or with ?memory', async () => {
    expect(await run('', ['/pglite/ninefold-app'])).toEqual({ result: null, fetched: [] });
    expect(await run('?memory&test', [])).toEqual({ result: null, fetched: [] });
  });
});
