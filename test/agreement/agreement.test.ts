/**
 * Client/server agreement: every rule of the reference specifications, evaluated by the
 * TypeScript evaluator and by the SQL the migration is compiled from, on generated users and rows,
 * must give the same three-valued result. `FC_SEED` varies the seed, `FC_RUNS` the datasets per app.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import tasks from '../../examples/tasks/spec.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import { compileMigration } from '../../src/sql/compileMigration.ts';
import { openAgreementDb, type Session, serverWanted } from './agreementDb.ts';
import { compareOnDataset, compileSites, describeDisagreements } from './compare.ts';
import { planArb } from './dataset.ts';

const seed = process.env.FC_SEED === undefined ? 20_260_401 : Number(process.env.FC_SEED);
const runs = process.env.FC_RUNS === undefined ? 20 : Number(process.env.FC_RUNS);
const MIN_CASES = 10_000;
const server = await serverWanted();

const apps: [string, AppSpec][] = [
  ['helpdesk', helpdesk],
  ['expenses', expenses],
  ['tasks', tasks],
];

describe.each(apps)('agreement %s', (name, spec) => {
  let db: Session;
  beforeAll(async () => {
    db = await openAgreementDb(compileMigration(spec), server);
  }, 60_000);
  afterAll(async () => {
    await db?.close();
  });

  it('TypeScript evaluator and compiled SQL agree on every rule site', async () => {
    const rules = compileSites(spec);
    expect(rules.length).toBeGreaterThan(10);
    let cases = 0;
    let disagreements = 0;
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(planArb(spec, { minRows: 2, maxRows: 7 }), async (plan) => {
        const o = await compareOnDataset(db, spec, rules, plan, { rls: true });
        cases += o.cases;
        disagreements += o.disagreements.length;
        if (o.disagreements.length > 0)
          throw new Error(
            `${o.disagreements.length} disagreement(s) in ${name}:\n${describeDisagreements(o.disagreements)}`,
          );
      }),
      { seed, numRuns: runs, endOnFailure: process.env.FC_SHRINK !== '1' },
    );
    console.log(
      `agreement ${name}: ${cases} cases, ${disagreements} disagreements (${rules.length} rules, ${runs} datasets, ` +
        `${db.kind}, seed ${seed}, ${Date.now() - started} ms)`,
    );
    expect(cases).toBeGreaterThanOrEqual(MIN_CASES);
  }, 300_000);
});
