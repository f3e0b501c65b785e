/**
 * What a hostile client tries, as a Supabase client (JWT claims + `set local role`), never as the
 * owner: rewriting owner and status columns, granting itself roles, probing hidden rows through
 * foreign keys, unique values and counts, calling functions as anon, and hostile text in every
 * writable text field. Also hostile names in a specification (validator and SQL quoting).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateSpec } from '../../src/check/validateSpec.ts';
import { transitionFunctionName } from '../../src/naming.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import { compileMigration } from '../../src/sql/compileMigration.ts';
import { constraintCatalogue } from '../../src/sql/constraintNames.ts';
import { quoteIdent } from '../../src/sql/quote.ts';
import {
  type DbErrorInfo,
  dbError,
  expectDbError,
  type Queryable,
  type TestDb,
} from '../../src/sql/testing/testDb.ts';
import { createUser } from '../../src/sql/testing/users.ts';
import { enforcementBackends } from './support/backends.ts';
import {
  APPS,
  caseCounter,
  columnSql,
  type FieldRow,
  type Snapshot,
  snapshot,
  specAllows,
  tableSql,
  updateFields,
} from './support/model.ts';
import {
  freshenGuardTimes,
  rolledBack,
  type Seed,
  type SeedUser,
  seedRows,
  seedUsers,
  trial,
} from './support/seed.ts';

const backends = await enforcementBackends('attacks.test');
const counter = caseCounter();
afterAll(async () => {
  counter.print('attacks');
  for (const b of backends) await b.closeAll();
});

const HOSTILE = [
  "'; drop table ticket; --",
  'Robert"); drop table person;--',
  '$$ language sql $$',
  '$fn$; select 1; $fn$',
  'back\\slash \\\\ \\x00 \\n',
  '%s %d {placeholder} $' + '{x}',
  'emoji 🎫 and ünïcödé and right-to-left \u202e',
  ' ',
  'x'.repeat(100_000),
];

function userOf(u: { id: string } | null, snap: Snapshot): { id: string; roles: readonly string[] } | null {
  return u ? { id: u.id, roles: snap.rolesOf(u.id) } : null;
}

/** The same error, ignoring the probed id wherever it appears. */
function shape(e: DbErrorInfo, ids: readonly string[]): string {
  let s = JSON.stringify({
    code: e.code,
    message: e.message,
    detail: e.detail ?? null,
    constraint: e.constraint ?? null,
  });
  for (const id of ids) s = s.replaceAll(id, '<id>');
  return s;
}

