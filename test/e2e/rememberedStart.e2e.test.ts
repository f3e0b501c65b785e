import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { appSlug } from '../../src/backend/embedded/browser/startBackendWorker.ts';
import { ui } from '../../src/runtime/uiText.ts';
import {
  appWithFreshProfiles,
  blankPage,
  e2eAvailable,
  holdDatabase,
  newPage,
  openDefault,
  openTicketsAsAgent,
  signInAsDemo,
  step,
  switchDemo,
} from './harness.ts';

/**
 * A return visit in the shipped mode (worker, IndexedDB) shows the list the person saw last before
 * the database is open, then the database's answer (src/runtime/rememberedStart.ts). To make "before
 * the database is open" certain rather than a race, a blank page of the same origin holds the
 * backend's leader lock while the app loads: the app's worker cannot open the database until the
 * test lets go.
 */
describe.skipIf(!e2eAvailable)('a return visit starts from what the person saw last', () => {
  const suite = appWithFreshProfiles('examples/helpdesk');
  const { fresh } = suite;
  let slug = '';
  beforeAll(() => {
    slug = appSlug(suite.e2e.spec);
  });

  const hold = (context: BrowserContext) => holdDatabase(context, suite.e2e.url, slug);

  const firstRowText = (page: Page) => page.locator('main tbody tr a').first().textContent();
  const remembered = (page: Page) =>
    page.evaluate((key) => localStorage.getItem(key), `ninefold-${slug}-start`);

  it('paints the remembered rows while the database is closed, then the database’s rows', async () => {
    const context = await fresh();
    const { page: first, errors } = await newPage(context);
    let title = '';
    await step(first, 'remembered-first-visit', async () => {
      title = await openTicketsAsAgent(first, suite.e2e.url);
      await expect.poll(() => remembered(first), { timeout: 10_000 }).toContain(JSON.stringify(title));
      // The worker waited for the sign-in screen, drawn without the database, before its own heavy
      // start (src/backend/embedded/browser/workerHold.ts): released after the UI's chunk loaded.
      const [released = -1, uiLoaded = -1] = await first.evaluate(() =>
        ['ninefold:worker:released', 'ninefold:ui-loaded'].map(
          (name) => performance.getEntriesByName(name)[0]?.startTime ?? -1,
        ),
      );
      expect(uiLoaded).toBeGreaterThan(0);
      expect(released).toBeGreaterThan(uiLoaded);
      // Closed first: leaving keeps what is shown again (answers that came after the first save,
      // such as the rows its cells name, asked after the first list), which would undo the mark.
      await first.close();
      // What this device kept is shown next time: mark its first row so the test can tell it
      // from the database's (which still says `title`).
      const editor = await blankPage(context, suite.e2e.url);
      await editor.evaluate(
        ([key, old]) => {
          const stored = JSON.parse(localStorage.getItem(key) ?? 'null');
          for (const q of stored.queries)
            for (const row of q.state.data?.rows ?? []) if (row.title === old) row.title = 'Remembered title';
          localStorage.setItem(key, JSON.stringify(stored));
        },
        [`ninefold-${slug}-start`, title] as const,
      );
      await editor.close();
    });
    expect(title).not.toBe('');
    const held = await hold(context);
    const { page, errors: again } = await newPage(context);
    await step(page, 'remembered-return-visit', async () => {
      await page.goto(`${suite.e2e.url}/tickets`);
      // Shown while the database cannot open (its lock is held), so it can only be what was kept.
      await expect.poll(() => firstRowText(page), { timeout: 60_000 }).toBe('Remembered title');
      expect(await page.evaluate(() => performance.getEntriesByName('ninefold:backend-ready').length)).toBe(
        0,
      );
      await held.release();
      // The database's answer replaces it.
      await expect.poll(() => firstRowText(page), { timeout: 120_000 }).toBe(title);
      await expect
        .poll(() => page.evaluate(() => performance.getEntriesByName('ninefold:backend-ready').length))
        .toBe(1);
      // The worker waited for the remembered screen's code before its own heavy start
      // (src/backend/embedded/browser/workerHold.ts): released after the UI's chunk had loaded.
      const [released = -1, uiLoaded = -1] = await page.evaluate(() =>
        ['ninefold:worker:released', 'ninefold:ui-loaded'].map(
          (name) => performance.getEntriesByName(name)[0]?.startTime ?? -1,
        ),
      );
      expect(uiLoaded).toBeGreaterThan(0);
      expect(released).toBeGreaterThan(uiLoaded);
    });
    expect([...errors, ...again]).toEqual([]);
  }, 400_000);

  it('answers the first "Next page" from the page it read ahead while the database is closed', async () => {
    const context = await fresh();
    const { page: first, errors } = await newPage(context);
    await step(first, 'remembered-next-first-visit', async () => {
      await openTicketsAsAgent(first, suite.e2e.url);
      // The second page, read ahead while the first is read, is kept with it (on leaving).
      await first.waitForTimeout(1_000);
      await first.close();
    });
    const held = await hold(context);
    const { page, errors: again } = await newPage(context);
    await step(page, 'remembered-next-return-visit', async () => {
      await page.goto(`${suite.e2e.url}/tickets`);
      await expect.poll(() => firstRowText(page), { timeout: 60_000 }).not.toBeNull();
      const before = await firstRowText(page);
      await page.getByRole('button', { name: ui('nextPage') }).click();
      // Another page's rows while the database cannot open: the ones kept from the last visit.
      await expect.poll(() => firstRowText(page), { timeout: 10_000 }).not.toBe(before);
      // (Polled: a list's address is written into the history once its rows have drawn.)
      await expect.poll(() => page.url()).toContain('page=2');
      expect(await page.evaluate(() => performance.getEntriesByName('ninefold:backend-ready').length)).toBe(
        0,
      );
      await held.release();
      await expect
        .poll(() => page.evaluate(() => performance.getEntriesByName('ninefold:backend-ready').length), {
          timeout: 120_000,
        })
        .toBe(1);
    });
    expect([...errors, ...again]).toEqual([]);
  }, 400_000);

  it('shows the sign-in screen before the database opens, and forgets the list on sign-out', async () => {
    const context = await fresh();
    const { page, errors } = await newPage(context);
    await step(page, 'remembered-sign-out', async () => {
      await openDefault(page, suite.e2e.url);
      await signInAsDemo(page, 'Agent');
      await expect.poll(() => remembered(page), { timeout: 10_000 }).not.toBeNull();
      await page.getByRole('button', { name: /^Signed in as/ }).click();
      await page.getByRole('menuitem', { name: ui('signOut') }).click();
      await page
        .getByRole('button', { name: /^Agent/ })
        .first()
        .waitFor();
      expect(await remembered(page)).toBeNull();
      await page.close();
    });
    const held = await hold(context);
    const { page: again, errors: againErrors } = await newPage(context);
    await step(again, 'remembered-signed-out-return', async () => {
      await again.goto(`${suite.e2e.url}/tickets`);
      // Nobody is signed in: the sign-in screen needs no data and shows with the database closed.
      await again
        .getByRole('button', { name: /^Agent/ })
        .first()
        .waitFor({ timeout: 60_000 });
      expect(await again.evaluate(() => performance.getEntriesByName('ninefold:backend-ready').length)).toBe(
        0,
      );
      // A click waits for the database, then signs in.
      await again
        .getByRole('button', { name: /^Agent/ })
        .first()
        .click();
      await held.release();
      await again.getByRole('navigation').first().waitFor({ timeout: 120_000 });
    });
    expect([...errors, ...againErrors]).toEqual([]);
  }, 400_000);

  it('never shows one person’s remembered list to the next', async () => {
    const context = await fresh();
    const { page, errors } = await newPage(context);
    await step(page, 'remembered-switch', async () => {
      await openDefault(page, suite.e2e.url);
      await signInAsDemo(page, 'Agent');
      await expect.poll(() => remembered(page), { timeout: 10_000 }).toContain('agent@demo.test');
      await switchDemo(page, 'Customer');
      // The agent's list is forgotten at once, the customer's kept once it has arrived.
      await expect.poll(() => remembered(page), { timeout: 20_000 }).not.toContain('agent@demo.test');
      await expect.poll(() => remembered(page), { timeout: 20_000 }).toContain('customer@demo.test');
    });
    expect(errors).toEqual([]);
  }, 400_000);
});
