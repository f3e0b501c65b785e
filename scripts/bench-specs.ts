/**
 * `npm run bench:specs [-- count [seed]]`: runs many generated specifications through the suites
 * of test/generated (check, migration on the server with the catalog audit, rule agreement on one
 * dataset) and prints the count and every failure with the specification that failed.
 * Without a Postgres server at DATABASE_URL the migration and agreement run on PGlite (slower).
 * `BENCH_DEEP=k`: only every k-th specification goes to the database (the rest are checked and
 * compiled). `BENCH_ACT=k`: every k-th one is also acted out (behaviour.ts: creates, updates,
 * deletes and transitions by users of every role) on a fresh database of its own.
 */
import fc from 'fast-check';
import type { AppSpec } from '../src/spec/types.ts';
import { createServerDb, serverAvailable } from '../src/sql/testing/pgDb.ts';
import { createPgliteDb } from '../src/sql/testing/pgliteDb.ts';
import { planArb } from '../test/agreement/dataset.ts';
import { checkBehaviour } from '../test/generated/behaviour.ts';
import { agree, applyAndAudit, checkAndCompile } from '../test/generated/runGenerated.ts';
import { specArb } from '../test/generated/specArb.ts';

const count = Number(process.argv[2] ?? 1000);
const seed = Number(process.argv[3] ?? Date.now() % 1_000_000);
const deep = process.env.BENCH_DEEP === undefined ? 1 : Number(process.env.BENCH_DEEP);
const act = process.env.BENCH_ACT === undefined ? 0 : Number(process.env.BENCH_ACT);
const server = await serverAvailable();
const started = Date.now();
let failures = 0;
let cases = 0;
let acted = 0;
let actCases = 0;

/** Acts the specification out on a fresh database; throws with the mismatches. */
async function actOut(spec: AppSpec, migration: string): Promise<number> {
  const db = server ? await createServerDb() : await createPgliteDb();
  try {
    await applyAndAudit(db, migration, server ? 'the server' : 'PGlite');
    const o = await checkBehaviour(db, spec);
    const all = [...o.mismatches, ...o.writes.mismatches];
    if (all.length > 0)
      throw new Error(`act-out: ${all.length} mismatch(es):\n  ${all.slice(0, 8).join('\n  ')}`);
    return o.cases + o.writes.creates + o.writes.updates;
  } finally {
    await db.close();
  }
}
const samples = fc.sample(
  specArb.chain((spec) => fc.tuple(fc.constant(spec), planArb(spec, { minRows: 2, maxRows: 4 }))),
  { numRuns: count, seed },
);
for (const [i, [spec, plan]] of samples.entries()) {
  try {
    const migration = checkAndCompile(spec);
    // Every spec is checked and compiled; one in `deep` also goes to the database.
    // The migration, the catalog audit and the agreement share one fresh database per spec.
    if (i % deep === 0) cases += await agree(spec, migration, [plan], server, true);
    if (act > 0 && i % act === 0) {
      actCases += await actOut(spec, migration);
      acted += 1;
    }
  } catch (e) {
    failures += 1;
    console.log(`FAILURE ${i + 1}: ${e instanceof Error ? e.message : String(e)}\n${JSON.stringify(spec)}\n`);
  }
  if ((i + 1) % 50 === 0)
    console.log(
      `${i + 1} specifications, ${failures} failures, ${cases} agreement cases, ${acted} acted out, ${Date.now() - started} ms`,
    );
}
console.log(
  `bench:specs: ${count} specifications (seed ${seed}, ${server ? 'server' : 'PGlite'}, every ${deep === 1 ? '' : `${deep}th `}one on the database), ` +
    `${acted} acted out (${actCases} writes, deletes and transitions), ` +
    `${failures} failures, ${cases} agreement cases, ${Date.now() - started} ms`,
);
process.exitCode = failures > 0 ? 1 : 0;
