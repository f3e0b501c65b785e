import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserHarness, type Nf, startBrowserHarness } from './pageBackend.ts';
import { CHROMIUM } from './testPage.ts';

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium && process.env.CI !== 'true') {
  console.log(`two-databases browser test skipped: ${CHROMIUM} not found (apt-get install -y chromium)`);
}

declare const nf: Nf;

/**
 * Two tabs of one profile on different databases (`dataDir`) at the same time: each tab's data
 * goes to its own database. The tabs elect a leader per database, not per app.
 */
describe.runIf(hasChromium || process.env.CI === 'true')(
  'two databases open in one profile',
  { timeout: 300_000 },
  () => {
    let harness: BrowserHarness;
    beforeAll(async () => {
      harness = await startBrowserHarness();
    }, 180_000);
    afterAll(async () => {
      await harness?.close();
    });

    it('keeps them apart', async () => {
      const context = await harness.browser.newContext();
      const a = await harness.open('idb://ninefold-apart-a', context);
      const b = await harness.open('idb://ninefold-apart-b', context);
      const emails = async () =>
        Promise.all(
          [a, b].map((p) =>
            p.evaluate(async () => {
              const { backend } = await nf.ready;
              const r = await backend.db.query<{ email: string }>(
                'select email from auth.users order by email',
              );
              return r.rows.map((u) => u.email);
            }),
          ),
        );
      await a.evaluate(async () => {
        const { backend } = await nf.ready;
        await backend.db.query(`insert into auth.users (email) values ('only-in-a@example.test')`);
      });
      expect(await emails()).toEqual([['only-in-a@example.test'], []]);
      await context.close();
    });
  },
);
