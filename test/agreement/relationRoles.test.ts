/**
 * Roles held through a relationship (`through`: a membership, a person field): every rule site of
 * the team tracker (policies, guards, "waiting on", the transitions' roles) and rules naming the
 * roles of other people, evaluated on generated data by the TypeScript evaluator and by the SQL
 * under row-level security, on PGlite and the server. They must agree case by case.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teamSpec } from '../../src/check/fixtures/teamSpec.ts';
import { validateSpec } from '../../src/check/validateSpec.ts';
import { compileMigration } from '../../src/sql/compileMigration.ts';
import { serverAvailable } from '../../src/sql/testing/pgDb.ts';
import { openAgreementDb, type Session } from './agreementDb.ts';
import { compareOnDataset, compileRules, compileSites, describeDisagreements } from './compare.ts';
import { planArb } from './dataset.ts';

const seed = process.env.FC_SEED === undefined ? 20_261_126 : Number(process.env.FC_SEED);
const runs = process.env.FC_RUNS === undefined ? 8 : Number(process.env.FC_RUNS);
const spec = teamSpec();

const backends: ('pglite' | 'server')[] = [
  'pglite',
  ...((await serverAvailable()) ? ['server' as const] : []),
];

describe.each(backends)('roles held through a relationship agree on %s', (backend) => {
  let db: Session;
  beforeAll(async () => {
    db = await openAgreementDb(compileMigration(spec), backend === 'server');
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  it('every rule site and every relationship rule, on generated teams', async () => {
    expect(validateSpec(spec).diagnostics).toEqual([]);
    const rules = [
      ...compileSites(spec),
      ...compileRules(spec, 'task', [
        'me is teamMember',
        'me is not teamOwner',
        'assignee is projectLead',
        'assignee is not teamMember or me is projectLead',
      ]),
      ...compileRules(spec, 'project', ['lead is teamOwner', 'me is projectLead or me is teamMember']),
      ...compileRules(spec, 'membership', ['person is teamOwner', 'me is teamMember']),
    ];
    let cases = 0;
    for (const rls of [false, true]) {
      await fc.assert(
        fc.asyncProperty(planArb(spec, { minRows: 2, maxRows: 6 }), async (plan) => {
          const o = await compareOnDataset(db, spec, rules, plan, { rls });
          cases += o.cases;
          if (o.disagreements.length > 0)
            throw new Error(
              `${o.disagreements.length} disagreement(s):\n${describeDisagreements(o.disagreements)}`,
            );
        }),
        { seed, numRuns: runs, endOnFailure: process.env.FC_SHRINK !== '1' },
      );
    }
    console.log(`agreement relationship roles (${backend}): ${cases} cases, 0 disagreements`);
    expect(cases).toBeGreaterThan(100);
  }, 300_000);
});
