/**
 * Evolution: each reference app goes through seven specification versions (six changes, see
 * versions.ts) on PGlite and on the PostgreSQL server, with data written at every version. After
 * every migration: no row lost (every id is still there, renamed values kept, mapped states moved),
 * RLS forced and the whole catalog audit clean, and the schema the chain reached is the schema a
 * fresh migration of the same spec creates (catalog dumps compared, not SQL text). The tightened
 * rule is first refused with a count and examples, then migrated once the rows are fixed.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { validateSpec } from '../../src/check/validateSpec.ts';
import { type LockModel, lockModel } from '../../src/migrate/lockModel.ts';
import { planMigration } from '../../src/migrate/planMigration.ts';
import { catalogDump } from '../../src/migrate/testing/catalogDump.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import { compileMigration } from '../../src/sql/compileMigration.ts';
import { createServerDb, serverAvailable } from '../../src/sql/testing/pgDb.ts';
import { createPgliteDb } from '../../src/sql/testing/pgliteDb.ts';
import { dbError, type TestDb } from '../../src/sql/testing/testDb.ts';
import { applyMigration } from '../../src/sql/testing/users.ts';
import { openAgreementDb, serverWanted } from '../agreement/agreementDb.ts';
import { compareOnDataset, compileSites, describeDisagreements } from '../agreement/compare.ts';
import { planArb } from '../agreement/dataset.ts';
import { CHECKS, violations } from '../enforcement/support/catalogueChecks.ts';
import { seedRows, seedUsers } from '../enforcement/support/seed.ts';
import { type EvolutionPlan, versions } from './versions.ts';

const hasServer = await serverAvailable();
if (!hasServer && process.env.CI === 'true') throw new Error('evolution: CI=true but no Postgres server');

interface AppCase {
  name: string;
  spec: AppSpec;
  plan: EvolutionPlan;
  /** A value of `plan.tighten.field` that the tightened rule refuses (and the original accepts). */
  breaking: string;
}

const APPS: AppCase[] = [
  {
    name: 'helpdesk',
    spec: helpdesk as AppSpec,
    plan: {
      entity: 'ticket',
      from: 'open',
      role: 'agent',
      rename: ['ratingComment', 'ratingRemark'],
      tighten: { constant: 'titleMinLength', value: 12, field: 'title' },
      constant: ['commentMaxLength', 6000],
    },
    breaking: 'Short title',
  },
  {
    name: 'expenses',
    spec: expenses as AppSpec,
    plan: {
      entity: 'claim',
      from: 'submitted',
      role: 'manager',
      rename: ['paymentReference', 'payoutReference'],
      tighten: { constant: 'titleMaxLength', value: 40, field: 'title' },
      constant: ['maxLinesPerClaim', 60],
    },
    breaking: 'A claim title that is longer than forty characters',
  },
];

/**
 * A backend hands out databases: on PGlite two instances for the whole file (start-up is the
 * expensive part), wiped before each use; on the server a fresh database each time.
 */
interface Backend {
  name: string;
  skip: string | false;
  open(slot: 'chain' | 'fresh'): Promise<TestDb>;
  release(db: TestDb): Promise<void>;
  closeAll(): Promise<void>;
}

const pgliteSlots = new Map<string, Promise<TestDb>>();
const BACKENDS: Backend[] = [
  {
    name: 'pglite',
    skip: false,
    async open(slot) {
      if (!pgliteSlots.has(slot)) pgliteSlots.set(slot, createPgliteDb());
      const db = await (pgliteSlots.get(slot) as Promise<TestDb>);
      await db.exec(WIPE);
      return db;
    },
    async release() {},
    async closeAll() {
      for (const db of pgliteSlots.values()) await (await db).close();
      pgliteSlots.clear();
    },
  },
  {
    name: 'server',
    skip: hasServer ? false : 'no Postgres server at DATABASE_URL',
    open: () => createServerDb(),
    release: (db) => db.close(),
    async closeAll() {},
  },
];

const WIPE = `drop schema if exists app cascade; drop schema if exists auth cascade;
drop schema if exists public cascade; create schema public;`;

