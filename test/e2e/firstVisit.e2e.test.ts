import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { appSlug } from '../../src/backend/embedded/browser/startBackendWorker.ts';
import {
  appWithFreshProfiles,
  blankPage,
  e2eAvailable,
  holdDatabase,
  newPage,
  openDefault,
  signInAsDemo,
  step,
} from './harness.ts';

/**
 * A first visit in the shipped mode (worker, IndexedDB): a demo click shows that account's first
 * screens before the database exists (worked out at build time on the snapshot,
 * src/react/demoScreens.ts), and a page left before the database was stored loses nothing: the
 * next visit signs the clicked account in again and the database is made from the snapshot, not
 * left empty.
 */
describe.skipIf(!e2eAvailable)('a first visit', () => {
  const suite = appWithFreshProfiles('examples/helpdesk');
  const { fresh } = suite;
  let slug = '';
  beforeAll(() => {
    slug = appSlug(suite.e2e.spec);
  });

  const ticketRows = (page: Page) => page.locator('main tbody tr a').count();
  const backendReady = (page: Page) =>
    page.evaluate(() => performance.getEntriesByName('ninefold:backend-ready').length);
  const session = (page: Page) => page.evaluate(() => document.documentElement.dataset.ninefoldSession);

  it('shows a demo account’s first screen at the click, and signs it in again after the page is left', async () => {
    const context = await fresh();
    // The database cannot open while a blank page of the origin holds its lock: everything shown
    // before the release came from the build, not from the database.
    const held = await holdDatabase(context, suite.e2e.url, slug);
    const { page, errors } = await newPage(context);
    await step(page, 'first-visit-demo-click', async () => {
      await page.goto(`${suite.e2e.url}/tickets`);
      await page
        .getByRole('button', { name: /^Agent/ })
        .first()
        .click({ timeout: 60_000 });
      await expect.poll(() => ticketRows(page), { timeout: 60_000 }).toBeGreaterThan(0);
      expect(await backendReady(page)).toBe(0);
      expect(await session(page)).toBe('provisional');
      // Left before the database could even open.
      await page.close();
    });
    const { page: again, errors: againErrors } = await newPage(context);
    await step(again, 'first-visit-demo-resumed', async () => {
      await again.goto(`${suite.e2e.url}/tickets`);
      // Still the agent, with the same rows, and still before the database.
      await expect.poll(() => ticketRows(again), { timeout: 60_000 }).toBeGreaterThan(0);
      expect(await again.getByRole('button', { name: /^Agent/ }).count()).toBe(0);
      expect(await backendReady(again)).toBe(0);
      await held.release();
      // The click is confirmed by the database once it is open.
      await again.waitForFunction(
        () =>
          document.documentElement.dataset.ninefoldSession === 'confirmed' &&
          document.documentElement.dataset.ninefoldUser === 'agent@demo.test',
        null,
        { timeout: 180_000 },
      );
      await expect.poll(() => ticketRows(again), { timeout: 60_000 }).toBeGreaterThan(0);
    });
    expect([...errors, ...againErrors]).toEqual([]);
  }, 400_000);

  it('makes the database from the snapshot when a first visit left it created but empty', async () => {
    const context = await fresh();
    // What a tab closed before the unpack's first sync leaves: PGlite's IndexedDB database (as
    // Emscripten's IDBFS creates it) with no files in it.
    const blank = await blankPage(context, suite.e2e.url);
    await blank.evaluate(
      (name) =>
        new Promise<void>((done, fail) => {
          const open = indexedDB.open(name, 21);
          open.onupgradeneeded = () =>
            open.result
              .createObjectStore('FILE_DATA')
              .createIndex('timestamp', 'timestamp', { unique: false });
          open.onsuccess = () => {
            open.result.close();
            done();
          };
          open.onerror = () => fail(open.error);
        }),
      `/pglite/ninefold-${slug}`,
    );
    await blank.close();
    const { page, errors } = await newPage(context);
    await step(page, 'first-visit-empty-database', async () => {
      await openDefault(page, suite.e2e.url);
      await signInAsDemo(page, 'Agent');
      await page.getByRole('navigation').getByRole('link', { name: 'Tickets', exact: true }).click();
      // The demo tickets are there: the snapshot was fetched again, not an empty initdb.
      await expect.poll(() => ticketRows(page), { timeout: 60_000 }).toBeGreaterThan(0);
      expect(
        await page.evaluate(() => performance.getEntriesByName('ninefold:worker:snapshot-refetched').length),
      ).toBe(1);
    });
    expect(errors).toEqual([]);
  }, 400_000);
});
