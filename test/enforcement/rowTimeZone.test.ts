/**
 * Transitions that happen by time in a zone held by a row (`startOfDay(dueDate + days(1),
 * branch.zone)`), on PGlite and on the PostgreSQL server, with the clock moved (`p_now`; nothing
 * sleeps): each loan becomes overdue at the next midnight of its own branch's zone, across the
 * daylight-saving changes of 2027 there, whatever the app's zone (Europe/Berlin) says; a branch
 * moved to another zone moves its loans' instants. The evaluator computes the same instants.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRule } from '../../src/rules/check.ts';
import { evaluateRule } from '../../src/rules/evaluate.ts';
import type { TestDb } from '../../src/sql/testing/testDb.ts';
import { createUser } from '../../src/sql/testing/users.ts';
import { enforcementBackends } from './support/backends.ts';
import { branchLoanSpec } from './support/branchLoanSpec.ts';

const backends = await enforcementBackends('rowTimeZone.test');
afterAll(async () => {
  for (const b of backends) await b.closeAll();
});

/** Branch zone, due day → the instant the loan becomes overdue (the next local midnight, in UTC). */
const CASES: [string, string, string][] = [
  ['Europe/Berlin', '2027-03-28', '2027-03-28T22:00:00.000Z'], // the 23-hour day: next midnight is CEST
  ['Europe/Berlin', '2027-10-31', '2027-10-31T23:00:00.000Z'], // the 25-hour day: next midnight is CET
  ['America/New_York', '2027-03-13', '2027-03-14T05:00:00.000Z'], // still EST at midnight
  ['America/New_York', '2027-03-14', '2027-03-15T04:00:00.000Z'], // the spring day: next midnight EDT
  ['America/New_York', '2027-11-07', '2027-11-08T05:00:00.000Z'], // the autumn day: next midnight EST
  ['Asia/Tokyo', '2027-03-28', '2027-03-28T15:00:00.000Z'], // no daylight saving
  ['Australia/Lord_Howe', '2027-04-04', '2027-04-04T13:30:00.000Z'], // back by 30 minutes: +10:30
  ['Australia/Lord_Howe', '2027-10-03', '2027-10-03T13:00:00.000Z'], // forward by 30 minutes: +11
];

describe('the evaluator', () => {
  it('reads the zone from the referenced row, and gives the same instants as the table above', () => {
    const r = checkRule(branchLoanSpec, 'startOfDay(date(dueDate + days(1), "UTC"), branch.zone)', {
      entity: 'loan',
      expect: 'value',
    });
    if (!r.ok) throw new Error(r.errors[0]?.message);
    for (const [zone, due, at] of CASES) {
      const v = evaluateRule(r.typed, {
        row: { dueDate: due, branch: 'b1' },
        user: null,
        now: new Date(),
        roleClosure: new Map(),
        data: {
          rows: () => [],
          profile: () => null,
          get: (entity, id) => (entity === 'branch' && id === 'b1' ? { zone } : null),
        },
      });
      expect(new Date(v as number).toISOString(), `${zone} ${due}`).toBe(at);
    }
  });

  it('does not know the instant of a row whose branch it cannot read', () => {
    const r = checkRule(branchLoanSpec, 'hour(overdueSince, branch.zone)', {
      entity: 'loan',
      expect: 'value',
    });
    if (!r.ok) throw new Error(r.errors[0]?.message);
    const v = evaluateRule(r.typed, {
      row: { overdueSince: '2027-03-28T12:00:00Z', branch: 'b1' },
      user: null,
      now: new Date(),
      roleClosure: new Map(),
      data: { rows: () => [], profile: () => null, get: () => null },
    });
    expect(v).toBeNull();
  });
});

describe.each(backends)('transitions by time in the row zone on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => {});
    return;
  }
  let db: TestDb;
  let member: string;
  beforeAll(async () => {
    db = await backend.open(branchLoanSpec);
    member = await createUser(db, 'rz.member@example.com', { roles: ['member'], meta: { name: 'Member' } });
  }, 120_000);
  afterAll(async () => {
    if (db) await backend.release(db);
  });

  const branchIn = async (zone: string) =>
    (
      await db.query<{ id: string }>(`insert into public.branch (name, zone) values ($1, $1) returning id`, [
        zone,
      ])
    ).rows[0]?.id as string;
  const lend = async (branch: string, due: string) =>
    (
      await db.asUser(member, (q) =>
        q.query<{ id: string }>(
          `insert into public.loan (title, due_date, branch) values ('A book', $1, $2) returning id`,
          [due, branch],
        ),
      )
    ).rows[0]?.id as string;
  const runAt = (now: string) => db.query('select app.run_timed($1::timestamptz)', [now]);
  const statusOf = async (id: string) =>
    (await db.query<{ status: string }>('select status from public.loan where id = $1', [id])).rows[0]
      ?.status;

  it.each(CASES)(
    'in %s a loan due %s becomes overdue at %s, not a millisecond before',
    async (zone, due, at) => {
      const id = await lend(await branchIn(zone), due);
      await runAt(new Date(Date.parse(at) - 1).toISOString());
      expect(await statusOf(id)).toBe('on_loan');
      await runAt(at);
      expect(await statusOf(id)).toBe('overdue');
      const history = await db.query<{ actor: string | null }>(
        'select actor from public.loan_history where row_id = $1',
        [id],
      );
      expect(history.rows).toEqual([{ actor: null }]);
    },
  );

  it("follows the branch's zone when the branch moves to another one", async () => {
    const branch = await branchIn('Asia/Tokyo');
    const id = await lend(branch, '2027-06-01');
    // Tokyo's midnight after 1 June is 15:00 UTC; New York's is 04:00 UTC on 2 June.
    await db.query(`update public.branch set zone = 'America/New_York' where id = $1`, [branch]);
    await runAt('2027-06-01T15:00:00Z');
    expect(await statusOf(id)).toBe('on_loan');
    await runAt('2027-06-02T04:00:00Z');
    expect(await statusOf(id)).toBe('overdue');
  });
});
