/**
 * Races on a real server (two connections of a pg Pool, each a Supabase client transaction):
 * the same transition twice with the same version — exactly one wins, the other gets CONFLICT from
 * the locked re-check; two stale updates with the same version — exactly one changes the row.
 * Server only: PGlite has one connection.
 */

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from '../../src/model/resolve.ts';
import { transitionFunctionName } from '../../src/naming.ts';
import { compileMigration } from '../../src/sql/compileMigration.ts';
import { historyTable } from '../../src/sql/emitHistory.ts';
import { quoteIdent } from '../../src/sql/quote.ts';
import { tableOf } from '../../src/sql/specModel.ts';
import { createServerDb, quietOnTermination, serverAvailable } from '../../src/sql/testing/pgDb.ts';
import { clientSessionSql, dbError, type TestDb } from '../../src/sql/testing/testDb.ts';
import { applyMigration } from '../../src/sql/testing/users.ts';
import { APPS, columnSql, tableSql } from './support/model.ts';
import { type Seed, type SeedUser, seedRows, seedUsers } from './support/seed.ts';

const hasServer = await serverAvailable();
if (!hasServer && process.env.CI === 'true')
  throw new Error('race.server.test: CI=true but no Postgres server answers at DATABASE_URL');
if (!hasServer) console.warn('race.server.test: no Postgres server at DATABASE_URL, skipped');

const ROUNDS = 20;

type Settled =
  | { ok: true; rows: Record<string, unknown>[] }
  | { ok: false; code: string | undefined; message: string };

/** A client transaction on its own connection: begin, JWT claims, `set local role`. */
async function clientSession(pool: pg.Pool, userId: string): Promise<pg.PoolClient> {
  const c = await pool.connect();
  const { claims, role } = clientSessionSql(userId);
  await c.query('begin');
  await c.query(`select set_config('request.jwt.claims', $1, true)`, [claims]);
  await c.query(`set local role ${role}`);
  return c;
}

function settle(p: Promise<pg.QueryResult>): Promise<Settled> {
  return p.then(
    (r) => ({ ok: true, rows: r.rows as Record<string, unknown>[] }),
    (e: unknown) => {
      const err = dbError(e);
      return { ok: false, code: err.code, message: err.message };
    },
  );
}

/**
 * Runs the same kind of statement on two connections at once; whichever returns first commits
 * (the other is blocked on the row lock until then), then the other finishes and commits.
 */
async function race(
  pool: pg.Pool,
  a: { user: string; sql: string; params: unknown[] },
  b: { user: string; sql: string; params: unknown[] },
) {
  const ca = await clientSession(pool, a.user);
  const cb = await clientSession(pool, b.user);
  try {
    const pa = settle(ca.query(a.sql, a.params));
    const pb = settle(cb.query(b.sql, b.params));
    const first = await Promise.race([pa.then(() => 'a' as const), pb.then(() => 'b' as const)]);
    const [c1, c2, p2] = first === 'a' ? [ca, cb, pb] : [cb, ca, pa];
    await c1.query('commit').catch(() => c1.query('rollback'));
    await p2;
    await c2.query('commit').catch(() => c2.query('rollback'));
    return [await pa, await pb] as const;
  } finally {
    ca.release();
    cb.release();
  }
}

