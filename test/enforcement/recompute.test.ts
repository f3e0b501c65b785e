/**
 * Computed values follow the rows they read (issue 32, item 5), on PGlite and on the PostgreSQL
 * server: a change of a referenced row's field that a computed rule reads rewrites the rows
 * referencing it (src/sql/emitRecompute.ts).
 * - a chain: an organisation's currency → its projects' currency → their entries' currency and
 *   amount, rounded to the new currency's minor unit;
 * - the writer of the referenced row may neither read nor update the dependents: still recomputed;
 * - an update no computed rule reads (another field, the same value) rewrites nothing;
 * - a recompute that breaks a dependent's rule refuses the whole update with that rule's code;
 * - a deleted reference (`set null`) recomputes to empty;
 * - fan-out: thousands of dependents in one statement, few locks; a client's change reaching more
 *   dependents' lock groups than one transaction may hold is refused whole.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorContext, mapDatabaseError } from '../../src/backend/errors/mapDatabaseError.ts';
import { roundHalfAwayFromZero } from '../../src/spec/currencies.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import { GROUP_LOCK_LIMIT } from '../../src/sql/emitGroupLocks.ts';
import type { TestDb } from '../../src/sql/testing/testDb.ts';
import { createUser } from '../../src/sql/testing/users.ts';
import { enforcementBackends } from './support/backends.ts';
import { billing } from './support/billing.ts';

const backends = await enforcementBackends('recompute.test');
afterAll(async () => {
  for (const b of backends) await b.closeAll();
});

interface Entry {
  id: string;
  currency: string | null;
  amount: string | null;
  version: number;
}

describe.each(backends)('computed values recomputed on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => {});
    return;
  }
  let db: TestDb;
  let clerk: string;
  let manager: string;
  let n = 0;
  beforeAll(async () => {
    db = await backend.open(billing);
    clerk = await createUser(db, 'rc.clerk@example.com', { roles: ['clerk'], meta: { name: 'Clerk' } });
    manager = await createUser(db, 'rc.boss@example.com', { roles: ['manager'], meta: { name: 'Boss' } });
  }, 120_000);
  afterAll(async () => {
    if (db) await backend.release(db);
  });

  /** An organisation and a project in it (as the owner), and the clerk's entries of `hours`. */
  async function setUp(currency: string, rate: number, hours: readonly number[]) {
    n += 1;
    const org = await db.query<{ id: string }>(
      'insert into public.organisation (name, currency) values ($1, $2) returning id',
      [`Org ${n}`, currency],
    );
    const orgId = org.rows[0]?.id as string;
    const p = await db.query<{ id: string }>(
      'insert into public.project (name, organisation, rate) values ($1, $2, $3) returning id',
      [`Project ${n}`, orgId, rate],
    );
    const projectId = p.rows[0]?.id as string;
    const ids: string[] = [];
    for (const h of hours) {
      const r = await db.asUser(clerk, (q) =>
        q.query('insert into public.time_entry (project, hours) values ($1, $2) returning id', [
          projectId,
          h,
        ]),
      );
      ids.push((r.rows[0] as { id: string }).id);
    }
    return { orgId, projectId, ids };
  }

  async function entries(ids: readonly string[]): Promise<Entry[]> {
    const r = await db.query<Entry>(
      'select id, currency, amount::text as amount, version from public.time_entry where id = any($1::uuid[]) order by hours',
      [ids],
    );
    return r.rows;
  }

  it('follows a chain: organisation currency → project currency → entry currency and amount', async () => {
    const { orgId, projectId, ids } = await setUp('EUR', 10.1, [1.25, 2.5]);
    expect((await entries(ids)).map((e) => [e.currency, Number(e.amount)])).toEqual([
      ['EUR', roundHalfAwayFromZero(1.25 * 10.1, 2)],
      ['EUR', roundHalfAwayFromZero(2.5 * 10.1, 2)],
    ]);
    await db.asUser(manager, (q) =>
      q.query("update public.organisation set currency = 'JPY' where id = $1", [orgId]),
    );
    const p = await db.query<{ currency: string }>('select currency from public.project where id = $1', [
      projectId,
    ]);
    expect(p.rows[0]?.currency).toBe('JPY');
    // 12.625 → 13 and 25.25 → 25: the new currency's minor unit (none), half away from zero.
    expect((await entries(ids)).map((e) => [e.currency, Number(e.amount)])).toEqual([
      ['JPY', 13],
      ['JPY', 25],
    ]);
  });

  it('recomputes rows the writer of the referenced row may neither read nor update', async () => {
    const { projectId, ids } = await setUp('EUR', 10, [3]);
    const seen = await db.asUser(manager, (q) =>
      q.query('select id from public.time_entry').then(
        (r) => r.rows.length,
        () => 0,
      ),
    );
    expect(seen).toBe(0);
    const own = await db
      .asUser(manager, (q) =>
        q.query('update public.time_entry set hours = 1 where id = $1 returning id', [ids[0]]),
      )
      .then(
        (r) => r.rows.length,
        () => 0,
      );
    expect(own).toBe(0);
    await db.asUser(manager, (q) =>
      q.query('update public.project set rate = 12.345 where id = $1', [projectId]),
    );
    expect((await entries(ids)).map((e) => Number(e.amount))).toEqual([roundHalfAwayFromZero(3 * 12.345, 2)]);
  });

  it('rewrites nothing on an update no computed rule reads, or to the same value', async () => {
    const { projectId, ids } = await setUp('EUR', 10, [1, 2]);
    const before = await entries(ids);
    await db.asUser(manager, (q) =>
      q.query("update public.project set note = 'n', rate = 10 where id = $1", [projectId]),
    );
    expect(await entries(ids)).toEqual(before);
    await db.asUser(manager, (q) =>
      q.query('update public.project set rate = 11 where id = $1', [projectId]),
    );
    expect((await entries(ids)).map((e) => e.version)).toEqual(before.map((e) => e.version + 1));
  });

  it('refuses a change that makes a dependent break its rule, with its code, changing nothing', async () => {
    const { projectId, ids } = await setUp('EUR', 10, [1, 100]);
    const before = await entries(ids);
    const e = await db
      .asUser(manager, (q) => q.query('update public.project set rate = 200 where id = $1', [projectId]))
      .then(
        () => null,
        (err) => err,
      );
    expect(e).not.toBeNull();
    expect(mapDatabaseError(e, errorContext(billing)).code).toBe('AMOUNT_TOO_HIGH');
    expect(await entries(ids)).toEqual(before);
    const p = await db.query<{ rate: string }>(
      'select rate::text as rate from public.project where id = $1',
      [projectId],
    );
    expect(Number(p.rows[0]?.rate)).toBe(10);
  });

  it('follows a transition’s set, and records no edit in the dependents’ history', async () => {
    const { projectId, ids } = await setUp('EUR', 10, [2]);
    await db.asUser(clerk, (q) => q.query('update public.time_entry set hours = 3 where id = $1', [ids[0]]));
    await db.asUser(manager, (q) => q.query('select public.project_reprice($1::uuid)', [projectId]));
    expect((await entries(ids)).map((e) => Number(e.amount))).toEqual([60]);
    // The clerk's edit is history (amount 20 → 30); the recompute (30 → 60) is not.
    const h = await db.query<{ kind: string; input: { amount: number } }>(
      'select kind, input from public.time_entry_history where row_id = $1 order by at',
      [ids[0]],
    );
    expect(h.rows.map((r) => [r.kind, Number(r.input.amount)])).toEqual([['edit', 30]]);
    const p = await db.query<{ transition: string }>(
      "select transition from public.project_history where row_id = $1 and kind <> 'edit'",
      [projectId],
    );
    expect(p.rows.map((r) => r.transition)).toEqual(['reprice']);
  });

  it('recomputes to empty when the referenced row is deleted (set null)', async () => {
    const { projectId, ids } = await setUp('EUR', 10, [2]);
    await db.query('delete from public.project where id = $1', [projectId]);
    expect((await entries(ids)).map((e) => [e.currency, e.amount])).toEqual([[null, null]]);
  });

  it('rewrites thousands of dependents in one statement, taking few locks', async () => {
    const { projectId } = await setUp('EUR', 1, []);
    const count = 3000;
    await db.query(
      'insert into public.time_entry (project, hours, author) select $1, g, $2 from generate_series(1, $3) g',
      [projectId, clerk, count],
    );
    const started = performance.now();
    const locks = await db.asUser(manager, async (q) => {
      await q.query('update public.project set rate = 2 where id = $1', [projectId]);
      const r = await q.query<{ n: number }>(
        'select count(*)::int as n from pg_locks where pid = pg_backend_pid()',
      );
      return r.rows[0]?.n ?? 0;
    });
    const ms = performance.now() - started;
    console.log(
      `recompute: ${count} dependents in ${Math.round(ms)} ms, ${locks} locks held (${backend.name})`,
    );
    expect(locks).toBeLessThan(50);
    const r = await db.query<{ wrong: number }>(
      'select count(*)::int as wrong from public.time_entry where project = $1 and amount is distinct from hours * 2',
      [projectId],
    );
    expect(r.rows[0]?.wrong).toBe(0);
  });
});

