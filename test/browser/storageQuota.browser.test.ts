import { existsSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserHarness, bootedIn, type Nf, startBrowserHarness } from './pageBackend.ts';
import { CHROMIUM } from './testPage.ts';

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium && process.env.CI !== 'true') {
  console.log(`storage-quota browser test skipped: ${CHROMIUM} not found (apt-get install -y chromium)`);
}

declare const nf: Nf;

/** Chromium's quota for the test origin: the booted database plus a few large files. */
const QUOTA_MB = 40;

/** Uploads `mb` MB of random bytes (incompressible) to a new attachment; the outcome as data. */
const uploadRandom = (page: Page, ticket: string, mb: number) =>
  page.evaluate(
    async ([ticketId, size]) => {
      const { backend } = await nf.ready;
      const bytes = new Uint8Array(size);
      for (let i = 0; i < size; i += 65536) crypto.getRandomValues(bytes.subarray(i, i + 65536));
      try {
        const f = await backend.files.upload('attachment', {
          values: { ticket: ticketId },
          name: 'big.bin',
          type: 'application/octet-stream',
          bytes,
        });
        return { ok: true as const, id: f.id };
      } catch (e) {
        const cause = (e as { cause?: { name?: string; message?: string } }).cause;
        return {
          ok: false as const,
          code: (e as { code?: string }).code,
          cause: `${cause?.name}: ${cause?.message}`,
        };
      }
    },
    [ticket, Math.round(mb * 1048576)] as const,
  );

/** What the tab sees: its ticket titles and attachment names (as that user). */
const visible = (page: Page) =>
  page.evaluate(async () => {
    const { backend } = await nf.ready;
    const tickets = await backend.data.list('ticket', { sort: [{ field: 'createdAt', direction: 'asc' }] });
    const files = await backend.data.list('attachment', { sort: [{ field: 'createdAt', direction: 'asc' }] });
    return { tickets: tickets.rows.map((r) => r.title), files: files.rows.map((r) => r.name) };
  });

/**
 * Storage quota exceeded: Chromium's quota for the origin is lowered (DevTools protocol
 * `Storage.overrideQuotaForOrigin`) to a little above what the database already uses, then a
 * large file is uploaded. The upload fails with the catalogue's STORAGE_FULL (not INTERNAL), and
 * after the quota is back the database opens with the earlier data intact.
 */
describe.runIf(hasChromium || process.env.CI === 'true')('storage quota exceeded', () => {
  let harness: BrowserHarness;
  let context: BrowserContext;
  beforeAll(async () => {
    harness = await startBrowserHarness();
    context = await harness.browser.newContext();
  }, 180_000);
  afterAll(async () => {
    await harness?.close();
  });

  it('large uploads until the quota is hit: STORAGE_FULL, and the database still opens with the earlier data', async () => {
    const db = 'idb://ninefold-quota';
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error('page error:', e.message));
    // Chromium applies the override only to an origin that has no storage yet (checked: set after
    // the first IndexedDB write, it is silently ignored), so it is set before the first visit.
    const origin = new URL(harness.url).origin;
    const cdp = await context.newCDPSession(page);
    await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: QUOTA_MB * 1048576 });
    await page.goto(`${harness.url}?db=${encodeURIComponent(db)}`);
    await bootedIn(page);
    const ticket = await page.evaluate(async () => {
      const { backend } = await nf.ready;
      await backend.auth.signUp({ email: 'quota@example.test', password: 'correct-horse' });
      const t = await backend.data.create('ticket', {
        title: 'Before the quota',
        description: 'x'.repeat(30),
      });
      await backend.files.upload('attachment', {
        values: { ticket: t.id },
        name: 'small.txt',
        type: 'text/plain',
        bytes: new TextEncoder().encode('fits easily'),
      });
      return t.id;
    });
    const usage = await page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
    let failure: Awaited<ReturnType<typeof uploadRandom>> | undefined;
    let stored = 0;
    for (let i = 0; i < 8 && !failure; i++) {
      const r = await uploadRandom(page, ticket, 8);
      if (r.ok) stored += 1;
      else failure = r;
    }
    console.log(
      `quota ${QUOTA_MB} MB, usage after boot ${(usage / 1048576).toFixed(1)} MB, 8 MB uploads stored before the failure: ${stored}, failure: ${JSON.stringify(failure)}`,
    );
    expect(failure).toMatchObject({ ok: false, code: 'STORAGE_FULL' });
    const expected = {
      tickets: ['Before the quota'],
      files: ['small.txt', ...Array.from({ length: stored }, () => 'big.bin')],
    };
    // The tab keeps working for reads. Known limit: the failure comes from the IndexedDB sync after
    // COMMIT, so until the tab reloads its database may still show the write it reported as failed.
    const inTab = await visible(page);
    expect(inTab.tickets).toEqual(expected.tickets);
    expect(inTab.files.slice(0, expected.files.length)).toEqual(expected.files);
    console.log(`files this tab shows after STORAGE_FULL: ${inTab.files.join(', ')}`);
    await page.close();

    const again = await harness.open(db, context);
    expect(await visible(again)).toEqual(expected);
    // Room is made by removing a file; then a small write is stored again.
    const after = await again.evaluate(async () => {
      const { backend } = await nf.ready;
      const big = (await backend.data.list('attachment')).rows.find((r) => r.name === 'big.bin');
      if (big) await backend.files.remove('attachment', big.id);
      await backend.data.create('ticket', { title: 'After the quota', description: 'x'.repeat(30) });
      return (await backend.data.list('ticket')).total;
    });
    expect(after).toBe(2);
    await again.close();
  }, 90_000);
});
