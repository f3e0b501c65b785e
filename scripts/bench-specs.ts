/**
 * `npm run bench:specs [-- count [seed]]`: runs many generated specifications through the suites
 * of test/generated (check, migration on the server with the catalog audit, rule agreement on one
 * dataset) and prints the count and every failure with the specification that failed.
 * Without a Postgres server at DATABASE_URL the migration and agreement run on PGlite (slower).
 */
import fc from 'fast-check';
import { serverAvailable } from '../src/sql/testing/pgDb.ts';
import { planArb } from '../test/agreement/dataset.ts';
import { agree, checkAndCompile } from '../test/generated/runGenerated.ts';
import { specArb } from '../test/generated/specArb.ts';

const count = Number(process.argv[2] ?? 1000);
const seed = Number(process.argv[3] ?? Date.now() % 1_000_000);
const deep = process.env.BENCH_DEEP === undefined ? 1 : Number(process.env.BENCH_DEEP);
const server = await serverAvailable();
const started = Date.now();
let failures = 0;
let cases = 0;
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
  } catch (e) {
    failures += 1;
    console.log(`FAILURE ${i + 1}: ${e instanceof Error ? e.message : String(e)}\n${JSON.stringify(spec)}\n`);
  }
  if ((i + 1) % 50 === 0)
    console.log(
      `${i + 1} specifications, ${failures} failures, ${cases} agreement cases, ${Date.now() - started} ms`,
    );
}
console.log(
  `bench:specs: ${count} specifications (seed ${seed}, ${server ? 'server' : 'PGlite'}, every ${deep === 1 ? '' : `${deep}th `}one on the database), ` +
    `${failures} failures, ${cases} agreement cases, ${Date.now() - started} ms`,
);
process.exitCode = failures > 0 ? 1 : 0;
