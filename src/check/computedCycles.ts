import type { Diagnostic } from '../diagnostics.ts';
import { computedCycle } from '../model/computedDependents.ts';
import { resolve } from '../model/resolve.ts';
import { at, report } from '../spec/specShape.ts';
import type { AppSpec } from '../spec/types.ts';

/**
 * Computed fields may not read each other round (through references or in one row): a referenced
 * row's change rewrites its dependents (src/sql/emitRecompute.ts), whose change would come back
 * to it, for ever or until the data's references ended the loop. Reported at the first field of
 * the cycle.
 */
export function checkComputedCycles(spec: AppSpec, out: Diagnostic[]): void {
  const cycle = computedCycle(resolve(spec));
  if (!cycle) return;
  const [entity, field] = (cycle[0] as string).split('.') as [string, string];
  report(
    out,
    'spec/invalid-value',
    at(at(at(at('entities', entity), 'fields'), field), 'computed'),
    `computed fields read each other round (${cycle.join(' ← ')}): a change would recompute them for ever`,
    'compute one of them from fields that are not computed',
  );
}