/**
 * Billing where an entry's rule counts entries of the same hours: every writer of an entry locks
 * its hours' group (emitGroupLocks.ts), the recompute too, so a client's change reaching entries
 * in more than GROUP_LOCK_LIMIT groups is refused whole (the shared lock table stays bounded);
 * the owner's is not limited.
 */
const grouped: AppSpec = {
  ...billing,
  validation: {
    timeEntry: [
      ...(billing.validation.timeEntry ?? []),
      { kind: 'row', rule: 'count(timeEntry where hours = this.hours) < 1000', error: 'AMOUNT_TOO_HIGH' },
    ],
  },
};

describe.each(backends)('a recompute reaching many lock groups on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => {});
    return;
  }
  let db: TestDb;
  afterAll(async () => {
    if (db) await backend.release(db);
  });

  it(`is refused with BATCH_TOO_LARGE past ${GROUP_LOCK_LIMIT} groups for a client, atomically`, async () => {
    db = await backend.open(grouped);
    const clerk = await createUser(db, 'rg.clerk@example.com', { roles: ['clerk'], meta: { name: 'C' } });
    const manager = await createUser(db, 'rg.boss@example.com', { roles: ['manager'], meta: { name: 'B' } });
    await db.query("insert into public.organisation (name, currency) values ('O', 'EUR')");
    await db.query(
      "insert into public.project (name, organisation, rate) select 'P', id, 1 from public.organisation",
    );
    const insertEntries = (n: number) =>
      db.query(
        'insert into public.time_entry (project, hours, author) select p.id, g, $1 from public.project p, generate_series(1, $2) g',
        [clerk, n],
      );
    await insertEntries(GROUP_LOCK_LIMIT + 5);
    const e = await db
      .asUser(manager, (q) => q.query('update public.project set rate = 2'))
      .then(
        () => null,
        (err) => err,
      );
    expect(mapDatabaseError(e, errorContext(grouped)).code).toBe('BATCH_TOO_LARGE');
    const stale = await db.query<{ n: number }>(
      'select count(*)::int as n from public.time_entry where amount = hours * 2',
    );
    expect(stale.rows[0]?.n).toBe(0);
    // The owner (a migration, a script) is not limited.
    await db.query('update public.project set rate = 2');
    const done = await db.query<{ n: number }>(
      'select count(*)::int as n from public.time_entry where amount = hours * 2',
    );
    expect(done.rows[0]?.n).toBe(GROUP_LOCK_LIMIT + 5);
  });
});
