/**
 * Issue 31, the server's side of two low items, on PGlite and on the PostgreSQL server (the
 * helpdesk's migration, acted on as Supabase clients):
 * - an edit of audited fields records each field's old value beside its new one (`previous`),
 *   and the old value is read under the same policy as the row: who cannot read the row reads
 *   neither value;
 * - a transition's optional input (`optionalInput`, the rating's comment) is written when sent,
 *   null when sent empty, left as it is when not sent, and recorded in the history only when given.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppSpec } from '../../src/spec/types.ts';
import { expectDbError, type Queryable, type TestDb } from '../../src/sql/testing/testDb.ts';
import { createUser } from '../../src/sql/testing/users.ts';
import { enforcementBackends } from './support/backends.ts';
import { APPS } from './support/model.ts';

const backends = await enforcementBackends('issue31.test');
afterAll(async () => {
  for (const b of backends) await b.closeAll();
});

const helpdesk = APPS.find((a) => a.name === 'helpdesk')?.spec as AppSpec;

interface HistoryRow {
  kind: string;
  transition: string;
  input: Record<string, unknown>;
  previous: Record<string, unknown>;
}

async function rows<T>(q: Queryable, sql: string, params: unknown[] = []): Promise<T[]> {
  return (await q.query<Record<string, unknown>>(sql, params)).rows as T[];
}

describe.each(backends)('issue 31 on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => {});
    return;
  }

  let db: TestDb;
  let customer: string;
  let stranger: string;
  let agent: string;
  beforeAll(async () => {
    db = await backend.open(helpdesk);
    customer = await createUser(db, 'h.customer@example.com', { meta: { name: 'Customer' } });
    stranger = await createUser(db, 'h.stranger@example.com', { meta: { name: 'Stranger' } });
    agent = await createUser(db, 'h.agent@example.com', { roles: ['agent'], meta: { name: 'Agent' } });
  }, 120_000);
  afterAll(async () => {
    if (db) await backend.release(db);
  });

  const ticket = async (status = 'open') =>
    (
      await rows<{ id: string }>(
        db,
        `insert into public.ticket (title, description, requester, assignee, status) values ('Printer jams', 'It jams on every page', $1, $2, $3) returning id`,
        [customer, agent, status],
      )
    )[0]?.id as string;
  const history = (as: string, id: string) =>
    db.asUser(as, (q) =>
      rows<HistoryRow>(
        q,
        'select kind, transition, input, previous from public.ticket_history where row_id = $1 order by at, id',
        [id],
      ),
    );

  it('issue 31: an edit records every changed audited field as old → new; unchanged and unaudited fields are absent', async () => {
    const id = await ticket();
    await db.asUser(agent, (q) =>
      q.query(
        `update public.ticket set priority = 'high', due_at = null, assignee = null, description = 'Now it jams on every single page' where id = $1`,
        [id],
      ),
    );
    const [edit] = (await history(agent, id)).filter((h) => h.kind === 'edit');
    // due_at was already empty: not a change, not recorded.
    expect(edit?.input).toEqual({ priority: 'high', assignee: null });
    expect(edit?.previous).toEqual({ priority: 'normal', assignee: agent });
  });

  it('issue 31: old values are read under the row’s policy: its requester reads them, another customer reads no entry', async () => {
    const id = await ticket();
    await db.asUser(agent, (q) =>
      q.query(`update public.ticket set priority = 'urgent' where id = $1`, [id]),
    );
    const mine = (await history(customer, id)).filter((h) => h.kind === 'edit');
    expect(mine.map((h) => [h.input, h.previous])).toEqual([
      [{ priority: 'urgent' }, { priority: 'normal' }],
    ]);
    expect(await history(stranger, id)).toEqual([]);
    // Append-only: nobody rewrites what was there before, the owner of the table included.
    const e = await expectDbError(() =>
      db.query(`update public.ticket_history set previous = '{}'::jsonb where row_id = $1`, [id]),
    );
    expect(e.message).toBe('APPEND_ONLY');
  });

  const rate = (id: string, input: Record<string, unknown>) =>
    db.asUser(customer, (q) =>
      q.query('select public.ticket_rate($1, null, $2::jsonb)', [id, JSON.stringify(input)]),
    );
  const rated = async (id: string) =>
    (
      await rows<{ rating: string | null; rating_comment: string | null }>(
        db,
        'select rating, rating_comment from public.ticket where id = $1',
        [id],
      )
    )[0];

  it('issue 31: the rating transition writes its optional comment when given and records it in the history', async () => {
    const id = await ticket('solved');
    await rate(id, { rating: 'good', ratingComment: 'Quick and kind.' });
    expect(await rated(id)).toEqual({ rating: 'good', rating_comment: 'Quick and kind.' });
    const [entry] = (await history(customer, id)).filter((h) => h.transition === 'rate');
    expect(entry?.input).toEqual({ rating: 'good', ratingComment: 'Quick and kind.' });
  });

  it('issue 31: the optional comment may be left out, sent empty or null; the required rating may not', async () => {
    for (const comment of [{}, { ratingComment: '' }, { ratingComment: null }]) {
      const id = await ticket('solved');
      await rate(id, { rating: 'bad', ...comment });
      expect(await rated(id), JSON.stringify(comment)).toEqual({ rating: 'bad', rating_comment: null });
      const [entry] = (await history(customer, id)).filter((h) => h.transition === 'rate');
      expect(entry?.input, JSON.stringify(comment)).toEqual({ rating: 'bad' });
    }
    const id = await ticket('solved');
    const e = await expectDbError(() => rate(id, { ratingComment: 'No rating, only words' }));
    expect(e.message).toBe('INPUT_REQUIRED');
    expect(JSON.parse(e.detail ?? '{}')).toMatchObject({ field: 'rating' });
  });

  it('issue 31: a comment not sent leaves the one written before; the comment’s own rule still holds', async () => {
    const id = await ticket('solved');
    await db.query(`update public.ticket set rating_comment = 'Written while waiting' where id = $1`, [id]);
    await rate(id, { rating: 'good' });
    expect(await rated(id)).toEqual({ rating: 'good', rating_comment: 'Written while waiting' });
    const other = await ticket('solved');
    const e = await expectDbError(() => rate(other, { rating: 'good', ratingComment: 'x'.repeat(6000) }));
    // The comment's field rule (COMMENT_TOO_LONG), a CHECK like any write's.
    expect([e.code, e.constraint]).toEqual(['23514', expect.stringMatching(/^ticket__comment_too_long__/)]);
  });
});
