/**
 * Issue 29: the layers point one way. The rules are in .dependency-cruiser.cjs (bottom layer
 * first); scripts/check-layers.mjs reads every file's imports and has dependency-cruiser judge them.
 */
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without type declarations.
import { checkLayers, describeViolation, sourceGraph } from '../../scripts/check-layers.mjs';

interface Layer {
  name: string;
  members: string[];
  paths: string[];
}
interface Violation {
  rule: string;
  from: string;
  to: string;
}
type Check = (graph?: Map<string, string[]>) => Promise<{ violations: Violation[]; stale: string[] }>;

const config = createRequire(import.meta.url)(resolve('.dependency-cruiser.cjs')) as { layers: Layer[] };
const check = checkLayers as Check;
const describeOne = describeViolation as (v: Violation) => string;

describe('issue 29: one-way layers', () => {
  it('issue 29: no module of src/ or app/ imports a layer above its own, a sibling output, the other adapter or an entry point, and there is no file cycle', async () => {
    const { violations, stale } = await check();
    expect(violations.map(describeOne), 'layer violations (see .dependency-cruiser.cjs)').toEqual([]);
    expect(stale, 'temporarily allowed imports that no longer occur: remove them from the list').toEqual([]);
  });

  it('issue 29: every source file belongs to exactly one layer', () => {
    const files = [...(sourceGraph() as Map<string, string[]>).keys()];
    const unplaced = files.filter(
      (f) => config.layers.filter((l) => l.paths.some((p) => new RegExp(p).test(f))).length !== 1,
    );
    expect(unplaced).toEqual([]);
  });

  it('issue 29: the check catches an import up a layer, between adapters, between outputs and a cycle', async () => {
    const graph = new Map([
      ['src/model/a.ts', ['../sql/b.ts']],
      ['src/sql/b.ts', ['../doc/c.ts']],
      ['src/doc/c.ts', []],
      ['src/backend/embedded/d.ts', ['../supabase/e.ts']],
      ['src/backend/supabase/e.ts', []],
      ['src/spec/f.ts', ['./g.ts']],
      ['src/spec/g.ts', ['./f.ts']],
    ]);
    const { violations } = await check(graph);
    expect(violations.map((v) => `${v.rule} ${v.from}`).sort()).toEqual([
      'layer-model src/model/a.ts',
      'no-circular src/spec/f.ts',
      'siblings-src-backend-embedded src/backend/embedded/d.ts',
      'siblings-src-sql src/sql/b.ts',
    ]);
  });
});
