/**
 * The permission matrix: for each reference app, every role (plus a user without roles and anon) ×
 * entity × action × seeded row (own rows and other people's, every state, every parent), acted out
 * as a Supabase client (JWT claims + `set local role`). The expected outcome of each case is the
 * spec's permission evaluated by the TypeScript evaluator (`checkRule` + `holds`, inheritance
 * followed), so the suite is also a client/server agreement check. Reads cover every seeded row;
 * writes cover every class of alike rows and an even spread of the rest (`representatives`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppSpec } from '../../src/spec/types.ts';
import { dbError, type Queryable, type TestDb } from '../../src/sql/testing/testDb.ts';
import { enforcementBackends } from './support/backends.ts';
import {
  APPS,
  caseCounter,
  columnSql,
  type FieldRow,
  type Snapshot,
  snapshot,
  specAllows,
  TASKS_APP,
  tableSql,
  updateFieldGroups,
} from './support/model.ts';
import {
  rolledBack,
  type Seed,
  type SeedRow,
  type SeedUser,
  seedRows,
  seedUsers,
  trial,
} from './support/seed.ts';
import { tasksSeed } from './support/tasksSeed.ts';

const backends = await enforcementBackends('permissionMatrix.test');
const counter = caseCounter();
afterAll(async () => {
  counter.print('permissionMatrix');
  for (const b of backends) await b.closeAll();
});

interface Actor {
  label: string;
  id: string | null;
  roles: readonly string[];
}

type Outcome = 'ok' | 'denied' | 'error';

/** What a client statement did: changed/inserted a row, was refused by a privilege/RLS/column rule, or failed otherwise. */
/** The catalogue codes the reference apps' update permissions raise when their `becomes` fails. */
const updateErrors = new Set(
  [...APPS, TASKS_APP].flatMap((a) =>
    Object.values(a.spec.roles.permissions).flatMap((perms) =>
      Object.values(perms).flatMap((p) =>
        p.update && p.update.becomes !== undefined ? [p.update.error ?? 'FORBIDDEN'] : [],
      ),
    ),
  ),
);

function outcome(r: { ok: true; value: number } | { ok: false; error: unknown }): {
  kind: Outcome;
  why: string;
} {
  if (r.ok)
    return r.value > 0 ? { kind: 'ok', why: 'ok' } : { kind: 'denied', why: 'no row (hidden by RLS)' };
  const e = dbError(r.error);
  // 23503 on a generated foreign key: the referenced row is not visible to the caller (it is
  // refused exactly as a missing one would be, see emitRowTriggers' reference checks).
  if (e.code === '23503' && e.constraint?.endsWith('__fk'))
    return { kind: 'denied', why: `${e.code} ${e.constraint}` };
  // FORBIDDEN: the permission re-check under the group locks (emitPermissionRecheck.ts), a BEFORE
  // trigger, so it may answer before RLS's WITH CHECK does; the same permission, refused.
  if (e.code === '42501' || e.message === 'FIELD_NOT_WRITABLE' || e.message === 'FORBIDDEN')
    return { kind: 'denied', why: `${e.code} ${e.message}` };
  // An update permission's `becomes` refused the new row: the update trigger names its error.
  if (e.code === 'P0001' && updateErrors.has(e.message))
    return { kind: 'denied', why: `${e.code} ${e.message}` };
  return { kind: 'error', why: `${e.code ?? ''} ${e.message}` };
}

/**
 * A client names only rows it may read: a reference to a row hidden from it fails as one to a
 * missing row (23503, emitRowTriggers' reference checks), whatever the create permission says.
 */
function referencesReadable(
  spec: AppSpec,
  entity: string,
  values: Record<string, unknown>,
  user: { id: string; roles: readonly string[] } | null,
  snap: Snapshot,
): boolean {
  const fields = spec.entities[entity]?.fields ?? {};
  return Object.entries(values).every(([field, v]) => {
    const f = fields[field];
    if (!f || f.owner || typeof v !== 'string' || (f.type !== 'ref' && f.type !== 'user')) return true;
    const target = snap.byId.get(v);
    return !target || specAllows(spec, target.entity, 'read', target.row, user, snap);
  });
}

