/**
 * The supabase-target migration on a real Postgres server, as a hosted project runs it: Supabase's
 * `auth` and `storage` schemas (stand-ins), the migration pushed twice, then clients acting as
 * `anon` / `authenticated` with Supabase's JWT claims (`request.jwt.claims` {sub, role} and
 * `set local role`, which is what PostgREST and the Storage API do). Checks the Storage policies,
 * the row checks that keep a row from pointing at someone else's object, the Realtime publication,
 * the user administration RPCs, and a compact permission matrix whose expectations come from the
 * spec through the TypeScript evaluator.
 */

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from '../../src/model/resolve.ts';
import { tableName } from '../../src/naming.ts';
import type { AppSpec, FieldSpec } from '../../src/spec/types.ts';
import { fileSizeLimit } from '../../src/sql/emitStorage.ts';
import { adminRoles } from '../../src/sql/specModel.ts';
import { createServerDb, serverAvailable } from '../../src/sql/testing/pgDb.ts';
import { dbError, expectDbError, type Queryable, type TestDb } from '../../src/sql/testing/testDb.ts';
import { createUser } from '../../src/sql/testing/users.ts';
import {
  APPS,
  columnToField,
  type FieldRow,
  type Snapshot,
  snapshot,
  specAllows,
  tableSql,
} from '../enforcement/support/model.ts';
import {
  rolledBack,
  type Seed,
  type SeedUser,
  seedRows,
  seedUsers,
  trial,
} from '../enforcement/support/seed.ts';
import { applyHosted, catalogueFingerprint } from './hostedDb.ts';

const hasServer = await serverAvailable();
if (!hasServer && process.env.CI === 'true')
  throw new Error('supabaseMigration.server.test: CI=true but no Postgres server answers at DATABASE_URL');
if (!hasServer) console.warn('supabaseMigration.server.test: no Postgres server at DATABASE_URL, skipped');

type Outcome = 'ok' | 'denied' | 'error';

function outcome(r: { ok: true; value: number } | { ok: false; error: unknown }): {
  kind: Outcome;
  why: string;
} {
  if (r.ok) return r.value > 0 ? { kind: 'ok', why: 'ok' } : { kind: 'denied', why: 'no row (RLS)' };
  const e = dbError(r.error);
  if (e.code === '42501' || e.message === 'FIELD_NOT_WRITABLE')
    return { kind: 'denied', why: `${e.code} ${e.message}` };
  return { kind: 'error', why: `${e.code ?? ''} ${e.message}` };
}

interface Actor {
  label: string;
  id: string | null;
  roles: readonly string[];
}

const userOf = (a: Actor) => (a.id === null ? null : { id: a.id, roles: a.roles });

/** As a client, in a transaction that is always rolled back. */
function asClient<T>(db: TestDb, a: Actor, fn: (q: Queryable) => Promise<T>): Promise<T> {
  return rolledBack((run) => db.asUser(a.id, run), fn);
}

function filesEntities(spec: AppSpec): string[] {
  return Object.entries(spec.entities)
    .filter(([, e]) => e.files)
    .map(([n]) => n);
}

/** At most `n` items, spread over the list. */
function sample<T>(items: readonly T[], n: number): T[] {
  const step = Math.max(1, Math.ceil(items.length / n));
  return items.filter((_, i) => i % step === 0);
}

/** A different valid-looking value for a field (undefined: not tried, e.g. references). */
function changed(f: FieldSpec, old: unknown): unknown {
  switch (f.type) {
    case 'text':
    case 'longtext':
      return `Changed by the hosted matrix (${String(old ?? '').length})`;
    case 'email':
      return `changed.${String(old ?? 'x').length}@example.com`;
    case 'boolean':
      return !old;
    case 'number':
    case 'integer':
    case 'money':
      return Number(old ?? 0) + 1;
    case 'enum':
      return f.values?.find((v) => v !== old);
    case 'date':
      return new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    case 'datetime':
      return new Date(Date.now() + 86_400_000).toISOString();
    default:
      return undefined;
  }
}

function report(mismatches: string[]): string {
  return `${mismatches.length} mismatches:\n${mismatches.slice(0, 20).join('\n')}`;
}

