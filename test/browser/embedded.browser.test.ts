import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPage, CHROMIUM, CHROMIUM_ARGS, serveStatic } from './testPage.ts';

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium && process.env.CI !== 'true') {
  console.log(`browser tests skipped: ${CHROMIUM} not found (apt-get install -y chromium)`);
}

/** What the test page puts on `window`. */
type Nf = {
  ready: Promise<{
    backend: import('../../src/backend/embedded/browser/createBrowserBackend.ts').BrowserBackend;
    bootMs: number;
  }>;
  changes: { entity: string; id: string; kind: string }[];
};
declare const nf: Nf;

describe.runIf(hasChromium || process.env.CI === 'true')(
  'embedded backend in Chromium (worker + IndexedDB)',
  // Each test opens databases from the snapshot (IndexedDB writes of a whole data directory): on a
  // loaded 2-core machine that alone took over a minute, so the ceiling is above the default.
  { timeout: 300_000 },
  () => {
    let dir = '';
    let server: { url: string; close: () => Promise<void> };
    let browser: Browser;
    let context: BrowserContext;

    beforeAll(async () => {
      dir = await buildTestPage();
      server = await serveStatic(dir);
      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      context = await browser.newContext();
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    const open = async (db: string): Promise<Page> => {
      const page = await context.newPage();
      page.on('pageerror', (e) => console.error('page error:', e.message));
      await page.goto(`${server.url}?db=${encodeURIComponent(db)}`);
      await page.evaluate(() => nf.ready.then(() => undefined));
      return page;
    };

    it('issue 29: loadBackend runs PGlite in the app’s worker, not in the page', async () => {
      const page = await open('idb://ninefold-load-backend');
      const seen = await page.evaluate(async () => {
        const { backend } = await nf.ready;
        return {
          // Only the tab's side of the worker's backend answers who leads.
          tabSide: typeof backend.isLeader === 'function',
          leader: backend.isLeader(),
          // The page itself fetched no PGlite (its wasm and data are the worker's downloads).
          pageFetchedPglite: performance
            .getEntriesByType('resource')
            .some((e) => /pglite|\.wasm$|\.data$/.test(e.name)),
          answers: (await backend.auth.session()) === null,
        };
      });
      expect(seen).toEqual({ tabSide: true, leader: true, pageFetchedPglite: false, answers: true });
      await page.close();
    });

    it('keeps data and the session across a reload', async () => {
      const page = await open('idb://ninefold-reload');
      const id = await page.evaluate(async () => {
        const { backend } = await nf.ready;
        await backend.auth.signUp({ email: 'reload@example.test', password: 'correct-horse' });
        const t = await backend.data.create('ticket', {
          title: 'Survives a reload',
          description: 'x'.repeat(30),
        });
        return t.id;
      });
      await page.reload();
      const after = await page.evaluate(async (ticketId) => {
        const { backend } = await nf.ready;
        const session = await backend.auth.session();
        const t = await backend.data.get('ticket', ticketId);
        return { email: session?.user.email, title: t.title, outcome: backend.schema.outcome };
      }, id);
      expect(after).toEqual({
        email: 'reload@example.test',
        title: 'Survives a reload',
        outcome: 'unchanged',
      });
      await page.close();
    });

    it('keeps data across a reload in OPFS (preferOpfs), not in IndexedDB', async () => {
      const page = await context.newPage();
      page.on('pageerror', (e) => console.error('page error:', e.message));
      await page.goto(`${server.url}?db=${encodeURIComponent('idb://ninefold-opfs')}&opfs=1`);
      const id = await page.evaluate(async () => {
        const { backend } = await nf.ready;
        await backend.auth.signUp({ email: 'opfs@example.test', password: 'correct-horse' });
        return (await backend.data.create('ticket', { title: 'Kept in OPFS', description: 'x'.repeat(30) }))
          .id;
      });
      await page.reload();
      const after = await page.evaluate(async (ticketId) => {
        const { backend } = await nf.ready;
        const t = await backend.data.get('ticket', ticketId);
        const root = await navigator.storage.getDirectory();
        const inOpfs = await root
          .getDirectoryHandle('ninefold-opfs')
          .then(() => true)
          .catch(() => false);
        const inIndexedDb = (await indexedDB.databases()).some((d) => d.name === '/pglite/ninefold-opfs');
        return { email: (await backend.auth.session())?.user.email, title: t.title, inOpfs, inIndexedDb };
      }, id);
      expect(after).toEqual({
        email: 'opfs@example.test',
        title: 'Kept in OPFS',
        inOpfs: true,
        inIndexedDb: false,
      });
      await page.close();
    });

    it('shares one database between two tabs, with live changes across them', async () => {
      const a = await open('idb://ninefold-tabs');
      const b = await open('idb://ninefold-tabs');
      const id = await a.evaluate(async () => {
        const { backend } = await nf.ready;
        await backend.auth.signUp({ email: 'tabs@example.test', password: 'correct-horse' });
        return (await backend.data.create('ticket', { title: 'Made in tab A', description: 'x'.repeat(30) }))
          .id;
      });
      // Tab B shares the session (localStorage) and the database (the leader's worker).
      const seen = await b.evaluate(async (ticketId) => {
        const { backend } = await nf.ready;
        const t = await backend.data.get('ticket', ticketId);
        // Wait for the live change rather than a fixed delay: under load it can take seconds.
        const live = () => nf.changes.some((c) => c.id === ticketId && c.kind === 'insert');
        for (let waited = 0; !live() && waited < 15_000; waited += 100) {
          await new Promise((r) => setTimeout(r, 100));
        }
        return { title: t.title, live: live() };
      }, id);
      expect(seen).toEqual({ title: 'Made in tab A', live: true });
      // The leader tab learns it leads by a message from its worker; under load that can lag the
      // first queries, so wait for the election to settle, then there must be exactly one.
      const leaderCount = async () =>
        (
          await Promise.all([a, b].map((p) => p.evaluate(async () => (await nf.ready).backend.isLeader())))
        ).filter(Boolean).length;
      let leaders = await leaderCount();
      for (let waited = 0; leaders === 0 && waited < 15_000; waited += 250) {
        await new Promise((r) => setTimeout(r, 250));
        leaders = await leaderCount();
      }
      expect(leaders).toBe(1);
      await a.close();
      await b.close();
    });

    it('carries on when the leader tab closes', async () => {
      const first = await open('idb://ninefold-leader');
      const second = await open('idb://ninefold-leader');
      expect(await first.evaluate(async () => (await nf.ready).backend.isLeader())).toBe(true);
      await first.evaluate(async () => {
        const { backend } = await nf.ready;
        await backend.auth.signUp({ email: 'leader@example.test', password: 'correct-horse' });
        await backend.data.create('ticket', { title: 'Before the leader left', description: 'x'.repeat(30) });
      });
      await first.close();
      const result = await second.evaluate(async () => {
        const { backend } = await nf.ready;
        // The first query after the change may fail while the new leader opens the database.
        for (let i = 0; i < 20; i++) {
          try {
            await backend.data.create('ticket', {
              title: 'After the leader left',
              description: 'x'.repeat(30),
            });
            const list = await backend.data.list('ticket', {
              sort: [{ field: 'createdAt', direction: 'asc' }],
            });
            return { titles: list.rows.map((r) => r.title), leader: backend.isLeader() };
          } catch {
            await new Promise((r) => setTimeout(r, 250));
          }
        }
        return null;
      });
      expect(result).toEqual({ titles: ['Before the leader left', 'After the leader left'], leader: true });
      await second.close();
    });

    it('drops a list called off while it waits in the worker, and keeps the rest in order', async () => {
      const page = await open('idb://ninefold-called-off');
      const result = await page.evaluate(async () => {
        const { backend } = await nf.ready;
        await backend.auth.signUp({ email: 'called-off@example.test', password: 'correct-horse' });
        await backend.data.create('ticket', { title: 'Kept for the search', description: 'x'.repeat(30) });
        const off = new AbortController();
        // The first read holds the worker's queue; the second waits behind it and is called off.
        const first = backend.data.list('ticket', { search: 'kept' });
        const second = backend.data.list('ticket', { search: 'never asked' }, { signal: off.signal });
        off.abort();
        const third = backend.data.list('ticket', { limit: 0 });
        const outcome = (p: Promise<{ total: number | null }>) =>
          p.then(
            (r) => `total ${r.total}`,
            (e: Error) => e.name,
          );
        return Promise.all([outcome(first), outcome(second), outcome(third)]);
      });
      expect(result).toEqual(['total 1', 'AbortError', 'total 1']);
      await page.close();
    });
  },
);
