/**
 * The suites on generated specifications (`specArb`): for each, `check` passes, the migration
 * applies on PGlite and on the server with the catalog audit passing, the rule agreement finds
 * no disagreement, and creates, updates, deletes and transitions by users of every role (and one
 * with none) do what the rules say (behaviour.ts, writes.ts). A failure shrinks to a small specification, printed as JSON in the output.
 * `FC_SPECS` sets how many specifications run (8 by default: fewer may, by chance, hold no update a
 * role may make, and the suite asserts both outcomes were seen), `FC_SEED` the seed.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerDb, serverAvailable } from '../../src/sql/testing/pgDb.ts';
import { createPgliteDb } from '../../src/sql/testing/pgliteDb.ts';
import type { TestDb } from '../../src/sql/testing/testDb.ts';
import { planArb } from '../agreement/dataset.ts';
import { checkBehaviour } from './behaviour.ts';
import { agree, applyAndAudit, checkAndCompile } from './runGenerated.ts';
import { specArb } from './specArb.ts';

const seed = process.env.FC_SEED === undefined ? 20_261_123 : Number(process.env.FC_SEED);
const specs = process.env.FC_SPECS === undefined ? 8 : Number(process.env.FC_SPECS);
const server = await serverAvailable();
if (!server && process.env.CI === 'true') throw new Error('CI=true but no Postgres server answers');

const WIPE_SQL = `drop schema if exists app cascade; drop schema if exists auth cascade;
drop schema if exists public cascade; create schema public;`;

describe('generated specifications', () => {
  let pglite: TestDb;
  beforeAll(async () => {
    pglite = await createPgliteDb();
  }, 180_000);
  afterAll(async () => {
    await pglite?.close();
  });

  it('check every one of them (fast, many)', () => {
    fc.assert(
      fc.property(specArb, (spec) => {
        checkAndCompile(spec);
      }),
      { seed, numRuns: specs * 25 },
    );
  });

  it(`${specs} specifications: migration on PGlite${server ? ' and the server' : ''}, audit, agreement`, async () => {
    let cases = 0;
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(
        specArb.chain((spec) =>
          fc.tuple(
            fc.constant(spec),
            fc.array(planArb(spec, { minRows: 2, maxRows: 4 }), { minLength: 1, maxLength: 1 }),
          ),
        ),
        async ([spec, plans]) => {
          const migration = checkAndCompile(spec);
          await pglite.exec(WIPE_SQL);
          await applyAndAudit(pglite, migration, 'PGlite');
          if (server) {
            const db = await createServerDb();
            try {
              await applyAndAudit(db, migration, 'the server');
            } finally {
              await db.close();
            }
          }
          cases += await agree(spec, migration, plans, server);
        },
      ),
      // Shrinking runs the databases again: bounded, it still ends with the smallest failing spec found.
      { seed, numRuns: specs, interruptAfterTimeLimit: 200_000, markInterruptAsFailure: false },
    );
    console.log(
      `generated specs: ${specs} specifications, ${cases} agreement cases, 0 failures (seed ${seed}, ${Date.now() - started} ms)`,
    );
    expect(cases).toBeGreaterThan(0);
  }, 290_000);

  it(`${specs} specifications on PGlite: creates, updates, deletes and transitions by users of every role behave as the rules say`, async () => {
    let cases = 0;
    let succeeded = 0;
    const writes = { creates: 0, createsDone: 0, updates: 0, updatesDone: 0 };
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(specArb, async (spec) => {
        const migration = checkAndCompile(spec);
        await pglite.exec(WIPE_SQL);
        await applyAndAudit(pglite, migration, 'PGlite');
        const o = await checkBehaviour(pglite, spec);
        cases += o.cases;
        succeeded += o.succeeded;
        for (const k of Object.keys(writes) as (keyof typeof writes)[]) writes[k] += o.writes[k];
        const all = [...o.mismatches, ...o.writes.mismatches];
        if (all.length > 0) throw new Error(`${all.length} mismatch(es):\n  ${all.slice(0, 8).join('\n  ')}`);
      }),
      { seed, numRuns: specs, interruptAfterTimeLimit: 150_000, markInterruptAsFailure: false },
    );
    console.log(
      `generated specs, behaviour: ${specs} specifications, ${cases} delete/transition cases (${succeeded} allowed and done, the rest refused as the rules say), ${writes.creates} creates (${writes.createsDone} done), ${writes.updates} updates (${writes.updatesDone} done), 0 failures (seed ${seed}, ${Date.now() - started} ms)`,
    );
    expect(succeeded).toBeGreaterThan(0);
    expect(cases - succeeded).toBeGreaterThan(0);
    // Both sides of creates and updates are exercised: some succeed, some are refused.
    expect(writes.createsDone).toBeGreaterThan(0);
    expect(writes.creates - writes.createsDone).toBeGreaterThan(0);
    expect(writes.updatesDone).toBeGreaterThan(0);
    expect(writes.updates - writes.updatesDone).toBeGreaterThan(0);
  }, 240_000);
});
