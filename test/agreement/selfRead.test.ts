/**
 * Read rules that refer to their own entity (`count(task where parent = this.parent and owner =
 * me)`, `parent.owner = me`, `me.department` on the profile entity, `sum(...)` over the same
 * table): Postgres refuses such policies at query time with "infinite recursion detected in
 * policy" unless those reads go through a security-definer helper. Each user's readable rows, and
 * every rule, must agree between the TypeScript evaluator and the SQL, on PGlite and the server.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateSpec } from '../../src/check/validateSpec.ts';
import { ruleSpec } from '../../src/rules/fixtures/ruleSpec.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import { compileMigration } from '../../src/sql/compileMigration.ts';
import { serverAvailable } from '../../src/sql/testing/pgDb.ts';
import { openAgreementDb, type Session } from './agreementDb.ts';
import { compareOnDataset, compileSites, describeDisagreements } from './compare.ts';
import { planArb } from './dataset.ts';

const seed = process.env.FC_SEED === undefined ? 20_261_123 : Number(process.env.FC_SEED);
const runs = process.env.FC_RUNS === undefined ? 8 : Number(process.env.FC_RUNS);

const selfReadSpec: AppSpec = {
  ...ruleSpec,
  entities: {
    ...ruleSpec.entities,
    task: {
      label: 'Task',
      fields: {
        title: { type: 'text' },
        parent: { type: 'ref', ref: 'task' },
        owner: { type: 'user', owner: true },
        estimate: { type: 'number' },
      },
    },
  },
  roles: {
    ...ruleSpec.roles,
    permissions: {
      customer: {
        task: { read: 'owner = me or count(task where parent = this.parent and owner = me) >= 1' },
        person: { read: 'manager = me or me.department = department' },
        ticket: { read: 'requester = me' },
        product: { read: true },
      },
      agent: {
        task: { read: 'parent.owner = me or sum(task.estimate where owner = me) > 5' },
        ticket: { read: 'count(ticket where requester = this.requester and assignee = me) > 0' },
      },
      auditor: {
        person: { read: 'me.joinedOn < joinedOn' },
        proposal: { read: true },
        review: { read: true },
      },
    },
  },
};

const backends: ('pglite' | 'server')[] = [
  'pglite',
  ...((await serverAvailable()) ? ['server' as const] : []),
];

describe.each(backends)('self-referencing read rules on %s', (backend) => {
  let db: Session;
  beforeAll(async () => {
    db = await openAgreementDb(compileMigration(selfReadSpec), backend === 'server');
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  it('check passes and the migration makes a security-definer helper per self-read', () => {
    expect(validateSpec(selfReadSpec).diagnostics).toEqual([]);
    const sql = compileMigration(selfReadSpec);
    expect(sql).toMatch(/create or replace function app\."?task__self_read_1"?\(p_row public\.task\)/);
    expect(sql).toMatch(/function app\."?person__self_read_\d"?\(p_row public\.person\)/);
  });

  it('every user reads what the rules say, with no policy recursion', async () => {
    const rules = compileSites(selfReadSpec);
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(planArb(selfReadSpec, { minRows: 2, maxRows: 6 }), async (plan) => {
        const o = await compareOnDataset(db, selfReadSpec, rules, plan, { rls: true });
        cases += o.cases;
        if (o.disagreements.length > 0)
          throw new Error(
            `${o.disagreements.length} disagreement(s):\n${describeDisagreements(o.disagreements)}`,
          );
      }),
      { seed, numRuns: runs, endOnFailure: process.env.FC_SHRINK !== '1' },
    );
    console.log(`agreement self-read (${backend}): ${cases} cases, 0 disagreements`);
    expect(cases).toBeGreaterThan(100);
  }, 300_000);
});
