/**
 * `npm run bench:screens [-- count [seed]]`: every screen for every demo role of many generated
 * specifications (test/generated/specArb.ts, the same samples as bench:specs for a seed) in ONE
 * built studio (test/e2e/studioScreens.ts): each spec's document opens by share link in a fresh
 * browser context, its live app gets rows as the owner, and each role visits every screen. Prints
 * progress every 10 specifications and a final table; a failure prints the specification and keeps
 * it in test-results/bench-screens/<seed>-<n>.json. `BENCH_SECONDS=s`: no new specification is
 * started after s seconds (the table then counts those run). `BENCH_PARALLEL=n`: n specifications
 * at a time, each in its own browser context. `BENCH_FROM=k`: the first k specifications are left
 * out (an earlier run of the same seed did them).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { RESULTS } from '../test/e2e/harness.ts';
import { everyScreenInStudio, startStudioBench, studioDocument } from '../test/e2e/studioScreens.ts';
import { checkAndCompile } from '../test/generated/runGenerated.ts';
import { specArb } from '../test/generated/specArb.ts';

const count = Number(process.argv[2] ?? 20);
const seed = Number(process.argv[3] ?? Date.now() % 1_000_000);
const budget =
  process.env.BENCH_SECONDS === undefined ? Number.POSITIVE_INFINITY : Number(process.env.BENCH_SECONDS);
const parallel = Math.max(1, Number(process.env.BENCH_PARALLEL ?? 1));
const started = Date.now();
const totals = {
  specs: 0,
  screens: 0,
  pairs: 0,
  visits: 0,
  rows: 0,
  details: 0,
  hiddenNotFound: 0,
  failures: 0,
  open: 0,
  seed: 0,
  visitMs: 0,
};
const failed: string[] = [];

function keep(n: number, spec: unknown, faults: string[]): void {
  const dir = join(RESULTS, 'bench-screens');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${seed}-${n}.json`), `${JSON.stringify({ seed, n, faults, spec }, null, 1)}\n`);
}

const studio = await startStudioBench();
console.log(
  `bench:screens: studio built and served in ${Date.now() - started} ms; ${count} specifications, seed ${seed}, ${parallel} at a time`,
);
/** One specification through the studio: adds to the totals, keeps a failure. */
async function runOne(n: number, generated: (typeof samples)[number]): Promise<void> {
  let faults: string[];
  try {
    checkAndCompile(generated);
    const doc = studioDocument(generated);
    if ('problems' in doc) faults = [`its document has errors: ${doc.problems.slice(0, 3).join('; ')}`];
    else {
      const o = await everyScreenInStudio(await studio.browser(), studio.url, doc, `${seed}-${n}`);
      faults = o.faults;
      totals.screens += o.screens;
      totals.pairs += o.pairs;
      totals.visits += o.visits;
      totals.rows += o.rows;
      totals.details += o.details;
      totals.hiddenNotFound += o.hiddenNotFound;
      totals.open += o.ms.open;
      totals.seed += o.ms.seed;
      totals.visitMs += o.ms.visits;
      if (process.env.BENCH_VERBOSE) console.log(`${n}: ${o.pairs} pairs, ${o.visits} visits`, o.ms);
    }
  } catch (e) {
    faults = [`check: ${e instanceof Error ? e.message : String(e)}`];
  }
  totals.specs += 1;
  if (faults.length > 0) {
    totals.failures += 1;
    failed.push(`${n}: ${faults[0]}`);
    keep(n, generated, faults);
    console.log(`FAILURE ${n}: ${faults.slice(0, 5).join('\n  ')}\n${JSON.stringify(generated)}\n`);
  }
  if (totals.specs % 10 === 0)
    console.log(
      `${totals.specs} specifications, ${totals.pairs} role×screen pairs, ${totals.failures} failures, ${Math.round((Date.now() - started) / 1000)} s`,
    );
}

const samples = fc.sample(specArb, { numRuns: count, seed });
// BENCH_FROM=k: start at the (k+1)-th specification (a run that stopped after k goes on).
let next = Math.min(Number(process.env.BENCH_FROM ?? 0), samples.length);
try {
  // BENCH_PARALLEL browser contexts take the next specification in turn (two suit two cores).
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < samples.length) {
        if ((Date.now() - started) / 1000 > budget) {
          if (next < samples.length) console.log(`BENCH_SECONDS=${budget} reached: no new specification`);
          next = samples.length;
          break;
        }
        const i = next++;
        await runOne(i + 1, samples[i] as (typeof samples)[number]);
      }
    }),
  );
} finally {
  await studio.close();
}
const seconds = (Date.now() - started) / 1000;
console.table({
  specs: totals.specs,
  'screens visited': totals.screens,
  'role×screen pairs': totals.pairs,
  'visits (readable and hidden rows)': totals.visits,
  'rows made': totals.rows,
  'details of a readable row': totals.details,
  'details of a hidden row: not found': totals.hiddenNotFound,
  failures: totals.failures,
  seconds: Math.round(seconds),
  'seconds per spec': Number((seconds / Math.max(totals.specs, 1)).toFixed(1)),
  'of which: studio open and live app running': Number(
    (totals.open / 1000 / Math.max(totals.specs, 1)).toFixed(1),
  ),
  'of which: rows made': Number((totals.seed / 1000 / Math.max(totals.specs, 1)).toFixed(1)),
  'of which: visits': Number((totals.visitMs / 1000 / Math.max(totals.specs, 1)).toFixed(1)),
  'ms per visit': Math.round(totals.visitMs / Math.max(totals.visits, 1)),
});
for (const f of failed) console.log(`failed ${f}`);
process.exitCode = totals.failures > 0 ? 1 : 0;