function userOf(a: Actor): { id: string; roles: readonly string[] } | null {
  return a.id === null ? null : { id: a.id, roles: a.roles };
}

async function insertRow(
  q: Queryable,
  spec: AppSpec,
  entity: string,
  values: Record<string, unknown>,
): Promise<number> {
  const cols = Object.keys(values).map((k) => columnSql(spec, entity, k));
  const params = Object.values(values);
  const r = await q.query(
    `insert into ${tableSql(entity)} (${cols.join(', ')}) values (${params.map((_, i) => `$${i + 1}`).join(', ')}) returning id`,
    params,
  );
  return r.rows.length;
}

/** Candidate new values for a field of a row, most likely valid first. */
function candidates(
  spec: AppSpec,
  seed: Seed,
  entity: string,
  field: string,
  row: FieldRow,
  n: number,
): unknown[] {
  const f = spec.entities[entity]?.fields[field];
  const old = row[field];
  switch (f?.type) {
    case 'text':
    case 'longtext':
      return [`Edited value ${n} for the matrix`];
    case 'email':
      return [`edited${n}@example.com`];
    case 'enum':
      return (f.values ?? []).filter((v) => v !== old);
    case 'boolean':
      return [!old];
    case 'number':
    case 'integer':
    case 'money':
      return [Number(old ?? 0) + 1];
    case 'date':
      return [new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10)];
    case 'datetime':
      return [new Date(Date.now() + 3_600_000).toISOString()];
    case 'ref':
      return (seed.rows[f.ref ?? ''] ?? []).map((r) => r.id).filter((id) => id !== old);
    case 'user':
      return [...seed.users]
        .reverse()
        .map((u) => u.id)
        .filter((id) => id !== old && id !== row.id);
    default:
      return [];
  }
}

async function insertColumns(db: TestDb, spec: AppSpec, entity: string): Promise<Set<string>> {
  const r = await db.query<{ column_name: string }>(
    `select column_name from information_schema.column_privileges
     where grantee = 'authenticated' and table_schema = 'public' and table_name = $1 and privilege_type = 'INSERT'`,
    [tableSql(entity).slice('public.'.length).replaceAll('"', '')],
  );
  void spec;
  return new Set(r.rows.map((x) => x.column_name));
}

/**
 * The cases worth acting out of many alike: items every actor is expected to find alike (same key:
 * state, validity, verdict per actor) form a class, and three of each class are kept, plus an even
 * spread of about 150 items (all of them where there are fewer). An entity seeded with many rows
 * (1,176 time entries × 8 actors) then costs seconds, not minutes, while every class and every part
 * of the seed still has cases.
 */
function representatives<T>(items: readonly T[], keyOf: (item: T) => unknown[]): T[] {
  const perClass = new Map<string, number>();
  const stride = Math.ceil(items.length / 150);
  return items.filter((item, i) => {
    const key = JSON.stringify(keyOf(item));
    const seen = perClass.get(key) ?? 0;
    perClass.set(key, seen + 1);
    return seen < 3 || i % stride === 0;
  });
}

