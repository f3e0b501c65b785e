/**
 * Issue 32: every screen for every demo role of generated specifications (`test/generated/specArb.ts`)
 * in ONE built studio (`ninefold build --studio`), not a build per specification
 * (generatedScreens.e2e.test.ts builds each): each specification's document opens by share link in a
 * fresh browser context, its live app gets rows as the owner, each demo role visits every screen
 * (studioScreens.ts, the code of `npm run bench:screens`). `FC_STUDIO_SCREEN_SPECS` specifications
 * (3 by default), seed `FC_SEED`. A failing specification is printed in full and shrunk while time allows.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from '../../src/model/resolve.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import { checkAndCompile } from '../generated/runGenerated.ts';
import { specArb } from '../generated/specArb.ts';
import { e2eAvailable } from './harness.ts';
import { everyScreenInStudio, type StudioBench, startStudioBench, studioDocument } from './studioScreens.ts';

// Seed 7 by default, as generatedScreens: its first specifications let some role read rows of an
// entity with a detail screen, which the last assertion needs; any seed must pass the fault checks.
const seed = process.env.FC_SEED === undefined ? 7 : Number(process.env.FC_SEED);
const specs =
  process.env.FC_STUDIO_SCREEN_SPECS === undefined ? 3 : Number(process.env.FC_STUDIO_SCREEN_SPECS);

/** A list screen of an entity no role may read: the table has no SELECT grant, every read is refused. */
function unreadableList(spec: AppSpec): boolean {
  const read = new Set(resolve(spec).policies.flatMap((p) => (p.action === 'read' ? [p.entity] : [])));
  return Object.values(spec.screens).some(
    (s) =>
      s.kind === 'list' &&
      s.entity !== undefined &&
      s.nav !== undefined &&
      s.nav.length > 0 &&
      !read.has(s.entity),
  );
}

describe.skipIf(!e2eAvailable)(
  'generated specifications in one built studio: every screen for every role',
  () => {
    let studio: StudioBench | undefined;
    beforeAll(async () => {
      studio = await startStudioBench();
    }, 120_000);
    afterAll(async () => {
      await studio?.close();
    });

    it(`${specs} generated specifications render every screen for every demo role with no error`, async () => {
      const bench = studio as StudioBench;
      const seen = { pairs: 0, details: 0, hiddenNotFound: 0, rows: 0 };
      const started = Date.now();
      await fc.assert(
        fc.asyncProperty(specArb, async (generated) => {
          checkAndCompile(generated);
          const doc = studioDocument(generated);
          if ('problems' in doc) throw new Error(`its document has errors:\n  ${doc.problems.join('\n  ')}`);
          const o = await everyScreenInStudio(await bench.browser(), bench.url, doc, 'e2e');
          if (o.faults.length > 0)
            throw new Error(`${o.faults.length} fault(s):\n  ${o.faults.slice(0, 10).join('\n  ')}`);
          expect(o.pairs).toBeGreaterThan(0);
          seen.pairs += o.pairs;
          seen.details += o.details;
          seen.hiddenNotFound += o.hiddenNotFound;
          seen.rows += o.rows;
        }),
        // A spec is about 20 s: shrinking a failure stops after the limit with the smallest found so far.
        { seed, numRuns: specs, interruptAfterTimeLimit: 240_000, markInterruptAsFailure: false },
      );
      console.log(
        `generated screens in the studio: ${specs} specifications, ${seen.rows} rows, ${seen.pairs} role×screen pairs, ` +
          `${seen.details} details of a readable row, ${seen.hiddenNotFound} hidden rows not found (seed ${seed}, ${Date.now() - started} ms)`,
      );
      // Rows were made and their detail screens reached (links and rows rendered), and a row a role
      // may not read says not found: the not-found check itself looks at the right heading.
      expect(seen.details).toBeGreaterThan(0);
      expect(seen.hiddenNotFound).toBeGreaterThan(0);
    }, 600_000);

    // Specifications with a list in every role's navigation whose entity no role may read (no
    // SELECT grant: every read of it is refused). Such screens kept a skeleton for good over the
    // error ("Nothing needs your attention" beside it); now the failure is said. Picked by that
    // property from seed 777, not by position, so a change to the generator keeps the case.
    it('screens whose reads fail say so instead of loading for good (seed 777, first two unreadable lists)', async () => {
      const bench = studio as StudioBench;
      let saidFailed = 0;
      const picked = fc.sample(specArb, { numRuns: 60, seed: 777 }).filter(unreadableList).slice(0, 2);
      expect(picked).toHaveLength(2);
      for (const [i, generated] of picked.entries()) {
        const doc = studioDocument(generated);
        if ('problems' in doc) throw new Error(`its document has errors: ${doc.problems.join('; ')}`);
        const o = await everyScreenInStudio(await bench.browser(), bench.url, doc, `e2e-777-${i + 1}`);
        expect(o.faults).toEqual([]);
        expect(o.visits).toBeGreaterThan(10);
        saidFailed += o.loadFailed;
      }
      // The second's refused reads are said ("This could not be loaded" and the catalogue's FORBIDDEN).
      expect(saidFailed).toBeGreaterThan(0);
    }, 300_000);
  },
);