describe.each(backends)('attacks on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => {});
    return;
  }
  for (const app of APPS) {
    describe(app.name, () => {
      const spec = app.spec;
      let db: TestDb;
      let users: SeedUser[];
      let seed: Seed;
      let snap: Snapshot;
      const admins = () => users.filter((u) => spec.roles.permissions[u.label] && isAdminRole(spec, u.label));

      beforeAll(async () => {
        db = await backend.open(spec);
        users = await seedUsers(db, spec, 'attack');
        seed = await seedRows(db, spec, users);
        await freshenGuardTimes(db, spec);
        snap = await snapshot(db, spec);
      }, 120_000);
      afterAll(async () => {
        if (db) await backend.release(db);
      });

      it('cannot write the bookkeeping columns (id, createdAt, updatedAt, version)', async () => {
        let cases = 0;
        const values: Record<string, unknown> = {
          id: crypto.randomUUID(),
          createdAt: '2000-01-01T00:00:00Z',
          updatedAt: '2000-01-01T00:00:00Z',
          version: 999,
        };
        for (const entity of Object.keys(spec.entities))
          for (const u of users) {
            const own = (seed.rows[entity] ?? []).find((r) => r.owner === u.id) ?? seed.rows[entity]?.[0];
            if (!own) continue;
            for (const [field, value] of Object.entries(values)) {
              const col = columnSql(spec, entity, field);
              const e = await expectDbError(() =>
                db.asUser(u.id, (q) =>
                  q.query(`update ${tableSql(entity)} set ${col} = $2 where id = $1`, [own.id, value]),
                ),
              );
              expect(e.code, `${u.label} ${entity}.${field}`).toBe('42501');
              cases++;
              if (field !== 'id') {
                const e2 = await expectDbError(() =>
                  db.asUser(u.id, (q) =>
                    q.query(`insert into ${tableSql(entity)} (${col}) values ($1)`, [value]),
                  ),
                );
                expect(e2.code, `${u.label} insert ${entity}.${field}`).toBe('42501');
                cases++;
              }
            }
          }
        // Positive control: the rows keep their bookkeeping.
        const odd = await db.query<{ n: number }>(
          `select count(*)::int as n from ${tableSql(Object.keys(spec.entities)[0] as string)} where version = 999 or created_at < '2001-01-01'`,
        );
        expect(odd.rows[0]?.n).toBe(0);
        counter.add(`${app.name} on ${backend.name}`, cases);
      });

      it('cannot rewrite an owner field, on insert or update, even on an own row', async () => {
        let cases = 0;
        for (const [entity, e] of Object.entries(spec.entities)) {
          const owners = Object.entries(e.fields)
            .filter(([, f]) => f.owner)
            .map(([n]) => n);
          if (e.profile) owners.push('id');
          for (const field of owners)
            for (const u of users) {
              const own = (seed.rows[entity] ?? []).find((r) => r.owner === u.id);
              const other = users.find((x) => x.id !== u.id);
              if (!own || !other) continue;
              const e1 = await expectDbError(() =>
                db.asUser(u.id, (q) =>
                  q.query(
                    `update ${tableSql(entity)} set ${columnSql(spec, entity, field)} = $2 where id = $1`,
                    [own.id, other.id],
                  ),
                ),
              );
              expect(['42501', 'P0001'], `${u.label} ${entity}.${field}: ${e1.message}`).toContain(e1.code);
              if (e1.code === 'P0001') expect(e1.message).toBe('FIELD_NOT_WRITABLE');
              cases++;
              const e2 = await expectDbError(() =>
                db.asUser(u.id, (q) =>
                  q.query(`insert into ${tableSql(entity)} (${columnSql(spec, entity, field)}) values ($1)`, [
                    other.id,
                  ]),
                ),
              );
              expect(e2.code, `${u.label} insert ${entity}.${field}`).toBe('42501');
              cases++;
            }
          // Positive control: the owner field did not move.
          const moved = await db.query<{ n: number }>(
            `select count(*)::int as n from ${tableSql(entity)} where id = any ($1::uuid[])`,
            [(seed.rows[entity] ?? []).map((r) => r.id)],
          );
          expect(moved.rows[0]?.n).toBe((seed.rows[entity] ?? []).length);
        }
        counter.add(`${app.name} on ${backend.name}`, cases);
      });

      it('cannot grant itself a role: table, RPC, sign-up metadata, auth.users', async () => {
        let cases = 0;
        const roles = Object.keys(spec.roles.roles);
        const nonAdmins = users.filter((u) => !admins().includes(u));
        for (const u of nonAdmins)
          for (const role of roles) {
            const e1 = await expectDbError(() =>
              db.asUser(u.id, (q) =>
                q.query('insert into app.user_roles (user_id, role) values ($1, $2)', [u.id, role]),
              ),
            );
            expect(e1.code, `${u.label} insert ${role}`).toBe('42501');
            const e2 = await expectDbError(() =>
              db.asUser(u.id, (q) => q.query('select public.grant_role($1, $2)', [u.id, role])),
            );
            expect(e2.message).toBe('FORBIDDEN');
            const e3 = await expectDbError(() =>
              db.asUser(u.id, (q) =>
                q.query('update app.user_roles set role = $2 where user_id = $1', [u.id, role]),
              ),
            );
            expect(e3.code).toBe('42501');
            cases += 3;
          }
        for (const u of nonAdmins) {
          const e4 = await expectDbError(() =>
            db.asUser(u.id, (q) =>
              q.query(
                `update auth.users set raw_user_meta_data = '{"roles":["admin"]}', raw_app_meta_data = '{"role":"admin"}' where id = $1`,
                [u.id],
              ),
            ),
          );
          expect(e4.code).toBe('42501');
          const mine = await db.asUser(u.id, (q) =>
            q.query<{ r: string[] }>('select public.my_roles() as r'),
          );
          expect(
            mine.rows[0]?.r.some(
              (r) => !snap.rolesOf(u.id).includes(r) && !inherited(spec, snap.rolesOf(u.id), r),
            ),
          ).toBe(false);
          cases += 2;
        }
        // Sign-up with every role in user metadata (and app metadata): only the sign-up roles.
        const signup = roles.filter((r) => spec.roles.roles[r]?.signup);
        const id = await createUser(db, 'mallory@example.com', {
          meta: { role: roles.at(-1), roles, app_metadata: { roles } },
        });
        await db.query(`update auth.users set raw_app_meta_data = $2 where id = $1`, [
          id,
          JSON.stringify({ roles }),
        ]);
        const got = await db.query<{ role: string }>(
          'select role from app.user_roles where user_id = $1 order by role',
          [id],
        );
        expect(got.rows.map((r) => r.role)).toEqual([...signup].sort());
        cases++;
        // Positive control: an admin can grant.
        const admin = admins()[0];
        if (admin) {
          await db.asUser(admin.id, (q) => q.query('select public.grant_role($1, $2)', [id, roles[0]]));
          const after = await db.query('select 1 from app.user_roles where user_id = $1 and role = $2', [
            id,
            roles[0],
          ]);
          expect(after.rows).toHaveLength(1);
        }
        counter.add(`${app.name} on ${backend.name}`, cases);
      });

      it('cannot write the status column: not on insert, not on update', async () => {
        let cases = 0;
        for (const [entity, st] of Object.entries(spec.states)) {
          for (const u of users) {
            const own = (seed.rows[entity] ?? []).find((r) => r.owner === u.id && r.state === st.initial);
            if (!own) continue;
            for (const state of Object.keys(st.states)) {
              if (state !== st.initial) {
                const e = await expectDbError(() =>
                  db.asUser(u.id, (q) =>
                    q.query(
                      `insert into ${tableSql(entity)} (${columnSql(spec, entity, st.field)}) values ($1)`,
                      [state],
                    ),
                  ),
                );
                expect(e.code).toBe('42501');
                cases++;
              }
              const e2 = await expectDbError(() =>
                db.asUser(u.id, (q) =>
                  q.query(
                    `update ${tableSql(entity)} set ${columnSql(spec, entity, st.field)} = $2 where id = $1`,
                    [own.id, state],
                  ),
                ),
              );
              expect(['42501', 'P0001']).toContain(e2.code);
              cases++;
            }
          }
          const states = await db.query<{ n: number }>(
            `select count(*)::int as n from ${tableSql(entity)} where ${columnSql(spec, entity, st.field)} = $1`,
            [st.initial],
          );
          expect(states.rows[0]?.n).toBe(
            (seed.rows[entity] ?? []).filter((r) => r.state === st.initial).length,
          );
        }
        counter.add(`${app.name} on ${backend.name}`, cases);
      });

      it('cannot pre-fill on create the fields only transitions write (their inputs and set fields)', async () => {
        let cases = 0;
        for (const [entity, st] of Object.entries(spec.states)) {
          const e = spec.entities[entity];
          if (!e) continue;
          const updatable = new Set(updateFields(spec, entity));
          const transitionOnly = new Set(
            Object.values(st.transitions).flatMap((t) => [...(t.input ?? []), ...Object.keys(t.set ?? {})]),
          );
          for (const field of [...transitionOnly].filter((f) => !updatable.has(f))) {
            const f = e.fields[field];
            if (!f) continue;
            const value =
              f.type === 'user'
                ? users[0]?.id
                : f.type === 'datetime'
                  ? new Date().toISOString()
                  : ['number', 'integer', 'money'].includes(f.type)
                    ? 1
                    : 'Pre-filled by the client';
            for (const u of users) {
              const creates = Object.values(spec.roles.permissions).some((p) => p[entity]?.create);
              if (!creates) continue;
              const err = await expectDbError(() =>
                db.asUser(u.id, (q) =>
                  q.query(`insert into ${tableSql(entity)} (${columnSql(spec, entity, field)}) values ($1)`, [
                    value,
                  ]),
                ),
              );
              expect(err.code, `${u.label} pre-fills ${entity}.${field}: ${err.message}`).toBe('42501');
              cases++;
            }
          }
        }
        counter.add(`${app.name} on ${backend.name}`, cases);
      });

      it('cannot tell a hidden referenced row from a missing one (foreign-key probing)', async () => {
        let cases = 0;
        const leaks: string[] = [];
        for (const [entity, e] of Object.entries(spec.entities)) {
          const refs = Object.entries(e.fields).filter(([, f]) => f.type === 'ref' && f.ref);
          for (const [field, f] of refs) {
            const parent = f.ref as string;
            for (const u of users) {
              const user = userOf(u, snap);
              const hidden = (seed.rows[parent] ?? []).filter(
                (p) => !specAllows(spec, parent, 'read', snap.get(parent, p.id) as FieldRow, user, snap),
              );
              // A template row of the entity the user could have made: its values, the ref replaced.
              const template =
                (seed.rows[entity] ?? []).find((r) => r.owner === u.id) ?? seed.rows[entity]?.[0];
              if (!template) continue;
              const row = snap.get(entity, template.id) as FieldRow;
              const values: Record<string, unknown> = {};
              for (const [name, g] of Object.entries(e.fields))
                if (!g.owner && name !== spec.states[entity]?.field && row[name] != null && g.type !== 'user')
                  values[name] = row[name];
              if (e.files) Object.assign(values, { name: 'probe.txt', size: 0, type: 'text/plain' });
              const attempt = (id: string) =>
                expectDbError(() =>
                  db.asUser(u.id, (q) => {
                    const v = { ...values, [field]: id };
                    const cols = Object.keys(v).map((k) => columnSql(spec, entity, k));
                    return q.query(
                      `insert into ${tableSql(entity)} (${cols.join(', ')}) values (${cols.map((_, i) => `$${i + 1}`).join(', ')})`,
                      Object.values(v),
                    );
                  }),
                ).catch((err: unknown) => ({ code: 'none', message: String(err) }) as DbErrorInfo);
              for (const h of hidden.slice(0, 6)) {
                const missing = crypto.randomUUID();
                const a = await attempt(h.id);
                const b = await attempt(missing);
                cases++;
                if (shape(a, [h.id]) !== shape(b, [missing]))
                  leaks.push(
                    `${u.label} ${entity}.${field} -> hidden ${h.label}: ${shape(a, [h.id])} vs missing: ${shape(b, [missing])}`,
                  );
              }
            }
          }
        }
        counter.add(`${app.name} on ${backend.name}`, cases);
        expect(leaks).toEqual([]);
      });

      it('unique probing: the error names the constraint and carries no data of the hidden row', async () => {
        // Postgres checks uniqueness over all rows, so a duplicate value reveals that some row has it;
        // what must not leak is anything else of that row (its id, its other columns).
        let cases = 0;
        for (const [entity, e] of Object.entries(spec.entities))
          for (const [field, f] of Object.entries(e.fields)) {
            if (!f.unique) continue;
            const fieldsOf = updateFields(spec, entity);
            if (!fieldsOf.includes(field)) continue;
            for (const u of users) {
              const user = userOf(u, snap);
              for (const target of seed.rows[entity] ?? []) {
                const old = snap.get(entity, target.id) as FieldRow;
                const victim = (seed.rows[entity] ?? []).find((r) => r.id !== target.id);
                if (!victim) continue;
                const value = (snap.get(entity, victim.id) as FieldRow)[field];
                if (value == null) continue;
                if (!specAllows(spec, entity, 'read', old, user, snap)) continue;
                if (
                  !specAllows(spec, entity, 'update', old, user, snap, {
                    field,
                    newRow: { ...old, [field]: value },
                  })
                )
                  continue;
                const err = await expectDbError(() =>
                  db.asUser(u.id, (q) =>
                    q.query(
                      `update ${tableSql(entity)} set ${columnSql(spec, entity, field)} = $2 where id = $1`,
                      [target.id, value],
                    ),
                  ),
                );
                expect(err.code).toBe('23505');
                expect(err.constraint).toBe(
                  `${tableSql(entity).replace('public.', '')}__${columnSql(spec, entity, field)}__unique`,
                );
                expect(`${err.message} ${err.detail ?? ''}`).not.toContain(victim.id);
                cases++;
                break;
              }
            }
          }
        counter.add(`${app.name} on ${backend.name}`, cases);
      });

      it('count(*) counts only the rows the spec lets the caller read', async () => {
        let cases = 0;
        const wrong: string[] = [];
        const now = await snapshot(db, spec); // other tests of this file signed people up
        for (const entity of Object.keys(spec.entities))
          for (const u of [...users, null]) {
            const user = u ? userOf(u, now) : null;
            const expected = now
              .rows(entity)
              .filter((r) => specAllows(spec, entity, 'read', r, user, now)).length;
            const got = await db
              .asUser(u?.id ?? null, (q) =>
                q.query<{ n: number }>(`select count(*)::int as n from ${tableSql(entity)}`),
              )
              .then((r) => r.rows[0]?.n ?? -1)
              .catch((e: unknown) => (dbError(e).code === '42501' ? 0 : -1));
            if (got !== expected)
              wrong.push(`${u?.label ?? 'anon'} count ${entity}: ${got}, expected ${expected}`);
            cases++;
          }
        counter.add(`${app.name} on ${backend.name}`, cases);
        expect(wrong).toEqual([]);
      });

      it('anon may execute no generated function; authenticated none of the internal ones', async () => {
        const fns = await db.query<{
          schema: string;
          name: string;
          args: string;
          types: string[];
          trigger: boolean;
        }>(
          `select n.nspname as schema, p.proname as name, pg_get_function_identity_arguments(p.oid) as args,
                  array(select format_type(t, null) from unnest(p.proargtypes) t) as types,
                  p.prorettype = 'trigger'::regtype as trigger
           from pg_proc p join pg_namespace n on n.oid = p.pronamespace
           where n.nspname in ('public', 'app') order by 1, 2`,
        );
        expect(fns.rows.length).toBeGreaterThan(5);
        const open: string[] = [];
        for (const f of fns.rows) {
          const call = `select ${f.schema}.${f.name}(${f.types.map((t) => `null::${t}`).join(', ')})`;
          const e = await expectDbError(() => db.asUser(null, (q) => q.query(call))).catch(
            () => ({ code: 'none', message: 'succeeded' }) as DbErrorInfo,
          );
          if (e.code !== '42501') open.push(`anon: ${f.schema}.${f.name}(${f.args}): ${e.code} ${e.message}`);
          if (f.trigger) {
            const e2 = await expectDbError(() => db.asUser(users[0]?.id ?? null, (q) => q.query(call))).catch(
              () => ({ code: 'none', message: 'succeeded' }) as DbErrorInfo,
            );
            if (e2.code !== '42501')
              open.push(`authenticated: ${f.schema}.${f.name}: ${e2.code} ${e2.message}`);
          }
        }
        counter.add(`${app.name} on ${backend.name}`, fns.rows.length);
        expect(open).toEqual([]);
        // Positive control: a signed-in user can call the public role RPC.
        await db.asUser(users[0]?.id ?? null, (q) => q.query('select public.my_roles()'));
      });

      it('hostile text as a transition input round-trips exactly or is refused by a catalogue CHECK', async () => {
        const catalogue = constraintCatalogue(spec);
        const problems: string[] = [];
        let cases = 0;
        for (const [entity, st] of Object.entries(spec.states))
          for (const [name, t] of Object.entries(st.transitions)) {
            const textInputs = (t.input ?? []).filter((f) =>
              ['text', 'longtext'].includes(spec.entities[entity]?.fields[f]?.type ?? ''),
            );
            if (textInputs.length === 0) continue;
            const fn = `public.${quoteIdent(transitionFunctionName(entity, name))}`;
            const other = Object.fromEntries(
              (t.input ?? [])
                .filter((f) => !textInputs.includes(f))
                .map((f) => {
                  const type = spec.entities[entity]?.fields[f]?.type;
                  return [
                    f,
                    type === 'user' ? users.at(-2)?.id : new Date(Date.now() + 3_600_000).toISOString(),
                  ];
                }),
            );
            for (const field of textInputs) {
              const col = columnSql(spec, entity, field).replaceAll('"', '');
              let ran = false;
              for (const r of (seed.rows[entity] ?? []).filter((x) => x.state && t.from.includes(x.state)))
                for (const u of users) {
                  if (ran) break;
                  const outcome = await rolledBack(
                    (f2) => db.asUser(u.id, f2),
                    async (q) => {
                      const probe = await trial(q, () =>
                        q.query(`select * from ${fn}($1, null, $2::jsonb)`, [
                          r.id,
                          JSON.stringify({ ...other, [field]: 'A normal input text' }),
                        ]),
                      );
                      if (!probe.ok) return 0;
                      for (const value of [...HOSTILE, 'nul \u0000 inside']) {
                        cases++;
                        const what = `${entity}.${name} ${field} = ${JSON.stringify(value.slice(0, 30))}(${value.length})`;
                        const res = await trial(q, async () => {
                          const row = await q.query<Record<string, unknown>>(
                            `select * from ${fn}($1, null, $2::jsonb)`,
                            [r.id, JSON.stringify({ ...other, [field]: value })],
                          );
                          return row.rows[0]?.[col];
                        });
                        if (res.ok) {
                          if (res.value !== value) problems.push(`${what}: stored differently`);
                          continue;
                        }
                        const err = dbError(res.error);
                        if (value.includes('\u0000')) {
                          if (!['22P05', '22021', '22P02'].includes(err.code ?? ''))
                            problems.push(`${what}: NUL refused with ${err.code} ${err.message}`);
                          continue;
                        }
                        if (value.trim() === '' && err.message === 'INPUT_REQUIRED') continue;
                        const meaning = err.constraint ? catalogue[err.constraint] : undefined;
                        if (err.code !== '23514' || !meaning)
                          problems.push(
                            `${what}: refused with ${err.code} ${err.constraint ?? ''} ${err.message.slice(0, 120)}`,
                          );
                      }
                      return 1;
                    },
                  );
                  if (outcome) ran = true;
                }
              if (!ran) problems.push(`${entity}.${name}: nobody could run it on a seeded row`);
            }
          }
        counter.add(`${app.name} on ${backend.name}`, cases);
        expect(problems).toEqual([]);
      });

      it('hostile text in every writable text field round-trips exactly or is refused by a catalogue CHECK', async () => {
        const catalogue = constraintCatalogue(spec);
        const problems: string[] = [];
        let cases = 0;
        for (const [entity, e] of Object.entries(spec.entities))
          for (const field of updateFields(spec, entity)) {
            const f = e.fields[field];
            if (!f || !['text', 'longtext', 'email'].includes(f.type)) continue;
            // Someone allowed to update this field on some row, by the spec.
            let pick: { user: SeedUser; id: string } | undefined;
            for (const u of users)
              for (const r of seed.rows[entity] ?? []) {
                const old = snap.get(entity, r.id) as FieldRow;
                const user = userOf(u, snap);
                if (
                  !pick &&
                  specAllows(spec, entity, 'read', old, user, snap) &&
                  specAllows(spec, entity, 'update', old, user, snap, {
                    field,
                    newRow: { ...old, [field]: 'x' },
                  })
                )
                  pick = { user: u, id: r.id };
              }
            if (!pick) continue;
            const { user, id } = pick;
            await rolledBack(
              (fn) => db.asUser(user.id, fn),
              async (q: Queryable) => {
                for (const value of [...HOSTILE, 'nul \u0000 inside']) {
                  cases++;
                  const what = `${entity}.${field} = ${JSON.stringify(value.slice(0, 30))}${value.length > 30 ? `…(${value.length})` : ''}`;
                  const r = await trial(q, async () => {
                    await q.query(
                      `update ${tableSql(entity)} set ${columnSql(spec, entity, field)} = $2 where id = $1`,
                      [id, value],
                    );
                    const back = await q.query<{ v: string }>(
                      `select ${columnSql(spec, entity, field)} as v from ${tableSql(entity)} where id = $1`,
                      [id],
                    );
                    return back.rows[0]?.v;
                  });
                  if (r.ok) {
                    if (r.value !== value) problems.push(`${what}: read back differently`);
                    continue;
                  }
                  const err = dbError(r.error);
                  if (value.includes('\u0000')) {
                    // Postgres text cannot hold NUL: a clean encoding error, no SQL echoed back.
                    if (
                      !['22021', '22P05', '08P01'].includes(err.code ?? '') &&
                      !/0x00|null character|invalid byte/i.test(err.message)
                    )
                      problems.push(`${what}: NUL refused unclearly: ${err.code} ${err.message}`);
                    continue;
                  }
                  const meaning = err.constraint ? catalogue[err.constraint] : undefined;
                  if (
                    err.code !== '23514' ||
                    !meaning ||
                    (meaning.field !== undefined && meaning.field !== field)
                  )
                    problems.push(
                      `${what}: refused with ${err.code} ${err.constraint ?? ''} ${err.message.slice(0, 120)}`,
                    );
                }
                return null;
              },
            );
          }
        counter.add(`${app.name} on ${backend.name}`, cases);
        expect(problems).toEqual([]);
        expect(cases).toBeGreaterThan(0);
      });
    });
  }

  describe('hostile names in a specification', () => {
    const base = APPS[0]?.spec as AppSpec;
    function withField(name: string): AppSpec {
      const ticket = base.entities.ticket;
      if (!ticket) throw new Error('helpdesk has no ticket');
      return {
        ...base,
        entities: {
          ...base.entities,
          ticket: { ...ticket, fields: { ...ticket.fields, [name]: { type: 'text' } } },
        },
      };
    }

    it.each(['select', 'x"; drop table ticket; --', 'order', 'user', 'group', "it's", 'a b'])(
      'validateSpec rejects the field name %j',
      (name) => {
        const r = validateSpec(withField(name));
        const errors = r.diagnostics.filter((d) => d.severity === 'error');
        expect(errors.map((d) => d.code)).toContain('spec/invalid-name');
        expect(errors.some((d) => d.path.startsWith('entities.ticket.fields'))).toBe(true);
        expect(r.spec).toBeNull();
      },
    );

    it('the SQL compiler quotes reserved words safely (order/user/group/select), on a real database', async () => {
      const spec = reservedWordSpec();
      const sql = compileMigration(spec);
      const db = await backend.open(spec);
      try {
        await db.exec(sql); // twice
        const u = await createUser(db, 'odd@example.com', { roles: ['member'] });
        const row = await db.asUser(u, (q) =>
          q.query<{ id: string; group: string; user: string; status: string }>(
            `insert into public."order" ("group", "select") values ('a "group"', 'from') returning id, "group", "user", status`,
          ),
        );
        expect(row.rows[0]).toMatchObject({ group: 'a "group"', user: u, status: 'new' });
        const id = row.rows[0]?.id;
        await db.asUser(u, (q) => q.query(`update public."order" set "group" = 'b' where id = $1`, [id]));
        const done = await db.asUser(u, (q) =>
          q.query<{ status: string }>(`select status from public.order_where($1)`, [id]),
        );
        expect(done.rows).toEqual([{ status: 'done' }]);
        const other = await createUser(db, 'other@example.com', { roles: ['member'] });
        const hidden = await db.asUser(other, (q) => q.query(`select id from public."order"`));
        expect(hidden.rows).toEqual([]);
        const e = await expectDbError(() =>
          db.asUser(u, (q) => q.query(`update public."order" set "user" = $2 where id = $1`, [id, other])),
        );
        expect(e.code).toBe('42501');
      } finally {
        await backend.release(db);
      }
    });
  });
});

