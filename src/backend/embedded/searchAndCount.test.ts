import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/spec.ts';
import { createEmbeddedBackend, type EmbeddedBackend } from './createEmbeddedBackend.ts';
import { demoAccounts } from './demo/demoAccounts.ts';
import { seedDemoAccounts } from './demo/seedDemoAccounts.ts';
import { ESTIMATE_ABOVE } from './listQuery.ts';

// Search through the trigram indexes (app.<table>__search) and totals that stop counting above
// ESTIMATE_ABOVE, on PGlite with more tickets than the threshold (the bench's ticket shape).
const N = ESTIMATE_ABOVE + 2_000;
let backend: EmbeddedBackend;

beforeAll(async () => {
  backend = await createEmbeddedBackend({ spec: helpdesk, dataDir: 'memory://' });
  await backend.asOwner(async (tx) => {
    await seedDemoAccounts(tx, helpdesk);
    await tx.query('alter table public.ticket disable trigger user');
    await tx.query(
      `insert into public.ticket (title, description, priority, requester, status, created_at, updated_at)
       select 'Ticket ' || g || ': printer on floor ' || ((g - 1) % 9) || ' does not respond',
              'The printer on this floor does not respond: nothing prints and the queue is stuck.',
              (array['low','normal','high','urgent'])[1 + (g - 1) % 4],
              (select id from auth.users where email = 'customer@demo.test'),
              (array['new','open','pending','solved','closed'])[1 + (g - 1) % 5],
              now() - (g - 1) * interval '1 minute', now() - (g - 1) * interval '1 minute'
       from generate_series(1, $1::int) g`,
      [N],
    );
    await tx.query('alter table public.ticket enable trigger user');
    await tx.query('analyze public.ticket');
  });
  const agent = demoAccounts(helpdesk).find((a) => a.role === 'agent')!;
  await backend.auth.signIn(agent);
}, 300_000);
afterAll(async () => {
  await backend?.close();
});

describe('search and totals at more rows than the count threshold', () => {
  it('finds by a word inside the text, through the search function, with an exact small total', async () => {
    const page = await backend.data.list('ticket', {
      search: 'ticket 777:',
      sort: [{ field: 'createdAt', direction: 'desc' }],
    });
    expect(page.rows.map((r) => r.title)).toEqual(['Ticket 777: printer on floor 2 does not respond']);
    const counted = await backend.data.list('ticket', { search: '777', limit: 0, count: 'estimated' });
    // 777, 1777, ..., 11777 (12 tickets) and 7770-7779 (10), 7777 in both: 21.
    expect(counted).toEqual({ rows: [], total: 21 });
  });

  it('estimates the total of a search too short for the trigram indexes, and counts a longer one', async () => {
    // Under 3 characters no trigram narrows the search: counting would read every row.
    const short = await backend.data.list('ticket', { search: '77', limit: 0, count: 'estimated' });
    const exact = await backend.data.list('ticket', { search: '77', limit: 0 });
    expect(short.estimated).toBe(true);
    expect(exact.estimated).toBeUndefined();
    // Within a factor of two of the truth (the planner's guess for an infix pattern), never 0.
    expect(short.total).toBeGreaterThan((exact.total ?? 0) / 2);
    expect(short.total).toBeLessThan((exact.total ?? 0) * 2);
    expect(await backend.data.list('ticket', { search: '777', limit: 0, count: 'estimated' })).toEqual({
      rows: [],
      total: 21,
    });
    // Rows are never estimated: the page of a short search is the same as without `count`.
    const page = await backend.data.list('ticket', { search: '77', limit: 5, count: 'estimated' });
    expect(
      page.rows.every((r) => String(r.title).includes('77') || String(r.description).includes('77')),
    ).toBe(true);
  });

  it('leaves at most 64 kB of new rows in a trigram index pending list, which every search reads whole', async () => {
    const pending = await backend.asOwner((tx) =>
      tx.query<{ pages: number }>(
        `select gin_clean_pending_list('public.ticket__title__trgm_idx'::regclass)::int as pages`,
      ),
    );
    // At PostgreSQL's default limit (4 MB) the bulk insert above leaves 472 pages.
    expect(pending.rows[0]?.pages).toBeLessThanOrEqual(8);
  });

  it('a search for a literal % or _ matches only that character', async () => {
    const r = await backend.data.list('ticket', { search: '100%', limit: 0, count: 'estimated' });
    expect(r.total).toBe(0);
  });

  it('answers the estimate above the threshold, and says so', async () => {
    const exact = await backend.data.list('ticket', { limit: 0 });
    expect(exact.total).toBeGreaterThan(ESTIMATE_ABOVE);
    const estimated = await backend.data.list('ticket', { limit: 0, count: 'estimated' });
    expect(estimated.estimated).toBe(true);
    expect(estimated.total).toBeGreaterThan(ESTIMATE_ABOVE);
    // After ANALYZE the planner's estimate is close to the truth.
    expect(Math.abs((estimated.total ?? 0) - (exact.total ?? 0)) / (exact.total ?? 1)).toBeLessThan(0.1);
  });

  it('counts exactly below the threshold', async () => {
    const filters = [{ field: 'status', op: 'eq' as const, value: 'solved' }];
    const exact = await backend.data.list('ticket', { filters, limit: 0 });
    const estimated = await backend.data.list('ticket', { filters, limit: 0, count: 'estimated' });
    expect(exact.total).toBeLessThanOrEqual(ESTIMATE_ABOVE);
    expect(estimated).toEqual({ rows: [], total: exact.total });
  });

  it('a customer searching sees only their own tickets, with the same filter the policy applies', async () => {
    await backend.auth.signOut();
    const other = demoAccounts(helpdesk).filter((a) => a.role === 'customer')[1];
    if (other) {
      await backend.auth.signIn(other);
      const r = await backend.data.list('ticket', {
        search: 'printer on floor',
        limit: 0,
        count: 'estimated',
      });
      expect(r.total).toBe(0);
      await backend.auth.signOut();
    }
    const customer = demoAccounts(helpdesk).find((a) => a.role === 'customer')!;
    await backend.auth.signIn(customer);
    const own = await backend.data.list('ticket', { search: 'ticket 777:', limit: 0, count: 'estimated' });
    expect(own.total).toBe(1);
  });
});
