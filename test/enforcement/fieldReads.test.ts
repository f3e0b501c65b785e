/**
 * Per-field reads (issue 32, item 2) on examples/tasks: a time entry's `rate` and
 * `billableAmount` are read only where their `read` rule holds (the organisation's owners and
 * administrators), its hours by every member. For every seeded user × time entry, as a Supabase
 * client: the value reaches the caller exactly where the row's read permission and the field's
 * rule hold (expected from the TypeScript evaluator), and through no other path where they do
 * not: the table itself (select, filter, sort, RETURNING, whole row), the masking view's filters,
 * sorting and totals, the read function called directly, the history, and the details of errors.
 * On PGlite with the embedded target and on the PostgreSQL server with the Supabase target.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import tasks from '../../examples/tasks/spec.ts';
import { resolve } from '../../src/model/resolve.ts';
import { roleClosureOf } from '../../src/model/roleClosure.ts';
import { holds } from '../../src/rules/evaluate.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import { AUTH_STAND_IN_SQL } from '../../src/sql/authStandIn.ts';
import { compileMigration } from '../../src/sql/compileMigration.ts';
import { STORAGE_STAND_IN_SQL } from '../../src/sql/storageStandIn.ts';
import { createServerDb, serverAvailable } from '../../src/sql/testing/pgDb.ts';
import { createPgliteDb } from '../../src/sql/testing/pgliteDb.ts';
import { expectDbError, type Queryable, type TestDb } from '../../src/sql/testing/testDb.ts';
import { rule, type Snapshot, snapshot, specAllows } from './support/model.ts';
import { type SeedUser, seedRows, seedUsers } from './support/seed.ts';
import { tasksSeed } from './support/tasksSeed.ts';

const spec = tasks as AppSpec;
const model = resolve(spec);
const entry = model.tables.get('timeEntry');
if (!entry) throw new Error('examples/tasks has no timeEntry');
const HIDDEN = ['rate', 'billableAmount'] as const;
const VIEW = entry.readRef;

const hasServer = await serverAvailable();
if (!hasServer && process.env.CI === 'true')
  throw new Error('fieldReads.test: CI=true but no Postgres server answers at DATABASE_URL');

const targets: { name: string; skip: string | false; open(): Promise<TestDb> }[] = [
  {
    name: 'PGlite (embedded target)',
    skip: false,
    async open() {
      const db = await createPgliteDb();
      await db.exec(AUTH_STAND_IN_SQL);
      await db.exec(compileMigration(spec));
      return db;
    },
  },
  {
    name: 'PostgreSQL server (supabase target)',
    skip: hasServer ? false : 'no Postgres server at DATABASE_URL',
    async open() {
      const db = await createServerDb();
      await db.exec(AUTH_STAND_IN_SQL);
      await db.exec(STORAGE_STAND_IN_SQL);
      await db.exec(compileMigration(spec, { target: 'supabase' }));
      return db;
    },
  },
];

type Row = Record<string, unknown>;

describe.each(targets)('per-field reads on $name', (target) => {
  if (target.skip) {
    it.skip(`skipped: ${target.skip}`, () => {});
    return;
  }
  let db: TestDb;
  let users: SeedUser[];
  let snap: Snapshot;
  let entries: Row[];

  beforeAll(async () => {
    db = await target.open();
    users = await seedUsers(db, spec);
    await seedRows(db, spec, users, tasksSeed().values);
    // Every entry gets a rate and an amount, distinct per row, so that any leak shows a value
    // (both are computed, from the rate rows, which would give many entries the same rate or none).
    await db.exec(
      [
        'alter table public.time_entry disable trigger ninefold_25_computed;',
        `update public.time_entry set rate = 40 + (abs(hashtext(id::text)) % 50), billable_amount = hours * (40 + (abs(hashtext(id::text)) % 50));`,
        'alter table public.time_entry enable trigger ninefold_25_computed;',
      ].join('\n'),
    );
    snap = await snapshot(db, spec);
    entries = [...snap.rows('timeEntry')];
    expect(entries.length).toBeGreaterThan(3);
  }, 180_000);
  afterAll(async () => {
    await db?.close();
  });

  const userOf = (u: SeedUser) => ({ id: u.id, roles: snap.rolesOf(u.id) });
  const readsRow = (u: SeedUser, row: Row) => specAllows(spec, 'timeEntry', 'read', row, userOf(u), snap);
  const readsField = (u: SeedUser, row: Row, field: string) => {
    const text = spec.entities.timeEntry?.fields[field]?.read as string;
    return holds(rule(spec, 'timeEntry', text), {
      row,
      user: userOf(u),
      now: new Date(),
      roleClosure: roleClosureOf(spec),
      data: snap,
    });
  };
  const as = <T>(u: SeedUser, fn: (q: Queryable) => Promise<T>) => db.asUser(u.id, fn);
  const columns = `id, ${HIDDEN.map((f) => `${entry.byField.get(f)?.column} as "${f}"`).join(', ')}`;
  /** Users who read some entry but not its hidden fields: the ones every leak path is tried as. */
  const denied = () => users.filter((u) => entries.some((r) => readsRow(u, r) && !readsField(u, r, 'rate')));

  it('the matrix: each user reads each value exactly where the row and the field rule allow', async () => {
    const mismatches: string[] = [];
    let shown = 0;
    let masked = 0;
    for (const u of users) {
      const r = await as(u, (q) => q.query<Row>(`select ${columns} from ${VIEW}`));
      const seen = new Map(r.rows.map((x) => [String(x.id), x]));
      for (const row of entries) {
        const got = seen.get(String(row.id));
        if (readsRow(u, row) !== (got !== undefined)) mismatches.push(`${u.label} row ${row.id}`);
        if (!got) continue;
        for (const f of HIDDEN) {
          const expected = readsField(u, row, f) ? Number(row[f]) : null;
          const actual = got[f] === null ? null : Number(got[f]);
          if (expected !== actual) mismatches.push(`${u.label} ${f} of ${row.id}: ${expected} vs ${actual}`);
          if (expected === null) masked++;
          else shown++;
        }
      }
    }
    expect(mismatches).toEqual([]);
    // Both sides of the rule are exercised.
    expect(shown).toBeGreaterThan(0);
    expect(masked).toBeGreaterThan(0);
  });

  it('the table refuses the hidden columns in every clause (42501), the rest stays readable', async () => {
    const table = entry.ref;
    for (const u of denied().slice(0, 2)) {
      for (const sql of [
        `select rate from ${table}`,
        `select * from ${table}`,
        `select t from ${table} t`,
        `select to_jsonb(t) from ${table} t`,
        `select id from ${table} where rate > 0`,
        `select id from ${table} order by billable_amount`,
        `select sum(billable_amount) from ${table}`,
        `update ${table} set hours = hours where person = '${u.id}' returning rate`,
      ]) {
        const e = await expectDbError(() => as(u, (q) => q.query(sql)));
        expect(e.code, sql).toBe('42501');
      }
      const ok = await as(u, (q) => q.query<{ n: number }>(`select count(hours)::int as n from ${table}`));
      expect(ok.rows[0]?.n).toBeGreaterThan(0);
    }
  });

  it('filters, sorting and totals on the view see only what the caller may read', async () => {
    for (const u of denied()) {
      const readable = entries.filter((r) => readsRow(u, r));
      const allowedRate = readable.filter((r) => readsField(u, r, 'rate'));
      const r = await as(u, (q) =>
        q.query<{ id: string }>(`select id from ${VIEW} where rate is not null and billable_amount > 0`),
      );
      expect(new Set(r.rows.map((x) => x.id))).toEqual(new Set(allowedRate.map((x) => String(x.id))));
      // Sorting by a value the caller may not read orders those rows as if it were empty: by id.
      const hiddenIds = readable.filter((x) => !readsField(u, x, 'rate')).map((x) => String(x.id));
      for (const dir of ['asc', 'desc']) {
        const sorted = await as(u, (q) =>
          q.query<{ id: string }>(`select id from ${VIEW} order by rate ${dir} nulls last, id`),
        );
        const hiddenOrder = sorted.rows.map((x) => x.id).filter((id) => hiddenIds.includes(id));
        expect(hiddenOrder).toEqual([...hiddenIds].sort());
      }
      const sums = await as(u, (q) =>
        q.query<{ s: number | null }>(`select sum(billable_amount)::float8 as s from ${VIEW}`),
      );
      const expected = allowedRate.reduce((a, x) => a + Number(x.billableAmount), 0);
      expect(Number(sums.rows[0]?.s ?? 0)).toBeCloseTo(expected, 6);
    }
  });

  it('the read functions answer null to a caller the rules refuse, also for rows they cannot read', async () => {
    const fn = (f: string) => `app.${entry.names.readField(entry.byField.get(f)?.column as string)}`;
    let asked = 0;
    const ids = entries.map((r) => r.id);
    for (const u of users) {
      const r = await as(u, (q) =>
        q.query<{ id: string; v: unknown }>(`select id, ${fn('rate')}(id) as v from unnest($1::uuid[]) id`, [
          ids,
        ]),
      );
      const got = new Map(r.rows.map((x) => [x.id, x.v === null ? null : Number(x.v)]));
      for (const row of entries) {
        const expected = readsRow(u, row) && readsField(u, row, 'rate') ? Number(row.rate) : null;
        expect(got.get(String(row.id)), `${u.label} ${row.id}`).toBe(expected);
        asked++;
      }
    }
    expect(asked).toBeGreaterThan(0);
  });

  it('the history never holds a hidden value, and errors carry none', async () => {
    // An administrator approves a member's entry (the transition sets rate and amount), in a
    // transaction of their own; the member then reads the entry's history and the entry.
    const approve = entry.transitions.find((t) => t.name === 'approve')?.functionName as string;
    const approval = entries
      .filter((r) => r.status === 'logged')
      .flatMap((r) => {
        const admin = users.find((u) => u.id !== r.person && readsRow(u, r) && readsField(u, r, 'rate'));
        const member = users.find((u) => u.id === r.person);
        return admin && member && !readsField(member, r, 'rate') ? [{ r, admin, member }] : [];
      })[0];
    expect(approval, 'an entry a member logged and an administrator may approve').toBeDefined();
    const { r, admin, member } = approval as { r: Row; admin: SeedUser; member: SeedUser };
    const approved = await as(admin, (q) => q.query<Row>(`select * from public.${approve}($1)`, [r.id]));
    expect(approved.rows[0]?.rate).not.toBeNull();
    const history = await as(member, (q) =>
      q.query<{ input: Row; previous: Row }>(
        `select input, previous from public.time_entry_history where row_id = $1`,
        [r.id],
      ),
    );
    expect(history.rows.length).toBeGreaterThan(0);
    for (const h of history.rows)
      for (const f of HIDDEN) {
        expect(h.input).not.toHaveProperty(f);
        expect(h.previous ?? {}).not.toHaveProperty(f);
      }
    const seen = await as(member, (q) =>
      q.query<Row>(`select ${columns} from ${VIEW} where id = $1`, [r.id]),
    );
    expect(seen.rows[0]).toMatchObject({ rate: null, billableAmount: null });
    // A CHECK the member's write breaks: no "failing row" detail (the row has columns not granted).
    const own = entries.find((x) => x.person === member.id && x.status === 'logged' && x.id !== r.id);
    if (own) {
      const e = await expectDbError(() =>
        as(member, (q) => q.query(`update ${entry.ref} set hours = -1 where id = $1 returning id`, [own.id])),
      );
      expect(e.code).toBe('23514');
      for (const f of HIDDEN) expect(e.detail ?? '').not.toMatch(new RegExp(`\\b${Number(own[f])}\\b`));
    }
  });
});