function inherited(spec: AppSpec, held: readonly string[], role: string): boolean {
  const seen = new Set<string>();
  const stack = [...held];
  while (stack.length > 0) {
    const r = stack.pop() as string;
    if (seen.has(r)) continue;
    seen.add(r);
    stack.push(...(spec.roles.roles[r]?.inherits ?? []));
  }
  return seen.has(role);
}

/** Admin roles as the migration defines them: may update every profile row (`when: true`), or inherit such a role. */
function isAdminRole(spec: AppSpec, role: string): boolean {
  const profile = Object.entries(spec.entities).find(([, e]) => e.profile)?.[0];
  if (!profile) return false;
  const roles = new Set<string>();
  const stack = [role];
  while (stack.length > 0) {
    const r = stack.pop() as string;
    if (roles.has(r)) continue;
    roles.add(r);
    stack.push(...(spec.roles.roles[r]?.inherits ?? []));
  }
  return [...roles].some((r) => {
    const u = spec.roles.permissions[r]?.[profile]?.update;
    return !!u && u.when === true;
  });
}

/** A small spec whose names are SQL reserved words (validateSpec refuses them; the compiler must still quote). */
function reservedWordSpec(): AppSpec {
  return {
    purpose: {
      name: 'Reserved "words"',
      summary: "A spec with names like 'order' and user.",
      users: ['members'],
    },
    screens: {},
    entities: {
      person: {
        label: 'Person',
        profile: true,
        fields: { name: { type: 'text', required: true }, email: { type: 'email', required: true } },
      },
      order: {
        label: 'Order',
        fields: {
          group: { type: 'text', required: true },
          select: { type: 'text' },
          user: { type: 'user', owner: true },
          status: { type: 'status' },
        },
      },
    },
    states: {
      order: {
        field: 'status',
        initial: 'new',
        states: { new: { label: 'New' }, done: { label: 'Done', final: true } },
        transitions: { where: { from: ['new'], to: 'done', roles: ['member'], guard: 'user = me' } },
      },
    },
    validation: { order: [{ kind: 'field', field: 'group', maxLength: 50, error: 'GROUP_TOO_LONG' }] },
    roles: {
      roles: { member: { label: 'Member', signup: true } },
      permissions: {
        member: {
          person: { read: true, create: false, update: false, delete: false },
          order: {
            read: 'user = me',
            create: true,
            update: { when: 'user = me', fields: ['group', 'select'] },
            delete: 'user = me',
          },
        },
      },
    },
    calls: { declared: {} },
    errors: { GROUP_TOO_LONG: { message: 'Too long.', severity: 'error' } },
    constants: {},
  };
}
