/**
 * A row rule checked on change (`onChange`, the helpdesk's `DUE_IN_PAST: dueAt >= now`), on PGlite
 * and on the PostgreSQL server: a past due date is refused when it is set (insert or update), and
 * an overdue ticket (its due date passed since) still takes every other write — its transitions
 * and edits. Without `onChange` the second half fails: time passing would lock the row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppSpec } from '../../src/spec/types.ts';
import { expectDbError, type TestDb } from '../../src/sql/testing/testDb.ts';
import { createUser } from '../../src/sql/testing/users.ts';
import { enforcementBackends } from './support/backends.ts';
import { APPS } from './support/model.ts';

const backends = await enforcementBackends('ruleOnChange.test');
afterAll(async () => {
  for (const b of backends) await b.closeAll();
});

const helpdesk = APPS.find((a) => a.name === 'helpdesk')?.spec as AppSpec;
const HOUR = 3_600_000;

describe.each(backends)('a rule checked on change (DUE_IN_PAST) on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => {});
    return;
  }
  let db: TestDb;
  let customer: string;
  let agent: string;
  beforeAll(async () => {
    db = await backend.open(helpdesk);
    customer = await createUser(db, 'oc.customer@example.com', { meta: { name: 'Customer' } });
    agent = await createUser(db, 'oc.agent@example.com', { roles: ['agent'], meta: { name: 'Agent' } });
  }, 120_000);
  afterAll(async () => {
    if (db) await backend.release(db);
  });

  const newTicket = async () =>
    (
      await db.asUser(customer, (q) =>
        q.query<{ id: string }>(
          `insert into public.ticket (title, description) values ('Printer jam', 'The printer jams on every page.') returning id`,
        ),
      )
    ).rows[0]?.id as string;

  it('refuses a past due date when an agent sets it, with the catalogue code on its field', async () => {
    const id = await newTicket();
    const e = await expectDbError(() =>
      db.asUser(agent, (q) =>
        q.query('update public.ticket set due_at = $2 where id = $1', [id, new Date(Date.now() - HOUR)]),
      ),
    );
    expect(e.message).toBe('DUE_IN_PAST');
    expect(e.detail).toContain('"field": "dueAt"');
    // An agent filing a ticket with a past due date is refused too (on insert).
    const e2 = await expectDbError(() =>
      db.asUser(agent, (q) =>
        q.query(
          `insert into public.ticket (title, description, due_at) values ('Old problem', 'Something that was due yesterday.', $1)`,
          [new Date(Date.now() - 24 * HOUR)],
        ),
      ),
    );
    expect(e2.message).toBe('DUE_IN_PAST');
    // A future one is kept.
    await db.asUser(agent, (q) =>
      q.query('update public.ticket set due_at = $2 where id = $1', [id, new Date(Date.now() + HOUR)]),
    );
  });

  it('lets an overdue ticket be taken, edited and solved: the rule binds only a new due date', async () => {
    const id = await newTicket();
    // Due in an hour when it was set; then time passed (moved back as the owner, the rules off:
    // the owner's writes are judged too, and this one stands for the clock, not for a person).
    await db.asUser(agent, (q) =>
      q.query('update public.ticket set due_at = $2 where id = $1', [id, new Date(Date.now() + HOUR)]),
    );
    await db.asOwner(async (q) => {
      await q.query('alter table public.ticket disable trigger ninefold_30_validate');
      await q.query(`update public.ticket set due_at = now() - interval '2 hours' where id = $1`, [id]);
      await q.query('alter table public.ticket enable trigger ninefold_30_validate');
    });
    await db.asUser(agent, async (q) => {
      await q.query('select public.ticket_take($1)', [id]);
      await q.query(`update public.ticket set title = 'Printer jams (overdue)' where id = $1`, [id]);
      await q.query(`select public.ticket_solve($1, null, $2::jsonb)`, [
        id,
        JSON.stringify({ resolution: 'Replaced the roller.' }),
      ]);
    });
    const row = (
      await db.query<{ status: string; title: string }>(
        'select status, title from public.ticket where id = $1',
        [id],
      )
    ).rows[0];
    expect(row).toEqual({ status: 'solved', title: 'Printer jams (overdue)' });
  });
});