/** Every row id of every public table, by table. */
async function rowIds(db: TestDb): Promise<Record<string, string[]>> {
  const tables = await db.query<{ t: string }>(
    `select quote_ident(table_name) as t from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  );
  const out: Record<string, string[]> = {};
  for (const { t } of tables.rows) {
    const r = await db.query<{ id: string }>(`select id::text as id from public.${t} order by id`);
    out[t] = r.rows.map((x) => x.id);
  }
  return out;
}

describe.each(BACKENDS)('evolution on $name', (backend) => {
  afterAll(() => backend.closeAll());
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => {});
    return;
  }
  for (const app of APPS) {
    describe(app.name, () => {
      const steps = versions(app.spec, app.plan);
      let db: TestDb | undefined;
      let fresh: TestDb | undefined;
      afterAll(async () => {
        if (db) await backend.release(db);
        if (fresh) await backend.release(fresh);
      });

      it('every version is a valid specification', () => {
        for (const v of steps) {
          const r = validateSpec(v.spec);
          expect(
            r.diagnostics
              .filter((d) => d.severity === 'error')
              .map((d) => `${v.name}: ${d.path} ${d.message}`),
          ).toEqual([]);
        }
      });

      it('migrates through every version, keeping every row; the chain equals a fresh migration', async () => {
        const first = steps[0];
        if (!first) throw new Error('no versions');
        db = await backend.open('chain');
        await applyMigration(db, compileMigration(first.spec));
        let lock: LockModel = lockModel(first.spec, 'embedded');
        let users = await seedUsers(db, first.spec, 'v1');
        // A few users keep the suite within a couple of minutes; every entity and state still gets rows.
        await seedRows(db, first.spec, users.slice(0, 3));
        await distinctUniques(db, first.spec);
        const { entity, from, rename, tighten } = app.plan;
        const table = `public.${entity}`;

        for (const [i, step] of steps.entries()) {
          if (i === 0) continue;
          const t0 = Date.now();
          const before = await rowIds(db);
          // Data that the step's change must carry over.
          if (step.name.startsWith('4')) {
            await db.query(
              `update ${table} set status = 'escalated' where id = (select min(id::text)::uuid from ${table})`,
            );
          }
          const escalated = (
            await db.query<{ id: string }>(`select id::text as id from ${table} where status = 'escalated'`)
          ).rows.map((r) => r.id);
          const renamedValues = step.name.startsWith('2')
            ? (
                await db.query<{ id: string }>(
                  `update ${table} set ${snake(rename[0])} = 'kept ' || id where id in (select id from ${table} limit 3) returning id::text as id`,
                )
              ).rows.map((r) => r.id)
            : [];

          if (step.name.startsWith('5')) {
            // A row breaking the tightened rule: the migration is refused with a count and examples…
            const bad = (
              await db.query<{ id: string }>(
                `update ${table} set ${snake(tighten.field)} = $1 where id = (select max(id::text)::uuid from ${table}) returning id::text as id`,
                [app.breaking],
              )
            ).rows[0]?.id;
            const refused = planMigration(lock, step.spec);
            expect(refused.refused).toEqual([]);
            const e = await db.exec(refused.sql).then(
              () => undefined,
              (x: unknown) => dbError(x),
            );
            expect(e?.message).toBe('MIGRATION_REFUSED');
            const problems = JSON.parse(e?.detail ?? '[]') as {
              kind: string;
              count: number;
              examples: string[];
            }[];
            const rule = problems.find((p) => p.kind === 'rule');
            expect(rule?.count).toBe(1);
            expect(rule?.examples).toEqual([bad]);
            // …and the database is as it was (the migration ran in one transaction).
            expect(await rowIds(db)).toEqual(before);
            const kept = planMigration(lock, step.spec, { violations: 'keep' });
            expect(kept.sql).toContain('not valid');
            // The user fixes the row, then migrates.
            await db.query(`update ${table} set ${snake(tighten.field)} = $1 where id = $2`, [
              'A fixed title ok',
              bad,
            ]);
          }

          const plan = planMigration(lock, step.spec, { allowDestructive: step.destructive === true });
          expect(plan.refused, step.name).toEqual([]);
          if (step.destructive) {
            expect(planMigration(lock, step.spec).refused.map((r) => r.code)).toEqual(['DESTRUCTIVE']);
          }
          await db.exec(plan.sql);

          // No row lost: every id of every table is still there (renamed tables by their new name).
          const after = await rowIds(db);
          for (const [t, ids] of Object.entries(before)) {
            const now = t === 'evolution_link' && step.name.startsWith('7') ? 'evolution_reference' : t;
            expect(after[now], `${step.name}: rows of ${t}`).toEqual(expect.arrayContaining(ids));
          }
          if (renamedValues.length > 0) {
            const r = await db.query<{ n: number }>(
              `select count(*)::int as n from ${table} where ${snake(rename[1])} = 'kept ' || id`,
            );
            expect(r.rows[0]?.n).toBe(renamedValues.length);
          }
          if (step.name.startsWith('4')) {
            expect(escalated.length).toBeGreaterThan(0);
            const r = await db.query<{ s: string }>(
              `select status as s from ${table} where id = any ($1::uuid[])`,
              [escalated],
            );
            expect(new Set(r.rows.map((x) => x.s))).toEqual(new Set([from]));
          }

          // The catalog audit (RLS forced on every table, …) is clean.
          for (const check of CHECKS)
            expect(await violations(db, check), `${step.name}: ${check.name}`).toEqual([]);

          // The chain reached the schema a fresh migration creates.
          if (fresh) await backend.release(fresh);
          fresh = await backend.open('fresh');
          await applyMigration(fresh, compileMigration(step.spec));
          const [chain, clean] = [await catalogDump(db), await catalogDump(fresh)];
          for (const kind of Object.keys(clean) as (keyof typeof clean)[])
            expect(chain[kind], `${step.name}: ${kind}`).toEqual(clean[kind]);

          const t1 = Date.now();
          // Data written with this version.
          lock = lockModel(step.spec, 'embedded');
          users = await seedUsers(db, step.spec, `v${i + 1}`);
          await seedRows(db, step.spec, users.slice(0, 2));
          await distinctUniques(db, step.spec);
          if (process.env.EVOLUTION_TIMES)
            console.log(
              `${app.name} ${step.name}: migrate+compare ${t1 - t0} ms, seed ${Date.now() - t1} ms`,
            );
        }
      }, 300_000);
    });
  }
});

/** Seeds repeat their sample texts from one call to the next: unique text fields get the row id. */
async function distinctUniques(db: TestDb, spec: AppSpec): Promise<void> {
  for (const [entity, e] of Object.entries(spec.entities))
    for (const [field, f] of Object.entries(e.fields)) {
      if (!f.unique || (f.type !== 'text' && f.type !== 'longtext')) continue;
      const c = snake(field);
      await db.query(
        `update public.${snake(entity)} set ${c} = ${c} || ' #' || left(id::text, 8) where ${c} like 'Seed value number %' and ${c} not like '%#%'`,
      );
    }
}

function snake(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * Rule agreement on every version: the browser's evaluator and the SQL of each version's rules
 * give the same result on a generated dataset (the agreement suite's machinery, one dataset per
 * version to stay bounded). The chain's schema equals a fresh migration's (above), so this holds
 * for the migrated database too.
 */
describe('rule agreement on every version', () => {
  for (const app of APPS)
    it(app.name, async () => {
      const server = await serverWanted();
      // Version 1 is the reference app itself: test/agreement covers it with many more datasets.
      for (const step of versions(app.spec, app.plan).slice(1)) {
        const db = await openAgreementDb(compileMigration(step.spec), server);
        try {
          const rules = compileSites(step.spec);
          const [plan] = fc.sample(planArb(step.spec, { minRows: 2, maxRows: 4 }), {
            seed: 20_260_412,
            numRuns: 1,
          });
          if (!plan) throw new Error('no dataset');
          const o = await compareOnDataset(db, step.spec, rules, plan, { rls: true });
          expect(o.cases, step.name).toBeGreaterThan(100);
          expect(describeDisagreements(o.disagreements), step.name).toBe(describeDisagreements([]));
        } finally {
          await db.close();
        }
      }
    }, 300_000);
});
