/**
 * Team Tasks: an organisation's change of currency follows into its time entries (their
 * `currency` is `organisation.currency`, their `billableAmount` is rounded in it), but it does not
 * work their `rate` out again: `rate` is `sum(rate.hourlyRate …)`, the member's rate when the entry
 * was written, and an approved entry is final. A recompute rewrites only the fields that follow
 * the changed row (src/model/computedDependents.ts), on PGlite and on the PostgreSQL server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import teamTasks from '../../examples/tasks/spec.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import type { TestDb } from '../../src/sql/testing/testDb.ts';
import { createUser } from '../../src/sql/testing/users.ts';
import { enforcementBackends } from './support/backends.ts';

const spec = teamTasks as AppSpec;
const backends = await enforcementBackends('tasksRecompute.test');
afterAll(async () => {
  for (const b of backends) await b.closeAll();
});

describe.each(backends)("Team Tasks: a currency change keeps the entries' rates on $name", (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => {});
    return;
  }
  let db: TestDb;
  let organisation: string;
  let rate: string;
  const entries: Record<'approved' | 'logged', string> = { approved: '', logged: '' };
  beforeAll(async () => {
    db = await backend.open(spec);
    const member = await createUser(db, 'trc.member@example.com', { roles: ['member'], meta: { name: 'M' } });
    const one = async (sql: string, params: unknown[]) =>
      (await db.query<{ id: string }>(`${sql} returning id`, params)).rows[0]?.id as string;
    organisation = await one('insert into public.organisation (name, owner, currency) values ($1, $2, $3)', [
      'Recompute Ltd',
      member,
      'EUR',
    ]);
    await db.query('insert into public.membership (organisation, person, role) values ($1, $2, $3)', [
      organisation,
      member,
      'member',
    ]);
    const project = await one('insert into public.project (organisation, name, code) values ($1, $2, $3)', [
      organisation,
      'Quay',
      'QUAY',
    ]);
    const task = await db.asUser(member, async (q) => {
      const r = await q.query<{ id: string }>(
        'insert into public.task (project, title) values ($1, $2) returning id',
        [project, 'Gangway'],
      );
      return r.rows[0]?.id as string;
    });
    rate = await one('insert into public.rate (organisation, person, hourly_rate) values ($1, $2, $3)', [
      organisation,
      member,
      80.5,
    ]);
    // At most `autoApproveHours` (1) with a rate starts approved; 2 hours stays logged.
    for (const [key, hours] of [
      ['approved', 1],
      ['logged', 2],
    ] as const)
      entries[key] = await db.asUser(member, async (q) => {
        const r = await q.query<{ id: string }>(
          'insert into public.time_entry (task, hours) values ($1, $2) returning id',
          [task, hours],
        );
        return r.rows[0]?.id as string;
      });
  }, 120_000);
  afterAll(async () => {
    if (db) await backend.release(db);
  });

  const entry = async (id: string) =>
    (
      await db.query<{ status: string; currency: string; rate: string; billable_amount: string }>(
        'select status, currency, rate::text, billable_amount::text from public.time_entry where id = $1',
        [id],
      )
    ).rows[0];

  it('follows the currency, keeps the rate the entry was written with', async () => {
    expect(await entry(entries.approved)).toEqual({
      status: 'approved',
      currency: 'EUR',
      rate: '80.50',
      billable_amount: '80.50',
    });
    // The member's rate goes up: entries already written keep theirs (a sum is not followed).
    await db.query('update public.rate set hourly_rate = 100 where id = $1', [rate]);
    await db.query('update public.organisation set currency = $1 where id = $2', ['USD', organisation]);
    expect(await entry(entries.approved)).toEqual({
      status: 'approved',
      currency: 'USD',
      rate: '80.50',
      billable_amount: '80.50',
    });
    expect(await entry(entries.logged)).toMatchObject({
      currency: 'USD',
      rate: '80.50',
      billable_amount: '161.00',
    });
  });

  it('a later write of an entry works every computed field out again, as always', async () => {
    await db.query('update public.time_entry set note = $1 where id = $2', ['Quay side', entries.logged]);
    expect(await entry(entries.logged)).toMatchObject({
      currency: 'USD',
      rate: '100.00',
      billable_amount: '200.00',
    });
  });
});