describe.skipIf(!hasServer).each(APPS)('supabase target on the server: $name', ({ spec }) => {
  let db: TestDb;
  let first: string[];
  let second: string[];
  let seed: Seed;
  let actors: Actor[];
  let snap: Snapshot;

  beforeAll(async () => {
    db = await createServerDb();
    await applyHosted(db, spec);
    first = await catalogueFingerprint(db);
    await applyHosted(db, spec);
    second = await catalogueFingerprint(db);
    const users: SeedUser[] = await seedUsers(db, spec, 'hosted');
    seed = await seedRows(db, spec, users);
    actors = [...users, { label: 'anon', id: null, roles: [] }];
    // Every file row points at its object; every other file row has its bytes uploaded (as the owner).
    // Triggers off for this setup only: seeds include rows under closed parents, which the
    // validation rules (rightly) keep anyone from changing.
    await db.asOwner(async (q) => {
      await q.query("set local session_replication_role = 'replica'");
      for (const entity of filesEntities(spec))
        for (const row of seed.rows[entity] ?? [])
          await q.query(`update ${tableSql(entity)} set storage_path = $2 where id = $1`, [
            row.id,
            `${row.id}/seed.txt`,
          ]);
    });
    for (const entity of filesEntities(spec)) {
      for (const [i, row] of (seed.rows[entity] ?? []).entries()) {
        if (i % 2 === 0)
          await db.query('insert into storage.objects (bucket_id, name, owner) values ($1, $2, $3)', [
            tableName(entity),
            `${row.id}/seed.txt`,
            row.owner,
          ]);
      }
    }
    snap = await snapshot(db, spec);
  }, 120_000);

  afterAll(async () => {
    await db?.close();
  });

  it('runs twice, and the second run changes nothing', () => {
    expect(first.length).toBeGreaterThan(100);
    expect(second).toEqual(first);
    const buckets = first.filter((x) => x.startsWith('bucket '));
    expect(buckets).toEqual(
      filesEntities(spec).map(
        (e) => `bucket ${tableName(e)} ${tableName(e)} false ${fileSizeLimit(resolve(spec), e) ?? '-'}`,
      ),
    );
  });

  it('turns JIT off for the roles PostgREST runs requests as (their settings, as it applies them)', async () => {
    const r = await db.query<{ rolname: string; rolconfig: string[] | null }>(
      `select rolname, rolconfig from pg_catalog.pg_roles where rolname in ('anon', 'authenticated') order by 1`,
    );
    expect(r.rows.map((x) => [x.rolname, x.rolconfig?.includes('jit=off')])).toEqual([
      ['anon', true],
      ['authenticated', true],
    ]);
  });

  it('publishes exactly the live tables to supabase_realtime', async () => {
    const live = Object.entries(spec.entities)
      .filter(([, e]) => e.live)
      .map(([n]) => tableName(n));
    expect(live.length).toBeGreaterThan(0);
    const r = await db.query<{ t: string }>(
      `select tablename as t from pg_publication_tables where pubname = 'supabase_realtime' and schemaname = 'public'`,
    );
    expect(r.rows.map((x) => x.t).sort()).toEqual([...live].sort());
  });

  it('keeps file rows in their own folder, one row per object', async () => {
    for (const entity of filesEntities(spec)) {
      const [a, b] = seed.rows[entity] ?? [];
      if (!a || !b) throw new Error(`no seeded ${entity} rows`);
      const own = await expectDbError(() =>
        db.query(`update ${tableSql(entity)} set storage_path = $2 where id = $1`, [
          b.id,
          `${a.id}/seed.txt`,
        ]),
      );
      expect(own.code).toBe('23514');
      expect(own.constraint).toBe(`${tableName(entity)}__storage_path__own_folder`);
      const limit = fileSizeLimit(resolve(spec), entity);
      expect(limit).toBeGreaterThan(0);
    }
  });

  it('lets objects be read, uploaded and removed only as the file rows allow (storage policies)', async () => {
    const mismatches: string[] = [];
    const tally: Record<string, number> = {};
    for (const actor of actors) {
      await asClient(db, actor, async (q) => {
        for (const entity of filesEntities(spec)) {
          const bucket = tableName(entity);
          for (const [i, row] of (seed.rows[entity] ?? []).entries()) {
            const fields = snap.get(entity, row.id) as FieldRow;
            const can = (action: 'read' | 'create' | 'delete') =>
              specAllows(spec, entity, action, fields, userOf(actor), snap);
            const path = `${row.id}/seed.txt`;
            const check = (what: string, expected: boolean, got: { kind: Outcome; why: string }) => {
              const key = `${what}:${got.kind}`;
              tally[key] = (tally[key] ?? 0) + 1;
              if (got.kind === 'error' || (got.kind === 'ok') !== expected)
                mismatches.push(
                  `${actor.label} ${what} ${row.label}: expected ${expected ? 'ok' : 'denied'}, got ${got.why}`,
                );
            };
            if (i % 2 === 0) {
              const seen = await q.query(
                'select id from storage.objects where bucket_id = $1 and name = $2',
                [bucket, path],
              );
              check('read', can('read'), {
                kind: seen.rows.length > 0 ? 'ok' : 'denied',
                why: `${seen.rows.length} rows`,
              });
              const del = await trial(
                q,
                async () =>
                  (
                    await q.query(
                      'delete from storage.objects where bucket_id = $1 and name = $2 returning id',
                      [bucket, path],
                    )
                  ).rows.length,
              );
              check('delete', can('read') && can('delete'), outcome(del));
            } else {
              const ins = await trial(
                q,
                async () =>
                  (
                    await q.query(
                      'insert into storage.objects (bucket_id, name, owner) values ($1, $2, auth.uid()) returning id',
                      [bucket, path],
                    )
                  ).rows.length,
              );
              check('upload', can('read') && can('create'), outcome(ins));
            }
          }
        }
        return null;
      });
    }
    expect(mismatches, report(mismatches)).toEqual([]);
    // Both outcomes occur for every operation, or the matrix proves little.
    for (const what of ['read', 'delete', 'upload'])
      for (const kind of ['ok', 'denied'])
        expect(tally[`${what}:${kind}`], `${what} ${kind}`).toBeGreaterThan(0);
  });

  it('refuses user administration to non-admins and serves admins (admin_list_users, set_roles)', async () => {
    const admin = actors.find((a) => a.roles.some((r) => adminRoles(resolve(spec)).includes(r)));
    const others = actors.filter(
      (a) => a.id !== null && !a.roles.some((r) => adminRoles(resolve(spec)).includes(r)),
    );
    const anon = actors.find((a) => a.id === null);
    if (!admin || !anon || others.length === 0) throw new Error('seed lacks an admin, a non-admin or anon');
    const target = others[0] as Actor;

    for (const who of others) {
      const list = await expectDbError(() =>
        asClient(db, who, (q) => q.query('select * from public.admin_list_users()')),
      );
      expect([list.code, list.message], who.label).toEqual(['P0001', 'FORBIDDEN']);
      const set = await expectDbError(() =>
        asClient(db, who, (q) =>
          q.query('select public.set_roles($1, $2)', [who.id, adminRoles(resolve(spec))]),
        ),
      );
      expect([set.code, set.message], who.label).toEqual(['P0001', 'FORBIDDEN']);
    }
    for (const sql of [
      'select * from public.admin_list_users()',
      `select public.set_roles('${randomUUID()}', array[]::text[])`,
    ]) {
      const e = await expectDbError(() => asClient(db, anon, (q) => q.query(sql)));
      expect(e.code, sql).toBe('42501');
    }

    const listed = await asClient(db, admin, (q) =>
      q.query<{ id: string; email: string; roles: string[] }>(
        'select id, email, roles, created_at from public.admin_list_users()',
      ),
    );
    expect(listed.rows.length).toBe(actors.length - 1);
    expect(listed.rows.find((u) => u.id === admin.id)?.roles).toEqual([...admin.roles].sort());
    expect(listed.rows.find((u) => u.id === target.id)?.email).toMatch(/@example\.com$/);

    const roleNames = Object.keys(spec.roles.roles);
    const want = roleNames.filter((r) => !adminRoles(resolve(spec)).includes(r)).slice(0, 2);
    const rolesOf = async (id: string | null) =>
      (
        await db.query<{ role: string }>('select role from app.user_roles where user_id = $1 order by role', [
          id,
        ])
      ).rows.map((r) => r.role);
    await db.asUser(admin.id, (q) => q.query('select public.set_roles($1, $2)', [target.id, want]));
    expect(await rolesOf(target.id)).toEqual([...want].sort());
    // Atomic: an unknown role fails the whole call, nothing of it stays.
    const bad = await expectDbError(() =>
      db.asUser(admin.id, (q) => q.query('select public.set_roles($1, $2)', [target.id, ['wizard']])),
    );
    expect(bad.code).toBe('23514');
    expect(await rolesOf(target.id)).toEqual([...want].sort());
    const missing = await expectDbError(() =>
      asClient(db, admin, (q) => q.query('select public.set_roles($1, $2)', [randomUUID(), want])),
    );
    expect(missing.message).toBe('NOT_FOUND');
    await db.asUser(admin.id, (q) => q.query('select public.set_roles($1, $2)', [target.id, target.roles]));
    expect(await rolesOf(target.id)).toEqual([...target.roles].sort());
  });

  it('enforces read, create, update and delete per role as the spec says (compact matrix)', async () => {
    const mismatches: string[] = [];
    const tally: Record<string, number> = {};
    const note = (action: string, kind: Outcome) => {
      tally[`${action}:${kind}`] = (tally[`${action}:${kind}`] ?? 0) + 1;
    };
    const insertable = new Map<string, string[]>();
    const updatable = new Map<string, string[]>();
    for (const entity of Object.keys(spec.entities)) {
      const cols = async (privilege: string) =>
        (
          await db.query<{ c: string }>(
            `select column_name as c from information_schema.column_privileges
             where grantee = 'authenticated' and table_schema = 'public' and table_name = $1 and privilege_type = $2 order by c`,
            [tableName(entity), privilege],
          )
        ).rows.map((r) => r.c);
      insertable.set(entity, await cols('INSERT'));
      updatable.set(entity, await cols('UPDATE'));
    }
    const raw = new Map<string, Record<string, unknown>>();
    for (const entity of Object.keys(spec.entities))
      for (const r of (await db.query<Record<string, unknown>>(`select * from ${tableSql(entity)}`)).rows)
        raw.set(String(r.id), r);

    for (const actor of actors) {
      await asClient(db, actor, async (q) => {
        for (const entity of Object.keys(spec.entities)) {
          const rows = sample(seed.rows[entity] ?? [], 10);
          // anon has no privileges at all: its select fails, which is "nothing visible".
          const listed = await trial(
            q,
            async () => (await q.query<{ id: string }>(`select id from ${tableSql(entity)}`)).rows,
          );
          const visible = new Set(listed.ok ? listed.value.map((r) => r.id) : []);
          const fieldOf = columnToField(spec, entity);
          const ownerField = Object.entries(spec.entities[entity]?.fields ?? {}).find(
            ([, f]) => f.owner,
          )?.[0];
          const st = spec.states[entity];
          for (const row of rows) {
            const fields = snap.get(entity, row.id) as FieldRow;
            const may = (action: 'read' | 'delete') =>
              specAllows(spec, entity, action, fields, userOf(actor), snap);
            const compare = (action: string, expected: boolean, got: { kind: Outcome; why: string }) => {
              note(action, got.kind);
              if (got.kind !== 'error' && (got.kind === 'ok') !== expected)
                mismatches.push(
                  `${actor.label} ${action} ${row.label}: expected ${expected ? 'ok' : 'denied'}, got ${got.why}`,
                );
            };
            compare('read', may('read'), {
              kind: visible.has(row.id) ? 'ok' : 'denied',
              why: visible.has(row.id) ? 'visible' : 'hidden',
            });

            const del = await trial(
              q,
              async () =>
                (await q.query(`delete from ${tableSql(entity)} where id = $1 returning id`, [row.id])).rows
                  .length,
            );
            compare('delete', may('read') && may('delete'), outcome(del));

            // A change of each column a client may update: privileges, the column rule, USING and WITH CHECK.
            for (const column of updatable.get(entity) ?? []) {
              const field = fieldOf.get(column);
              const f = field === undefined ? undefined : spec.entities[entity]?.fields[field];
              const value = f === undefined || field === undefined ? undefined : changed(f, fields[field]);
              if (field === undefined || value === undefined) continue;
              const upd = await trial(
                q,
                async () =>
                  (
                    await q.query(
                      `update ${tableSql(entity)} set ${column} = $2 where id = $1 returning id`,
                      [row.id, value],
                    )
                  ).rows.length,
              );
              const newRow = { ...fields, [field]: value };
              const expected = specAllows(spec, entity, 'update', fields, userOf(actor), snap, {
                field,
                newRow,
              });
              compare('update', expected, outcome(upd));
            }
          }
          // Create: a copy of each of the first rows with the columns a client may insert; the trigger
          // makes the caller the owner and the row starts in the initial state.
          for (const row of rows.slice(0, 4)) {
            const source = raw.get(row.id) ?? {};
            const id = randomUUID();
            const values: Record<string, unknown> = {};
            for (const c of insertable.get(entity) ?? [])
              values[c] = c === 'id' ? id : c === 'storage_path' ? `${id}/copy.txt` : source[c];
            const newRow: FieldRow = { ...(snap.get(entity, row.id) as FieldRow), id };
            if (ownerField) newRow[ownerField] = actor.id;
            if (st) newRow[st.field] = st.initial;
            const expected = specAllows(spec, entity, 'create', newRow, userOf(actor), snap);
            const cols = Object.keys(values);
            const ins = await trial(
              q,
              async () =>
                (
                  await q.query(
                    `insert into ${tableSql(entity)} (${cols.join(', ')}) values (${cols.map((_, i) => `$${i + 1}`).join(', ')}) returning id`,
                    Object.values(values),
                  )
                ).rows.length,
            );
            const got = outcome(ins);
            note('create', got.kind);
            if (got.kind !== 'error' && (got.kind === 'ok') !== expected)
              mismatches.push(
                `${actor.label} create copy of ${row.label}: expected ${expected ? 'ok' : 'denied'}, got ${got.why}`,
              );
          }
        }
        return null;
      });
    }
    expect(mismatches, report(mismatches)).toEqual([]);
    for (const action of ['read', 'create', 'update', 'delete'])
      for (const kind of ['ok', 'denied'])
        expect(tally[`${action}:${kind}`], `${action} ${kind}`).toBeGreaterThan(0);
    // Validation and reference errors make a case inconclusive; most cases must be conclusive.
    const errors = Object.entries(tally)
      .filter(([k]) => k.endsWith(':error'))
      .reduce((n, [, v]) => n + v, 0);
    const total = Object.values(tally).reduce((n, v) => n + v, 0);
    expect(errors / total).toBeLessThan(0.2);
  });
});