describe.each(backends)('permission matrix on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => {});
    return;
  }
  // The multi-tenant app too, seeded with values its rules accept (members, leads, codes).
  for (const app of [...APPS, TASKS_APP]) {
    describe(app.name, () => {
      const spec = app.spec;
      const own = app === TASKS_APP ? tasksSeed() : undefined;
      let db: TestDb;
      let seed: Seed;
      let snap: Snapshot;
      let actors: Actor[];

      beforeAll(async () => {
        db = await backend.open(spec);
        const users: SeedUser[] = await seedUsers(db, spec);
        seed = await seedRows(db, spec, users, own?.values);
        snap = await snapshot(db, spec);
        actors = [
          ...users.map((u) => ({ label: u.label, id: u.id, roles: snap.rolesOf(u.id) })),
          { label: 'anon', id: null, roles: [] },
        ];
      }, 120_000);
      afterAll(async () => {
        if (db) await backend.release(db);
      });

      const rowOf = (r: SeedRow): FieldRow => {
        const row = snap.get(r.entity, r.id);
        if (!row) throw new Error(`seeded row ${r.label} missing from the snapshot`);
        return row;
      };
      /** The row's state, where its entity has states: rows in different states are never alike. */
      const stateOf = (r: SeedRow): string => {
        const field = spec.states[r.entity]?.field;
        return field ? String(rowOf(r)[field]) : '';
      };

      /** The positive control: every row a case was denied on exists and the owner reads it in this test. */
      async function ownerSees(entity: string, ids: readonly string[]): Promise<void> {
        const r = await db.query<{ n: number }>(
          `select count(*)::int as n from ${tableSql(entity)} where id = any ($1::uuid[])`,
          [[...new Set(ids)]],
        );
        expect(r.rows[0]?.n, `${entity}: denied rows must exist`).toBe(new Set(ids).size);
      }

      for (const entity of Object.keys(spec.entities)) {
        it(`${entity}: read`, async () => {
          const rows = seed.rows[entity] ?? [];
          const mismatches: string[] = [];
          const denied: string[] = [];
          const reachedBy = new Map<string, string>();
          for (const actor of actors) {
            let visible = new Set<string>();
            try {
              const r = await db.asUser(actor.id, (q) =>
                q.query<{ id: string }>(`select id from ${tableSql(entity)}`),
              );
              visible = new Set(r.rows.map((x) => x.id));
            } catch (e) {
              const err = dbError(e);
              if (err.code !== '42501')
                mismatches.push(`${actor.label}: select failed with ${err.code} ${err.message}`);
            }
            const seeded = new Set(rows.map((r) => r.id));
            for (const id of visible)
              if (!seeded.has(id)) mismatches.push(`${actor.label} sees an unseeded row ${id}`);
            for (const r of rows) {
              const expected = specAllows(spec, entity, 'read', rowOf(r), userOf(actor), snap);
              const actual = visible.has(r.id);
              if (expected !== actual)
                mismatches.push(`${actor.label} read ${r.label}: expected ${expected}, got ${actual}`);
              if (actual) reachedBy.set(r.id, actor.label);
              else denied.push(r.id);
            }
          }
          counter.add(`${app.name} on ${backend.name}`, rows.length * actors.length);
          expect(mismatches).toEqual([]);
          await ownerSees(entity, denied);
        });

        it(`${entity}: create`, async () => {
          const st = spec.states[entity];
          const e = spec.entities[entity];
          if (!e) throw new Error(entity);
          const ownerField = Object.entries(e.fields).find(([, f]) => f.owner)?.[0];
          const granted = await insertColumns(db, spec, entity);
          const templates = (seed.rows[entity] ?? []).filter((r) => !st || r.state === st.initial);
          const mismatches: string[] = [];
          let cases = 0;
          let controlled = 0;
          // Client payload: the template's values for the columns a client may insert (unique values made fresh).
          const all = templates.map((t, i) => {
            const row = rowOf(t);
            const values: Record<string, unknown> = {};
            for (const [field, v] of Object.entries(row)) {
              if (field === 'id' || v === null || v === undefined) continue;
              if (!granted.has(columnSql(spec, entity, field).replaceAll('"', ''))) continue;
              const f = e.fields[field];
              // A computed field is the server's: a client never sends it (the row trigger refuses one).
              if (f?.computed !== undefined) continue;
              values[field] = f?.unique
                ? f.type === 'email'
                  ? `new${i}.${String(v)}`
                  : `${String(v)} new ${i}`
                : v;
            }
            if (Object.keys(values).length === 0) {
              // Nothing is insertable by a client: try the required fields anyway (must be refused).
              for (const [field, f] of Object.entries(e.fields))
                if (f.required && row[field] != null) values[field] = row[field];
            }
            return { template: t, row, values: own?.fresh(entity, values) ?? values };
          });
          const actorsWithId = actors.filter((a) => a.id !== null);
          // Validity of each payload for each actor, as the owner (owner field = the actor, initial state).
          const valid = await rolledBack(
            (fn) => db.asOwner(fn),
            async (q) => {
              const out = new Map<string, boolean>();
              for (const p of all)
                for (const a of actorsWithId) {
                  const v = { ...p.values };
                  if (ownerField) v[ownerField] = a.id;
                  if (st) v[st.field] = st.initial;
                  if (e.profile) v.id = a.id;
                  const r = await trial(q, () => insertRow(q, spec, entity, v));
                  out.set(`${p.template.id}/${a.id}`, r.ok);
                }
              return out;
            },
          );
          const validFor = (p: (typeof all)[number], actor: Actor): boolean =>
            actor.id !== null && (valid.get(`${p.template.id}/${actor.id}`) ?? false);
          const expectedOf = (p: (typeof all)[number], actor: Actor): boolean => {
            const wouldBe: FieldRow = { ...p.row, ...p.values, id: null };
            if (ownerField) wouldBe[ownerField] = actor.id;
            if (st) wouldBe[st.field] = st.initial;
            return (
              validFor(p, actor) &&
              specAllows(spec, entity, 'create', wouldBe, userOf(actor), snap) &&
              referencesReadable(spec, entity, p.values, userOf(actor), snap)
            );
          };
          const payloads = representatives(all, (p) =>
            actors.map((a) => `${validFor(p, a) ? 1 : 0}${expectedOf(p, a) ? 1 : 0}`),
          );
          for (const actor of actors) {
            const results = await rolledBack(
              (fn) => db.asUser(actor.id, fn),
              async (q) => {
                const out: ReturnType<typeof outcome>[] = [];
                for (const p of payloads)
                  out.push(outcome(await trial(q, () => insertRow(q, spec, entity, p.values))));
                return out;
              },
            );
            payloads.forEach((p, i) => {
              cases++;
              const isValid = validFor(p, actor);
              const expected = expectedOf(p, actor);
              const got = results[i];
              if (!got) throw new Error('missing result');
              if (expected && got.kind !== 'ok')
                mismatches.push(
                  `${actor.label} create like ${p.template.label}: expected ok, got ${got.why}`,
                );
              if (!expected && got.kind === 'ok')
                mismatches.push(
                  `${actor.label} create like ${p.template.label}: expected refused, it succeeded`,
                );
              if (!expected && isValid && got.kind === 'error')
                mismatches.push(
                  `${actor.label} create like ${p.template.label}: refused with a non-permission error ${got.why}`,
                );
              if (!expected && isValid) controlled++;
            });
          }
          counter.add(`${app.name} on ${backend.name}`, cases);
          expect(mismatches).toEqual([]);
          // Positive control: permission denials are only counted on payloads the owner could insert
          // for that very actor (same owner, same parents) in this test; at least one app-wide case does.
          if (Object.values(spec.roles.permissions).some((p) => p[entity]?.create))
            expect(controlled).toBeGreaterThan(0);
        });

        it(`${entity}: update`, async () => {
          const rows = seed.rows[entity] ?? [];
          const fields = updateFieldGroups(spec, entity);
          const mismatches: string[] = [];
          const denied: string[] = [];
          let n = 0;
          // The write for each (row, field): the first candidate value the owner can write.
          const chosen = await rolledBack(
            (fn) => db.asOwner(fn),
            async (q) => {
              const out: { row: SeedRow; field: string; value: unknown; valid: boolean }[] = [];
              for (const r of rows)
                for (const field of fields) {
                  const cands = candidates(spec, seed, entity, field, rowOf(r), n++);
                  let chosen: { value: unknown; valid: boolean } = { value: cands[0], valid: false };
                  for (const value of cands.slice(0, 4)) {
                    const t = await trial(q, () =>
                      q.query(
                        `update ${tableSql(entity)} set ${columnSql(spec, entity, field)} = $2 where id = $1`,
                        [r.id, value],
                      ),
                    );
                    if (t.ok) {
                      chosen = { value, valid: true };
                      break;
                    }
                  }
                  if (cands.length > 0) out.push({ row: r, field, ...chosen });
                }
              return out;
            },
          );
          const expectedOf = (w: (typeof chosen)[number], actor: Actor): boolean => {
            const old = rowOf(w.row);
            const user = userOf(actor);
            return (
              w.valid &&
              specAllows(spec, entity, 'read', old, user, snap) &&
              specAllows(spec, entity, 'update', old, user, snap, {
                field: w.field,
                newRow: { ...old, [w.field]: w.value },
              })
            );
          };
          const writes = representatives(chosen, (w) => [
            w.field,
            w.valid,
            stateOf(w.row),
            actors.map((a) => (expectedOf(w, a) ? 1 : 0)).join(''),
          ]);
          for (const actor of actors) {
            const results = await rolledBack(
              (fn) => db.asUser(actor.id, fn),
              async (q) => {
                const out: ReturnType<typeof outcome>[] = [];
                for (const w of writes)
                  out.push(
                    outcome(
                      await trial(q, async () => {
                        const r = await q.query(
                          `update ${tableSql(entity)} set ${columnSql(spec, entity, w.field)} = $2 where id = $1 returning id`,
                          [w.row.id, w.value],
                        );
                        return r.rows.length;
                      }),
                    ),
                  );
                return out;
              },
            );
            writes.forEach((w, i) => {
              const expected = expectedOf(w, actor);
              const got = results[i];
              if (!got) throw new Error('missing result');
              const what = `${actor.label} update ${w.row.label}.${w.field}`;
              if (expected && got.kind !== 'ok') mismatches.push(`${what}: expected ok, got ${got.why}`);
              if (!expected && got.kind === 'ok') mismatches.push(`${what}: expected refused, it succeeded`);
              if (!expected && w.valid && got.kind === 'error')
                mismatches.push(`${what}: refused with ${got.why}`);
              if (!expected) denied.push(w.row.id);
            });
          }
          counter.add(`${app.name} on ${backend.name}`, writes.length * actors.length);
          expect(mismatches).toEqual([]);
          await ownerSees(entity, denied);
        });

        it(`${entity}: delete`, async () => {
          const mismatches: string[] = [];
          const denied: string[] = [];
          const valid = await rolledBack(
            (fn) => db.asOwner(fn),
            async (q) => {
              const out = new Map<string, boolean>();
              for (const r of seed.rows[entity] ?? [])
                out.set(
                  r.id,
                  (await trial(q, () => q.query(`delete from ${tableSql(entity)} where id = $1`, [r.id]))).ok,
                );
              return out;
            },
          );
          const expectedOf = (r: SeedRow, actor: Actor): boolean => {
            const row = rowOf(r);
            const user = userOf(actor);
            return (
              (valid.get(r.id) ?? false) &&
              specAllows(spec, entity, 'read', row, user, snap) &&
              specAllows(spec, entity, 'delete', row, user, snap)
            );
          };
          const rows = representatives(seed.rows[entity] ?? [], (r) => [
            valid.get(r.id) ?? false,
            stateOf(r),
            actors.map((a) => (expectedOf(r, a) ? 1 : 0)).join(''),
          ]);
          for (const actor of actors) {
            const results = await rolledBack(
              (fn) => db.asUser(actor.id, fn),
              async (q) => {
                const out: ReturnType<typeof outcome>[] = [];
                for (const r of rows)
                  out.push(
                    outcome(
                      await trial(q, async () => {
                        const d = await q.query(
                          `delete from ${tableSql(entity)} where id = $1 returning id`,
                          [r.id],
                        );
                        return d.rows.length;
                      }),
                    ),
                  );
                return out;
              },
            );
            rows.forEach((r, i) => {
              const isValid = valid.get(r.id) ?? false;
              const expected = expectedOf(r, actor);
              const got = results[i];
              if (!got) throw new Error('missing result');
              const what = `${actor.label} delete ${r.label}`;
              if (expected && got.kind !== 'ok') mismatches.push(`${what}: expected ok, got ${got.why}`);
              if (!expected && got.kind === 'ok') mismatches.push(`${what}: expected refused, it succeeded`);
              if (!expected && isValid && got.kind === 'error')
                mismatches.push(`${what}: refused with ${got.why}`);
              if (!expected) denied.push(r.id);
            });
          }
          counter.add(`${app.name} on ${backend.name}`, rows.length * actors.length);
          expect(mismatches).toEqual([]);
          await ownerSees(entity, denied);
        });
      }
    });
  }
});
