import { existsSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserHarness, type Nf, startBrowserHarness } from './pageBackend.ts';
import { CHROMIUM } from './testPage.ts';

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium && process.env.CI !== 'true') {
  console.log(`interrupted-write browser tests skipped: ${CHROMIUM} not found (apt-get install -y chromium)`);
}

declare const nf: Nf;
type Counts = Record<string, number>;

/** Rows of every table of the app, auth and bookkeeping schemas, read as the owner in the page. */
const countAll = (page: Page): Promise<Counts> =>
  page.evaluate(async () => {
    const { backend } = await nf.ready;
    const tables = await backend.db.query<{ name: string }>(
      // pg_tables: the build's snapshot leaves information_schema out (snapshot.ts).
      `select format('%I.%I', schemaname, tablename) as name from pg_catalog.pg_tables
        where schemaname in ('public', 'app', 'auth', 'ninefold')
        order by 1`,
    );
    const counts: Record<string, number> = {};
    for (const { name } of tables.rows) {
      const r = await backend.db.query<{ n: number }>(`select count(*)::int as n from ${name}`);
      counts[name] = r.rows[0]?.n ?? -1;
    }
    return counts;
  });

/**
 * A write interrupted by closing the tab: the write starts, the tab closes after a delay without
 * waiting for it, and a new tab on the same profile opens the database. Whatever the timing, the
 * database opens and the write is all there or not there at all (row counts of every table; the
 * file's bytes). IndexedDB gets each sync of PGlite's files in one IndexedDB transaction, and
 * Postgres recovers from that image like from a crash.
 */
describe.runIf(hasChromium || process.env.CI === 'true')('a write interrupted by closing the tab', () => {
  let harness: BrowserHarness;
  let context: BrowserContext;
  beforeAll(async () => {
    harness = await startBrowserHarness();
    context = await harness.browser.newContext();
  }, 180_000);
  afterAll(async () => {
    await harness?.close();
  });

  /** Starts (and with `wait`, finishes) one user transaction adding `n` tickets; resolves with its ms. */
  const writeTickets = (page: Page, n: number, wait: boolean) =>
    page.evaluate(
      async ([count, waitForIt]) => {
        const { backend } = await nf.ready;
        const session = await backend.auth.session();
        if (!session) throw new Error('not signed in');
        const started = performance.now();
        // The same preamble as every request of the adapter (asCaller): the user's claims and role.
        const write = backend.db.transaction(async (tx) => {
          await tx.query(
            `select set_config('request.jwt.claims', $1, true), set_config('request.jwt.claim.sub', $2, true),
              set_config('role', 'authenticated', true)`,
            [JSON.stringify({ sub: session.user.id, role: 'authenticated' }), session.user.id],
          );
          for (let i = 0; i < count; i++) {
            await tx.query('insert into public.ticket (title, description) values ($1, $2)', [
              `Batch ticket ${i}`,
              'Written in one transaction that the tab may not finish.',
            ]);
          }
        });
        if (!waitForIt) {
          write.catch(() => undefined);
          return 0;
        }
        await write;
        return performance.now() - started;
      },
      [n, wait] as const,
    );

  it('a transaction adding many tickets: after reopening, all of them or none', async () => {
    const db = 'idb://ninefold-interrupt-batch';
    let page = await harness.open(db, context);
    await page.evaluate(async () => {
      const { backend } = await nf.ready;
      await backend.auth.signUp({ email: 'batch@example.test', password: 'correct-horse' });
      await backend.data.create('ticket', { title: 'Before the batch', description: 'x'.repeat(30) });
    });
    const n = 40;
    const writeMs = await writeTickets(page, n, true);
    let expected = await countAll(page);
    await page.close();

    const outcomes: string[] = [];
    for (const fraction of [0, 0.2, 0.5, 0.9, 1.5, 3]) {
      page = await harness.open(db, context);
      expect(await countAll(page)).toEqual(expected);
      await writeTickets(page, n, false);
      await new Promise((r) => setTimeout(r, Math.round(writeMs * fraction)));
      await page.close();
      page = await harness.open(db, context);
      const seen = await countAll(page);
      const complete = { ...expected, 'public.ticket': (expected['public.ticket'] ?? 0) + n };
      // Every table at the old count, or every table at the new one: never a part of the batch.
      expect([expected, complete]).toContainEqual(seen);
      outcomes.push(seen['public.ticket'] === expected['public.ticket'] ? 'absent' : 'complete');
      expected = seen;
      await page.close();
    }
    console.log(
      `batch of ${n} took ${Math.round(writeMs)} ms; closed at 0/20/50/90/150/300%: ${outcomes.join(', ')}`,
    );
    // Seven boots of the worker from IndexedDB: a ceiling against hangs, not a speed target.
  }, 400_000);
});
