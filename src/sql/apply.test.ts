import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileMigration } from './compileMigration.ts';
import { mini } from './fixtures/mini.ts';
import { createServerDb, serverAvailable } from './testing/pgDb.ts';
import { createPgliteDb } from './testing/pgliteDb.ts';
import { expectDbError, type TestDb } from './testing/testDb.ts';
import { applyMigration, createUser } from './testing/users.ts';

const migration = compileMigration(mini);
const hasServer = await serverAvailable();
if (!hasServer && process.env.CI === 'true')
  throw new Error('CI=true but no Postgres server answers at DATABASE_URL');
if (!hasServer) console.warn('apply.test: no Postgres server at DATABASE_URL, server backend skipped');

const backends: { name: string; create: () => Promise<TestDb>; skip: boolean }[] = [
  { name: 'pglite', create: createPgliteDb, skip: false },
  { name: 'server', create: () => createServerDb(), skip: !hasServer },
];

function detail(e: { detail?: string }): Record<string, unknown> {
  return JSON.parse(e.detail ?? '{}') as Record<string, unknown>;
}

for (const backend of backends) {
  describe.skipIf(backend.skip)(`migration on ${backend.name}`, () => {
    let db: TestDb;
    let alice: string;
    let bob: string;
    let agent: string;

    beforeAll(async () => {
      db = await backend.create();
      await applyMigration(db, migration);
      alice = await createUser(db, 'alice@example.com', { meta: { name: 'Alice' } });
      bob = await createUser(db, 'bob@example.com');
      agent = await createUser(db, 'agent@example.com', { roles: ['agent'] });
    }, 60_000);
    afterAll(async () => {
      await db?.close();
    });

    it('applies twice (idempotent)', async () => {
      await db.exec(migration);
    });

    it('signs up with a profile and the sign-up role, never roles from metadata', async () => {
      const mallory = await createUser(db, 'mallory@example.com', {
        meta: { role: 'admin', roles: ['admin'] },
      });
      const r = await db.query<{ name: string; email: string }>(
        'select name, email from public.person where id = $1',
        [alice],
      );
      expect(r.rows).toEqual([{ name: 'Alice', email: 'alice@example.com' }]);
      const roles = await db.asUser(mallory, (q) =>
        q.query<{ r: string[] }>('select public.my_roles() as r'),
      );
      expect(roles.rows[0]?.r).toEqual(['customer']);
      const agentRoles = await db.asUser(agent, (q) =>
        q.query<{ r: string[] }>('select public.my_roles() as r'),
      );
      expect(agentRoles.rows[0]?.r).toEqual(['agent', 'customer']);
      const e = await expectDbError(() =>
        db.asUser(mallory, (q) => q.query(`select public.grant_role($1, 'admin')`, [mallory])),
      );
      expect(e.message).toBe('FORBIDDEN');
    });

    it('lets a customer create and read their own ticket, not others', async () => {
      const own = await db.asUser(alice, (q) =>
        q.query<{ id: string; requester: string; status: string; version: number }>(
          `insert into public.ticket (title, body) values ('Printer on fire', 'help') returning id, requester, status, version`,
        ),
      );
      const row = own.rows[0];
      expect(row).toMatchObject({ requester: alice, status: 'open', version: 1 });
      const mine = await db.asUser(alice, (q) => q.query('select id from public.ticket'));
      expect(mine.rows).toEqual([{ id: row?.id }]);
      const theirs = await db.asUser(bob, (q) => q.query('select id from public.ticket'));
      expect(theirs.rows).toEqual([]);
      const anon = await expectDbError(() => db.asUser(null, (q) => q.query('select id from public.ticket')));
      expect(anon.code).toBe('42501');
    });

    it('forces owner and initial state on insert, refuses status and owner writes', async () => {
      const e = await expectDbError(() =>
        db.asUser(alice, (q) =>
          q.query(`insert into public.ticket (title, status) values ('Sneaky', 'closed')`),
        ),
      );
      expect(e.code).toBe('42501');
      const t = await db.asUser(alice, (q) =>
        q.query<{ id: string }>(`insert into public.ticket (title) values ('Second') returning id`),
      );
      const id = t.rows[0]?.id;
      const s = await expectDbError(() =>
        db.asUser(alice, (q) => q.query(`update public.ticket set status = 'closed' where id = $1`, [id])),
      );
      expect(s.code).toBe('42501');
      const o = await expectDbError(() =>
        db.asUser(alice, (q) => q.query('update public.ticket set requester = $2 where id = $1', [id, bob])),
      );
      expect(o.code).toBe('42501');
      // a column the union grant allows, but not to this role
      const p = await expectDbError(() =>
        db.asUser(alice, (q) => q.query(`update public.ticket set priority = 'high' where id = $1`, [id])),
      );
      expect(p.message).toBe('FIELD_NOT_WRITABLE');
      expect(detail(p)).toEqual({ entity: 'ticket', field: 'priority' });
    });

    it('bumps the version on update so stale writes change nothing', async () => {
      const t = await db.asUser(alice, (q) =>
        q.query<{ id: string }>(`insert into public.ticket (title) values ('Versioned') returning id`),
      );
      const id = t.rows[0]?.id;
      const u = await db.asUser(alice, (q) =>
        q.query<{ version: number }>(
          `update public.ticket set title = 'Versioned 2' where id = $1 and version = 1 returning version`,
          [id],
        ),
      );
      expect(u.rows).toEqual([{ version: 2 }]);
      const stale = await db.asUser(alice, (q) =>
        q.query(`update public.ticket set title = 'Lost' where id = $1 and version = 1 returning version`, [
          id,
        ]),
      );
      expect(stale.rows).toEqual([]);
    });

    it('enforces validation as named constraints and triggers', async () => {
      const e = await expectDbError(() =>
        db.asUser(alice, (q) => q.query(`insert into public.ticket (title) values ('ab')`)),
      );
      expect(e.code).toBe('23514');
      expect(e.constraint).toBe('ticket__title_too_short__1');
    });

    it('runs permitted transitions, appends immutable history, hides rows from probes', async () => {
      const t = await db.asUser(alice, (q) =>
        q.query<{ id: string }>(`insert into public.ticket (title) values ('Flow') returning id`),
      );
      const id = t.rows[0]?.id;
      const forbidden = await expectDbError(() =>
        db.asUser(alice, (q) => q.query('select public.ticket_start($1)', [id])),
      );
      expect(forbidden.message).toBe('FORBIDDEN');
      const probe = await expectDbError(() =>
        db.asUser(bob, (q) => q.query('select public.ticket_close($1)', [id])),
      );
      expect(probe.message).toBe('NOT_FOUND');
      const started = await db.asUser(agent, (q) =>
        q.query<{ status: string; assignee: string; version: number }>(
          'select status, assignee, version from public.ticket_start($1, 1)',
          [id],
        ),
      );
      expect(started.rows).toEqual([{ status: 'pending', assignee: agent, version: 2 }]);
      const conflict = await expectDbError(() =>
        db.asUser(agent, (q) => q.query('select public.ticket_solve($1, 1)', [id])),
      );
      expect(conflict.message).toBe('CONFLICT');
      const missing = await expectDbError(() =>
        db.asUser(agent, (q) => q.query('select public.ticket_solve($1, 2)', [id])),
      );
      expect(missing.message).toBe('INPUT_REQUIRED');
      expect(detail(missing)).toMatchObject({ field: 'resolution' });
      await db.asUser(agent, (q) =>
        q.query(`select public.ticket_solve($1, 2, '{"resolution":"Unplugged it"}')`, [id]),
      );
      const invalid = await expectDbError(() =>
        db.asUser(agent, (q) => q.query('select public.ticket_start($1)', [id])),
      );
      expect(invalid.message).toBe('INVALID_TRANSITION');
      const closed = await db.asUser(alice, (q) =>
        q.query<{ status: string }>('select status from public.ticket_close($1)', [id]),
      );
      expect(closed.rows).toEqual([{ status: 'closed' }]);

      const history = await db.asUser(alice, (q) =>
        q.query<{ transition: string; from_state: string; to_state: string }>(
          'select transition, from_state, to_state from public.ticket_history where row_id = $1 order by at, transition',
          [id],
        ),
      );
      expect(history.rows.map((h) => h.transition).sort()).toEqual(['close', 'solve', 'start']);
      const hidden = await db.asUser(bob, (q) =>
        q.query('select id from public.ticket_history where row_id = $1', [id]),
      );
      expect(hidden.rows).toEqual([]);
      const upd = await expectDbError(() =>
        db.asUser(alice, (q) => q.query(`update public.ticket_history set to_state = 'open'`)),
      );
      expect(upd.code).toBe('42501');
      const owner = await expectDbError(() => db.query(`update public.ticket_history set to_state = 'open'`));
      expect(owner.message).toBe('APPEND_ONLY');
      const del = await expectDbError(() => db.query('delete from public.ticket_history'));
      expect(del.message).toBe('APPEND_ONLY');
    });

    it('checks cross-row rules in a trigger raising the catalogue code', async () => {
      const t = await db.asUser(alice, (q) =>
        q.query<{ id: string }>(`insert into public.ticket (title) values ('Chatty') returning id`),
      );
      const id = t.rows[0]?.id;
      await db.query(
        `insert into public.comment (ticket, author, body) select $1, $2, 'c' || g from generate_series(1, 49) g`,
        [id, alice],
      );
      await db.asUser(alice, (q) =>
        q.query(`insert into public.comment (ticket, body) values ($1, 'fiftieth')`, [id]),
      );
      const e = await expectDbError(() =>
        db.asUser(alice, (q) =>
          q.query(`insert into public.comment (ticket, body) values ($1, 'one too many')`, [id]),
        ),
      );
      expect(e.message).toBe('TOO_MANY_COMMENTS');
      const quiet = await db.asUser(alice, (q) =>
        q.query<{ id: string }>(`insert into public.ticket (title) values ('Quiet') returning id`),
      );
      const other = await expectDbError(() =>
        db.asUser(bob, (q) =>
          q.query(`insert into public.comment (ticket, body) values ($1, 'hi')`, [quiet.rows[0]?.id]),
        ),
      );
      // A ticket bob cannot read is, to bob, a ticket that does not exist: the foreign-key error.
      expect(other.code).toBe('23503');
      expect(other.constraint).toBe('comment__ticket__fk');
    });
  });
}
