/**
 * Computed values that follow referenced rows, across `ninefold migrate`: a version adds fields
 * computed from references (the referenced tables gain `ninefold_38_recompute`), the next removes
 * them again (the triggers go). Each plan applies on a database holding the previous version and
 * leaves what a fresh migration leaves. On PGlite.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { lockModel } from '../../src/migrate/lockModel.ts';
import { planMigration } from '../../src/migrate/planMigration.ts';
import { catalogDump } from '../../src/migrate/testing/catalogDump.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import { compileMigration } from '../../src/sql/compileMigration.ts';
import { createPgliteDb } from '../../src/sql/testing/pgliteDb.ts';
import type { TestDb } from '../../src/sql/testing/testDb.ts';
import { applyMigration } from '../../src/sql/testing/users.ts';
import { billing } from '../enforcement/support/billing.ts';

type Fields = AppSpec['entities'][string]['fields'];
/** Billing without values computed from references: the project's currency is its own. */
const plain = (): AppSpec => {
  const s = structuredClone(billing);
  (s.entities.project?.fields as Fields).currency = { type: 'text' };
  const entry = s.entities.timeEntry?.fields as Fields;
  delete entry.currency;
  delete entry.amount;
  s.validation = {};
  s.errors = {};
  return s;
};
const versions: [string, AppSpec][] = [
  ['nothing computed from a reference', plain()],
  ['currencies and amounts computed from references', billing],
  ['removed again', plain()],
];

const recomputeTriggers = async (db: TestDb) =>
  (
    await db.query<{ t: string }>(
      "select tgrelid::regclass::text as t from pg_trigger where tgname = 'ninefold_38_recompute' order by 1",
    )
  ).rows.map((r) => r.t);

describe('recomputed dependents across migrations (PGlite)', () => {
  const dbs: TestDb[] = [];
  afterAll(async () => {
    for (const db of dbs) await db.close();
  });

  it('adds and removes the recompute triggers, to the schema a fresh migration creates', async () => {
    const db = await createPgliteDb();
    dbs.push(db);
    const [first, ...rest] = versions;
    await applyMigration(db, compileMigration(first?.[1] as AppSpec));
    await db.query("insert into public.organisation (name, currency) values ('Acme', 'EUR')");
    await db.query(
      "insert into public.project (name, organisation, rate) select 'Site', id, 10 from public.organisation",
    );
    expect(await recomputeTriggers(db)).toEqual([]);
    let before = first?.[1] as AppSpec;
    for (const [label, spec] of rest) {
      const plan = planMigration(lockModel(before, 'embedded'), spec, { allowDestructive: true });
      expect(plan.refused, label).toEqual([]);
      await db.exec(plan.sql);
      const fresh = await createPgliteDb();
      dbs.push(fresh);
      await applyMigration(fresh, compileMigration(spec));
      expect(await catalogDump(db), label).toEqual(await catalogDump(fresh));
      expect(await recomputeTriggers(db), label).toEqual(await recomputeTriggers(fresh));
      before = spec;
    }
  }, 180_000);

  it('the migrated database recomputes: a currency change reaches the projects', async () => {
    const db = await createPgliteDb();
    dbs.push(db);
    await applyMigration(db, compileMigration(versions[0]?.[1] as AppSpec));
    await db.query("insert into public.organisation (name, currency) values ('Acme', 'EUR')");
    await db.query(
      "insert into public.project (name, organisation, rate) select 'Site', id, 10 from public.organisation",
    );
    await db.exec(planMigration(lockModel(versions[0]?.[1] as AppSpec, 'embedded'), billing, {}).sql);
    expect(await recomputeTriggers(db)).toEqual(['organisation', 'project']);
    await db.query("update public.organisation set currency = 'JPY'");
    const p = await db.query<{ currency: string }>('select currency from public.project');
    expect(p.rows).toEqual([{ currency: 'JPY' }]);
  }, 120_000);
});
