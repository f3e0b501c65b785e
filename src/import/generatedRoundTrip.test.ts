import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documentSpecArb, specArb } from '../../test/generated/specArb.ts';
import { renderDoc } from '../doc/renderDoc.ts';
import { resolve } from '../model/resolve.ts';
import type { AppSpec } from '../spec/types.ts';
import { importDoc } from './importDoc.ts';
import { normalizeSpec } from './normalizeSpec.ts';

function model(spec: AppSpec): unknown {
  return JSON.parse(JSON.stringify({ ...resolve(spec), spec: undefined }));
}

/** The round trip for every specification of the generated-specification arbitrary. */
describe.each([
  ['specArb', specArb],
  // Guards, single-field unique keys, multi-clause field rules, camelCase names, Markdown in labels.
  ['documentSpecArb', documentSpecArb],
])('import(doc(spec)) for generated specifications (%s)', (_, arb) => {
  it(
    'is the same specification and the same model; the document is stable',
    () => {
      fc.assert(
        fc.property(arb, (spec) => {
          const md = renderDoc(spec);
          const r = importDoc(md);
          expect(r.draft, JSON.stringify(r.diagnostics.slice(0, 3))).not.toBeNull();
          expect(normalizeSpec(r.draft as AppSpec)).toEqual(normalizeSpec(spec));
          expect(model(r.draft as AppSpec)).toEqual(model(spec));
          expect(renderDoc(r.draft as AppSpec)).toBe(md);
        }),
        { numRuns: Number(process.env.NINEFOLD_ROUNDTRIP_RUNS ?? 25), seed: 15 },
      );
    },
    10 * 60_000,
  );
});
