import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appSlug } from '../../src/runtime/appSlug.ts';
import { codeCacheKey } from '../../src/runtime/warmCodeCache.ts';
import { CHROMIUM, CHROMIUM_ARGS } from '../browser/testPage.ts';
import { appWithFreshProfiles, e2eAvailable, newPage, openDefault, step } from './harness.ts';

/**
 * The first visit to a build runs the start's scripts a second time in a worker once it is
 * idle (src/runtime/warmCodeCache.ts), so that Chromium keeps their compiled code for the next
 * visit. Built app, default storage, as a person gets it.
 */
describe.skipIf(!e2eAvailable)('a first visit keeps the start’s compiled code for the next', () => {
  const suite = appWithFreshProfiles('examples/helpdesk');

  /**
   * The scripts whose compiled code Chromium serialised for its code cache while `fn` ran (V8's
   * `v8.produceModuleCache` trace events, read over the DevTools protocol), by file name.
   */
  async function cachesProduced(
    context: BrowserContext,
    page: Page,
    fn: () => Promise<void>,
  ): Promise<string[]> {
    const cdp = await context.newCDPSession(page);
    const events: { name: string; args?: { data?: { url?: string; producedCacheSize?: number } } }[] = [];
    cdp.on('Tracing.dataCollected', (d) => events.push(...(d.value as unknown as typeof events)));
    await cdp.send('Tracing.start', { categories: 'v8,devtools.timeline', transferMode: 'ReportEvents' });
    await fn();
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await complete;
    await cdp.detach();
    return events
      .filter((e) => e.name === 'v8.produceModuleCache' && (e.args?.data?.producedCacheSize ?? 0) > 0)
      .map((e) => (e.args?.data?.url ?? '').replace(/^.*\//, ''));
  }

  /** The warm-up's outcome on this page: whether it ran the scripts (null until it has finished). */
  const warmUp = (page: Page) =>
    page.evaluate(() => {
      const mark = performance.getEntriesByName('ninefold:code-cache-warm-up')[0] as
        | PerformanceMark
        | undefined;
      return mark ? (mark.detail as { ran: boolean }).ran : null;
    });

  it('runs them once per build in a worker that starts no app of its own', async () => {
    // A profile on disk: an incognito context keeps no compiled code at all.
    const profile = await mkdtemp(join(tmpdir(), 'ninefold-code-cache-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 900 },
    });
    try {
      await visitTwice(context);
    } finally {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    }
  });

  async function visitTwice(context: BrowserContext): Promise<void> {
    const key = codeCacheKey(appSlug(suite.e2e.spec));
    const { page, errors } = await newPage(context);
    // The page's workers as they start, and whether each has stopped since.
    const workers: { url: string; closed: boolean }[] = [];
    const watchWorkers = (p: Page) =>
      p.on('worker', (w) => {
        const seen = { url: w.url(), closed: false };
        workers.push(seen);
        w.on('close', () => {
          seen.closed = true;
        });
      });
    watchWorkers(page);
    let warmed: string[] = [];
    await step(page, 'code-cache-first-visit', async () => {
      await openDefault(page, suite.e2e.url);
      // The worker's run is the scripts' second: Chromium serialises their compiled code.
      warmed = await cachesProduced(context, page, () =>
        expect.poll(() => warmUp(page), { timeout: 30_000 }).toBe(true),
      );
      const entry = await page.evaluate(() =>
        document.querySelector('script[type="module"][src]')?.getAttribute('src'),
      );
      expect(entry).toMatch(/^\/assets\/index-[\w-]+\.js$/);
      expect(await page.evaluate((k) => localStorage.getItem(k), key)).toBe(entry);
      // The backend's worker, and the warm-up's, stopped once it has run; the entry it ran started
      // no app (and no backend worker of its own) there.
      await expect
        .poll(() => workers.filter((w) => w.url.startsWith('blob:')).map((w) => w.closed))
        .toEqual([true]);
      expect(
        workers.filter((w) => !w.url.startsWith('blob:')).map((w) => w.url.replace(/^.*\//, '')),
      ).toEqual([expect.stringMatching(/^backendWorker-[\w-]+\.js$/)]);
      expect(await page.getByRole('heading', { level: 1 }).count()).toBeGreaterThan(0);
      expect(warmed).toContain(entry?.replace(/^.*\//, ''));
      expect(warmed.some((f) => f.startsWith('firstScreen-'))).toBe(true);
      // A chunk the page imported after its start (the sign-in screen's), not named in the HTML.
      expect(warmed.some((f) => f.startsWith('AuthScreen-'))).toBe(true);
      // The page's network settles (a frame added for the warm-up left Playwright's wait hanging).
      await page.waitForLoadState('networkidle', { timeout: 5_000 });
    });
    await page.close();
    const { page: again, errors: againErrors } = await newPage(context);
    workers.length = 0;
    watchWorkers(again);
    await step(again, 'code-cache-return-visit', async () => {
      // The next visit is their third run: it reads the compiled code and serialises none of them.
      const produced = await cachesProduced(context, again, () => openDefault(again, suite.e2e.url));
      expect(produced.filter((f) => warmed.includes(f))).toEqual([]);
      await expect.poll(() => warmUp(again), { timeout: 30_000 }).toBe(false);
      // No warm-up: the build's scripts ran twice already.
      expect(workers.filter((w) => w.url.startsWith('blob:'))).toEqual([]);
    });
    expect(errors).toEqual([]);
    expect(againErrors).toEqual([]);
  }
});
