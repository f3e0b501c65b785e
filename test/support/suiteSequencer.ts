import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds a file is assumed to take when there is no earlier duration for it (a fresh clone): the
 * means of a full run on this machine were about 30 s (browser) and 7 s (node); node files are
 * guessed longer than that so the browser files, the longer chain of the two, come early rather
 * than pile up at the end when a few slow node files (pack-and-install, evolution) run long.
 */
const GUESS = { browser: 30, node: 10 };

/**
 * The order test files start in, for two workers of which only one may run a browser file at a
 * time (`browserSlot.ts`): a list schedule simulated with the durations of the last run (or a
 * guess), in which the worker that frees first takes the next browser file when the slot is free
 * and a Node file otherwise. The browser files then run back to back on one worker while the
 * other runs everything else, instead of a worker sitting on the slot's lock.
 */
export class SuiteSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const seconds = (spec: TestSpecification, kind: 'browser' | 'node') => {
      const key = `${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`;
      const ms = this.ctx.cache.getFileTestResults(key)?.duration;
      return ms === undefined ? GUESS[kind] : ms / 1000;
    };
    const longestFirst = (kind: 'browser' | 'node') =>
      sorted
        .filter((s) => (s.project.name === 'browser') === (kind === 'browser'))
        .map((spec) => ({ spec, s: seconds(spec, kind) }))
        .sort((a, b) => b.s - a.s);
    const browser = longestFirst('browser');
    const node = longestFirst('node');
    const free: [number, number] = [0, 0];
    let slotFreeAt = 0;
    const out: TestSpecification[] = [];
    while (browser.length > 0 || node.length > 0) {
      const w = free[0] <= free[1] ? 0 : 1;
      const now = free[w];
      const next =
        browser.length > 0 && (slotFreeAt <= now || node.length === 0) ? browser.shift() : node.shift();
      if (!next) break;
      const start = next.spec.project.name === 'browser' ? Math.max(now, slotFreeAt) : now;
      free[w] = start + next.s;
      if (next.spec.project.name === 'browser') slotFreeAt = free[w];
      out.push(next.spec);
    }
    return out;
  }
}
