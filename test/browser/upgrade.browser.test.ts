/**
 * The embedded upgrade in Chromium: a profile whose database was created by version 1 of the spec
 * (worker + IndexedDB, as shipped) opens with version 2 (one more field), which upgrades the
 * database in place: the new column is there, with its default on the old rows, and every row kept.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserHarness, bootedIn, type Nf, startBrowserHarness } from './pageBackend.ts';
import { CHROMIUM } from './testPage.ts';

const hasChromium = existsSync(CHROMIUM);
type Win = { nf: Nf & { upgradeLines: string[] } };

describe.runIf(hasChromium || process.env.CI === 'true')('embedded upgrade in the browser', () => {
  let harness: BrowserHarness;
  beforeAll(async () => {
    harness = await startBrowserHarness();
  }, 600_000);
  afterAll(async () => {
    await harness?.close();
  });

  it('a database made with version 1 opens with version 2 and keeps its rows', async () => {
    const context = await harness.browser.newContext();
    const db = 'idb://ninefold-upgrade-test';
    const v1 = await harness.open(db, context);
    const before = await v1.evaluate(async () => {
      const { backend } = await (window as unknown as Win).nf.ready;
      await backend.asOwner(async (tx) => {
        await tx.query(`insert into public.category (name) values ('Kept one'), ('Kept two')`);
      });
      const r = await backend.db.query<{ id: string }>(
        'select id::text as id from public.category order by id',
      );
      return { outcome: backend.schema.outcome, ids: r.rows.map((x) => x.id) };
    });
    // Created here, or from the test page's schema snapshot (as an app's first visit is).
    expect(['created', 'unchanged']).toContain(before.outcome);
    expect(before.ids).toHaveLength(2);
    await v1.close();

    const v2 = await context.newPage();
    await v2.goto(`${harness.url}?db=${encodeURIComponent(db)}&spec=v2`);
    await bootedIn(v2);
    const after = await v2.evaluate(async () => {
      const { backend } = await (window as unknown as Win).nf.ready;
      const r = await backend.db.query<{ id: string; code: string }>(
        'select id::text as id, code from public.category order by id',
      );
      return {
        outcome: backend.schema.outcome,
        rows: r.rows,
        lines: (window as unknown as Win).nf.upgradeLines,
      };
    });
    expect(after.outcome).toBe('upgraded');
    // The progress line crossed from the leader's worker to the tab.
    expect(after.lines[0]).toMatch(/^Upgrading your data/);
    expect(after.rows.map((r) => r.id)).toEqual(before.ids);
    expect(after.rows.map((r) => r.code)).toEqual(['general', 'general']);
    await context.close();
  }, 300_000);
});
