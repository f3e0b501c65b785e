/**
 * Transitions that happen by time (`after`), on PGlite and on the PostgreSQL server, with the
 * clock moved (the job takes its clock as `p_now`; nothing sleeps): a loan due on a day becomes
 * overdue at the start of the next day in Europe/Berlin — 22:00 UTC in summer time, 23:00 UTC in
 * winter time, across both changes of 2027 — as the system (history actor empty), once, with its
 * `set` applied (its `now` is the job's clock), and the evaluator computes the same instant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRule } from '../../src/rules/check.ts';
import { evaluateRule } from '../../src/rules/evaluate.ts';
import { AUTH_STAND_IN_SQL } from '../../src/sql/authStandIn.ts';
import { compileMigration } from '../../src/sql/compileMigration.ts';
import { STORAGE_STAND_IN_SQL } from '../../src/sql/storageStandIn.ts';
import { createServerDb } from '../../src/sql/testing/pgDb.ts';
import { createPgliteDb } from '../../src/sql/testing/pgliteDb.ts';
import type { TestDb } from '../../src/sql/testing/testDb.ts';
import { createUser } from '../../src/sql/testing/users.ts';
import { enforcementBackends } from './support/backends.ts';
import { CHECKS, violations } from './support/catalogueChecks.ts';
import { loanSpec } from './support/loanSpec.ts';

const backends = await enforcementBackends('timedTransitions.test');
afterAll(async () => {
  for (const b of backends) await b.closeAll();
});

/** Due day → the instant it becomes overdue (the next Berlin midnight, in UTC). */
const CASES: [string, string][] = [
  ['2027-03-27', '2027-03-27T23:00:00.000Z'], // the night into the spring change: still CET
  ['2027-03-28', '2027-03-28T22:00:00.000Z'], // the 23-hour day: next midnight is CEST
  ['2027-10-30', '2027-10-30T22:00:00.000Z'], // the night into the autumn change: still CEST
  ['2027-10-31', '2027-10-31T23:00:00.000Z'], // the 25-hour day: next midnight is CET
];

describe('the evaluator', () => {
  it('gives the same instants as the table above', () => {
    const r = checkRule(loanSpec, 'startOfDay(dueDate + days(1))', { entity: 'loan', expect: 'value' });
    if (!r.ok) throw new Error(r.errors[0]?.message);
    for (const [due, at] of CASES) {
      const v = evaluateRule(r.typed, {
        row: { dueDate: due },
        user: null,
        now: new Date(),
        roleClosure: new Map(),
      });
      expect(new Date(v as number).toISOString(), due).toBe(at);
    }
  });
});

describe.each(backends)('transitions by time on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => {});
    return;
  }
  let db: TestDb;
  let member: string;
  beforeAll(async () => {
    db = await backend.open(loanSpec);
    member = await createUser(db, 'tt.member@example.com', { roles: ['member'], meta: { name: 'Member' } });
  }, 120_000);
  afterAll(async () => {
    if (db) await backend.release(db);
  });

  const lend = async (due: string) =>
    (
      await db.asUser(member, (q) =>
        q.query<{ id: string }>(
          `insert into public.loan (title, due_date) values ('A book', $1) returning id`,
          [due],
        ),
      )
    ).rows[0]?.id as string;
  const runAt = async (now: string) =>
    (await db.query<{ n: number }>('select app.run_timed($1::timestamptz) as n', [now])).rows[0]?.n;
  const stateOf = async (id: string) =>
    (
      await db.query<{ status: string; overdue_since: string | null }>(
        `select status, to_char(overdue_since at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as overdue_since from public.loan where id = $1`,
        [id],
      )
    ).rows[0];

  it('passes the catalogue audit (the job and its client entry are SECURITY DEFINER with a fixed search_path)', async () => {
    for (const check of CHECKS) expect(await violations(db, check), check.name).toEqual([]);
  });

  it.each(CASES)('a loan due %s becomes overdue at %s, not a millisecond before', async (due, at) => {
    const id = await lend(due);
    const before = new Date(Date.parse(at) - 1).toISOString();
    await runAt(before);
    expect(await stateOf(id)).toEqual({ status: 'on_loan', overdue_since: null });
    expect(await runAt(at)).toBeGreaterThanOrEqual(1);
    expect(await stateOf(id)).toEqual({ status: 'overdue', overdue_since: at });
    const history = await db.query<{
      transition: string;
      from_state: string;
      to_state: string;
      actor: string | null;
    }>('select transition, from_state, to_state, actor from public.loan_history where row_id = $1', [id]);
    expect(history.rows).toEqual([
      { transition: 'overdue', from_state: 'on_loan', to_state: 'overdue', actor: null },
    ]);
    // Once: running again later moves nothing more and writes no second entry.
    await runAt('2030-01-01T00:00:00Z');
    expect((await db.query('select 1 from public.loan_history where row_id = $1', [id])).rows).toHaveLength(
      1,
    );
  });

  it('leaves a returned loan alone, and lets its borrower return an overdue one', async () => {
    const returned = await lend('2027-05-01');
    const late = await lend('2027-05-01');
    await db.asUser(member, (q) => q.query('select public.loan_give_back($1)', [returned]));
    await runAt('2027-06-01T00:00:00Z');
    expect((await stateOf(returned))?.status).toBe('returned');
    expect((await stateOf(late))?.status).toBe('overdue');
    await db.asUser(member, (q) => q.query('select public.loan_give_back($1)', [late]));
    expect((await stateOf(late))?.status).toBe('returned');
  });

  it('is not for clients with a clock of their own: only the server-clock function is granted', async () => {
    const late = await lend('2000-01-01');
    await expect(
      db.asUser(member, (q) => q.query(`select app.run_timed('2000-01-02'::timestamptz)`)),
    ).rejects.toThrow();
    const n = await db.asUser(member, (q) =>
      q.query<{ n: number }>('select public.ninefold_run_timed() as n'),
    );
    expect(n.rows[0]?.n).toBeGreaterThanOrEqual(1);
    expect((await stateOf(late))?.status).toBe('overdue');
  });
});

describe.each(backends)('the Supabase migration on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => {});
    return;
  }
  it('applies where pg_cron is not installed (nothing scheduled), and its job moves due loans', async () => {
    const db = backend.name === 'pglite' ? await createPgliteDb() : await createServerDb();
    try {
      await db.exec(AUTH_STAND_IN_SQL);
      await db.exec(STORAGE_STAND_IN_SQL);
      await db.exec(compileMigration(loanSpec, { target: 'supabase' }));
      const member = await createUser(db, 'sb.member@example.com', {
        roles: ['member'],
        meta: { name: 'M' },
      });
      await db.asUser(member, (q) =>
        q.query(`insert into public.loan (title, due_date) values ('A book', '2027-03-28')`),
      );
      const n = await db.query<{ n: number }>(`select app.run_timed('2027-03-28T22:00:00Z') as n`);
      expect(n.rows[0]?.n).toBe(1);
    } finally {
      await db.close();
    }
  }, 120_000);
});

describe('the Supabase migration', () => {
  it('schedules the job with pg_cron only where the extension is installed', () => {
    const sql = compileMigration(loanSpec, { target: 'supabase' });
    expect(sql).toContain("if exists (select 1 from pg_extension where extname = 'pg_cron') then");
    expect(sql).toContain(
      "perform cron.schedule('ninefold-run-timed', '* * * * *', 'select app.run_timed()');",
    );
    expect(compileMigration(loanSpec)).not.toContain('cron.schedule');
  });
});