describe.skipIf(!hasServer)('races on the server', () => {
  for (const app of APPS.filter((x) => Object.keys(x.spec.states).length > 0)) {
    describe(app.name, () => {
      const spec = app.spec;
      let db: TestDb;
      let pool: pg.Pool;
      let users: SeedUser[];
      let seed: Seed;

      beforeAll(async () => {
        db = await createServerDb();
        await applyMigration(db, compileMigration(spec));
        users = await seedUsers(db, spec, 'race');
        seed = await seedRows(db, spec, users);
        pool = quietOnTermination(new pg.Pool({ connectionString: db.connectionString, max: 4 }), 'race');
      }, 60_000);
      afterAll(async () => {
        await pool?.end();
        await db?.close();
      });

      for (const [entity, st] of Object.entries(spec.states)) {
        // Transitions out of the initial state that need no input, with a role and a guard some user passes.
        const candidates = Object.entries(st.transitions).filter(
          ([, t]) => t.from.includes(st.initial) && !(t.input ?? []).length,
        );

        it(`${entity}: the same transition twice with the same version — one wins, one CONFLICT (${ROUNDS} rounds)`, async () => {
          const [name, t] = candidates[0] ?? [];
          if (!name || !t) throw new Error(`${entity} has no input-free transition from ${st.initial}`);
          const fn = `public.${quoteIdent(transitionFunctionName(entity, name))}`;
          // An actor who may run it on a row: found by trying once on each seeded row (rolled back).
          let pick: { user: string; row: string } | undefined;
          for (const r of (seed.rows[entity] ?? []).filter((x) => x.state === st.initial))
            for (const u of users) {
              if (pick) break;
              const ok = await db
                .asUser(u.id, async (q) => {
                  await q.query(`select ${fn}($1)`, [r.id]);
                  throw new Error('rollback');
                })
                .catch((e: unknown) => e instanceof Error && e.message === 'rollback');
              if (ok) pick = { user: u.id, row: r.id };
            }
          if (!pick) throw new Error(`nobody may ${name} a seeded ${entity}`);
          const status = columnSql(spec, entity, st.field);
          const h = historyTable(tableOf(resolve(spec), entity));
          for (let i = 0; i < ROUNDS; i++) {
            // Back to the initial state (as the owner), then both race from the same version.
            await db.query(`update ${tableSql(entity)} set ${status} = $2 where id = $1`, [
              pick.row,
              st.initial,
            ]);
            const before = await db.query<{ version: number; n: number }>(
              `select t.version, (select count(*)::int from ${h} x where x.row_id = t.id) as n from ${tableSql(entity)} t where t.id = $1`,
              [pick.row],
            );
            const { version, n } = before.rows[0] ?? { version: -1, n: -1 };
            const call = {
              user: pick.user,
              sql: `select version from ${fn}($1, $2)`,
              params: [pick.row, version],
            };
            const [a, b] = await race(pool, call, call);
            const wins = [a, b].filter((x) => x.ok);
            const losses = [a, b].filter((x): x is Extract<Settled, { ok: false }> => !x.ok);
            expect(wins, `round ${i}`).toHaveLength(1);
            expect(losses.map((l) => `${l.code} ${l.message}`)).toEqual(['P0001 CONFLICT']);
            const after = await db.query<{ version: number; n: number; s: string }>(
              `select t.version, t.${status} as s, (select count(*)::int from ${h} x where x.row_id = t.id) as n from ${tableSql(entity)} t where t.id = $1`,
              [pick.row],
            );
            expect(after.rows).toEqual([{ version: version + 1, n: n + 1, s: t.to }]);
          }
        });

        it(`${entity}: two stale updates with the same version — exactly one changes the row (${ROUNDS} rounds)`, async () => {
          // A field the row's owner may update on an initial-state row, by the spec.
          const e = spec.entities[entity];
          const field = Object.values(spec.roles.permissions)
            .flatMap((p) => (p[entity]?.update || undefined)?.fields ?? [])
            .find((f) => e?.fields[f]?.type === 'text');
          if (!field) throw new Error(`no text field of ${entity} is updatable`);
          const row = (seed.rows[entity] ?? []).find(
            (r) => r.state === st.initial && r.owner === users[0]?.id,
          );
          if (!row?.owner) throw new Error('no own row in the initial state');
          const col = columnSql(spec, entity, field);
          // The previous race moved some row on; this one starts from the initial state again.
          await db.query(
            `update ${tableSql(entity)} set ${columnSql(spec, entity, st.field)} = $2 where id = $1`,
            [row.id, st.initial],
          );
          for (let i = 0; i < ROUNDS; i++) {
            const v = await db.query<{ version: number }>(
              `select version from ${tableSql(entity)} where id = $1`,
              [row.id],
            );
            const version = v.rows[0]?.version;
            const upd = (text: string) => ({
              user: row.owner as string,
              sql: `update ${tableSql(entity)} set ${col} = $3 where id = $1 and version = $2 returning version`,
              params: [row.id, version, text],
            });
            const [a, b] = await race(pool, upd(`Writer A round ${i}`), upd(`Writer B round ${i}`));
            expect(a.ok && b.ok, `round ${i}: ${JSON.stringify([a, b])}`).toBe(true);
            const changed = [a, b].map((x) => (x.ok ? x.rows.length : -1));
            expect(changed.sort()).toEqual([0, 1]);
            const after = await db.query<{ version: number; v: string }>(
              `select version, ${col} as v from ${tableSql(entity)} where id = $1`,
              [row.id],
            );
            expect(after.rows[0]?.version).toBe(Number(version) + 1);
            expect([`Writer A round ${i}`, `Writer B round ${i}`]).toContain(after.rows[0]?.v);
          }
        });
      }
    });
  }
});