describe.skipIf(!hasServer)(
  'supabase target on the server: helpdesk attachments, customer against customer',
  () => {
    const spec = APPS.find((a) => a.name === 'helpdesk')?.spec as AppSpec;
    let db: TestDb;
    let alice: string;
    let bob: string;
    let aliceTicket: string;
    let bobTicket: string;

    /** A ticket of `requester`, inserted by the owner (copying nothing but what a ticket requires). */
    async function ticketOf(requester: string): Promise<string> {
      const r = await db.query<{ id: string }>(
        `insert into public.ticket (title, description, requester) values ('Printer on fire', 'It is on fire, please help.', $1) returning id`,
        [requester],
      );
      return r.rows[0]?.id as string;
    }

    const customer = (id: string): Actor => ({ label: 'customer', id, roles: ['customer'] });

    /** A file row of `user`'s: the server picks its id and its object's path (`<id>/<name>`). */
    async function attach(user: string, ticket: string, name = 'a.txt') {
      const r = await db.asUser(user, (q) =>
        q.query<{ id: string; storage_path: string }>(
          `insert into public.attachment (ticket, name, size_bytes, mime_type) values ($1, $2, 4, 'text/plain') returning id, storage_path`,
          [ticket, name],
        ),
      );
      const row = r.rows[0] as { id: string; storage_path: string };
      return { id: row.id, path: row.storage_path };
    }

    const upload = (user: string, path: string) =>
      db.asUser(user, (q) =>
        q.query(
          `insert into storage.objects (bucket_id, name, owner) values ('attachment', $1, auth.uid()) returning id`,
          [path],
        ),
      );

    beforeAll(async () => {
      db = await createServerDb();
      await applyHosted(db, spec);
      alice = await createUser(db, 'alice@example.com', { meta: { name: 'Alice' } });
      bob = await createUser(db, 'bob@example.com', { meta: { name: 'Bob' } });
      aliceTicket = await ticketOf(alice);
      bobTicket = await ticketOf(bob);
    }, 60_000);

    afterAll(async () => {
      await db?.close();
    });

    it('lets a customer upload the object of their own attachment, and read it; not another customer', async () => {
      const { id, path } = await attach(alice, aliceTicket);
      expect(path).toBe(`${id}/a.txt`);
      expect((await upload(alice, path)).rows).toHaveLength(1);
      const read = (who: string) =>
        asClient(db, customer(who), (q) =>
          q.query(`select name from storage.objects where bucket_id = 'attachment' and name = $1`, [path]),
        );
      expect((await read(alice)).rows).toHaveLength(1);
      expect((await read(bob)).rows).toHaveLength(0);
      // Not even by listing the bucket.
      const all = await asClient(db, customer(bob), (q) => q.query(`select name from storage.objects`));
      expect(all.rows).toHaveLength(0);
      // Nor remove it, nor upload into a folder of a row that is not theirs.
      const removed = await db.asUser(bob, (q) =>
        q.query(`delete from storage.objects where name = $1 returning id`, [path]),
      );
      expect(removed.rows).toHaveLength(0);
      const into = await expectDbError(() => upload(bob, `${id}/other.txt`));
      expect(into.code).toBe('42501');
      // Anonymous callers see nothing.
      const anon = await asClient(db, { label: 'anon', id: null, roles: [] }, (q) =>
        q.query(`select name from storage.objects`),
      );
      expect(anon.rows).toHaveLength(0);
    });

    it("does not let a customer point a row at another customer's object", async () => {
      const { id, path } = await attach(alice, aliceTicket, 'secret.txt');
      await upload(alice, path);
      // Neither the path nor the id is a client's to give (column privileges).
      const other = await expectDbError(() =>
        db.asUser(bob, (q) =>
          q.query(
            `insert into public.attachment (ticket, name, size_bytes, mime_type, storage_path) values ($1, 'a.txt', 4, 'text/plain', $2)`,
            [bobTicket, path],
          ),
        ),
      );
      expect(other.code).toBe('42501');
      const same = await expectDbError(() =>
        db.asUser(bob, (q) =>
          q.query(
            `insert into public.attachment (id, ticket, name, size_bytes, mime_type) values ($1, $2, 'secret.txt', 4, 'text/plain')`,
            [id, bobTicket],
          ),
        ),
      );
      expect(same.code).toBe('42501');
      // The owner may set a path, but only into the row's own folder.
      const mine = await attach(bob, bobTicket);
      const moved = await expectDbError(() =>
        db.query('update public.attachment set storage_path = $2 where id = $1', [mine.id, path]),
      );
      expect([moved.code, moved.constraint]).toEqual(['23514', 'attachment__storage_path__own_folder']);
      // An object for a path no row has yet: refused.
      const orphanUpload = await expectDbError(() => upload(bob, `${randomUUID()}/x.txt`));
      expect(orphanUpload.code).toBe('42501');
    });

    it('does not let a new row adopt the object a deleted row left behind', async () => {
      const { id, path } = await attach(alice, aliceTicket, 'left-behind.txt');
      await upload(alice, path);
      // The row goes (as a cascade would), the object stays; a row under the same id comes back
      // (only the owner can choose ids).
      await db.query('delete from public.attachment where id = $1', [id]);
      await db.query(
        `insert into public.attachment (id, ticket, name, size_bytes, mime_type, uploaded_by) values ($1, $2, 'left-behind.txt', 4, 'text/plain', $3)`,
        [id, bobTicket, bob],
      );
      const seen = await asClient(db, customer(bob), (q) =>
        q.query(`select name from storage.objects where bucket_id = 'attachment' and name = $1`, [path]),
      );
      expect(seen.rows).toHaveLength(0);
    });

    it('lets the uploader remove the object while the ticket is open', async () => {
      const { path } = await attach(alice, aliceTicket, 'b.txt');
      await upload(alice, path);
      const removed = await db.asUser(alice, (q) =>
        q.query(`delete from storage.objects where name = $1 returning id`, [path]),
      );
      expect(removed.rows).toHaveLength(1);
    });

    it('finding 9: deleting a file row, or the row it hangs on, queues its Storage object for removal (service role only)', async () => {
      const ticket = await ticketOf(alice);
      const [own, viaTicket, gone] = [
        (await attach(alice, aliceTicket, 'f.txt')).id,
        (await attach(alice, ticket, 'f.txt')).id,
        (await attach(alice, ticket, 'f.txt')).id,
      ] as [string, string, string];
      // Earlier tests of this block left their own entries; only this test's paths are compared.
      const mine = (p: string) => [own, viaTicket, gone].some((id) => p.startsWith(`${id}/`));
      const queued = async () =>
        (
          await db.query<{ path: string }>(`select path from app.file_removals where bucket = 'attachment'`)
        ).rows
          .map((r) => r.path)
          .filter(mine)
          .sort();
      for (const id of [own, viaTicket, gone]) await upload(alice, `${id}/f.txt`);
      // The files port removes the object first: nothing is left to queue.
      await db.asUser(alice, (q) =>
        q.query('delete from storage.objects where name = $1', [`${gone}/f.txt`]),
      );
      await db.query('delete from public.attachment where id = $1', [gone]);
      // A row deleted straight through the API, and one removed by its ticket's cascade.
      await db.asUser(alice, (q) => q.query('delete from public.attachment where id = $1', [own]));
      await db.query('delete from public.ticket where id = $1', [ticket]);
      expect(await queued()).toEqual([`${own}/f.txt`, `${viaTicket}/f.txt`].sort());
      // Clients neither see nor take the queue.
      const look = await expectDbError(() =>
        db.asUser(alice, (q) => q.query('select * from app.file_removals')),
      );
      expect(look.code).toBe('42501');
      const take = await expectDbError(() =>
        db.asUser(alice, (q) => q.query('select * from public.ninefold_file_removals()')),
      );
      expect(take.code).toBe('42501');
      // The trusted deliverer takes them once (leased); a removed object leaves the queue, a failed
      // removal stays for a retry (storageRemovals.no-live-project.test.ts runs the deliverer).
      const asService = <T>(sql: string, params: unknown[] = []) =>
        db.asOwner(async (q) => {
          await q.query('set local role service_role');
          return (await q.query<T>(sql, params)).rows;
        });
      const taken = await asService<{ path: string }>('select path from public.ninefold_file_removals(10)');
      expect(
        taken
          .map((r) => r.path)
          .filter(mine)
          .sort(),
      ).toEqual([`${own}/f.txt`, `${viaTicket}/f.txt`].sort());
      expect(
        (await asService<{ path: string }>('select path from public.ninefold_file_removals(10)')).filter(
          (r) => mine(r.path),
        ),
      ).toEqual([]);
      await asService(`select public.ninefold_file_removed('attachment', $1)`, [`${viaTicket}/f.txt`]);
      await asService(`select public.ninefold_file_removal_failed('attachment', $1, 'HTTP 503')`, [
        `${own}/f.txt`,
      ]);
      expect(await queued()).toEqual([`${own}/f.txt`]);
    });

    it('finding 9: a storage path is exactly <own id>/<name>: `..`, nested folders, backslashes and absolute paths are refused', async () => {
      // The server writes the path from the name, kept to characters Storage accepts.
      for (const name of ['..', '.', '../x.txt', 'sub/x.txt', 'a\\..\\b.txt', '/x.txt']) {
        const { id, path } = await attach(alice, aliceTicket, name);
        expect(path.split('/'), name).toHaveLength(2);
        expect(path.startsWith(`${id}/`), name).toBe(true);
        expect(['.', '..'], name).not.toContain(path.split('/')[1]);
      }
      // Set otherwise (by the owner), the CHECK still holds the path to the row's own folder.
      const { id } = await attach(alice, aliceTicket);
      for (const tail of ['..', '.', '../x.txt', 'sub/x.txt', 'a\\..\\b.txt', '/x.txt']) {
        const e = await expectDbError(() =>
          db.query('update public.attachment set storage_path = $2 where id = $1', [id, `${id}/${tail}`]),
        );
        expect([e.code, e.constraint], tail).toEqual(['23514', 'attachment__storage_path__own_folder']);
      }
      const e = await expectDbError(() =>
        db.query('update public.attachment set storage_path = $2 where id = $1', [id, `/${id}/x.txt`]),
      );
      expect([e.code, e.constraint]).toEqual(['23514', 'attachment__storage_path__own_folder']);
    });
  },
);
