import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { sourceAliases, viteAliases } from './src/sourceAliases.ts';
import { SuiteSequencer } from './test/support/suiteSequencer.ts';

/** Files that launch Chromium: they take turns on the run's one browser slot. */
const BROWSER_FILES = ['test/e2e/**/*.test.ts', 'test/browser/**/*.test.ts'];

// One slot per run (not per machine): the workers inherit it from this process.
process.env.NINEFOLD_BROWSER_SLOT ??= join(tmpdir(), `ninefold-browser-slot-${process.pid}`);

export default defineConfig({
  // Tests and the reference apps import `ninefold` by name, resolved to its sources (docs/decisions.md).
  resolve: { alias: viteAliases(sourceAliases()) },
  test: {
    // Type tests (`*.test-d.ts`) are checked by `tsc` in `npm test`, not run here.
    typecheck: { enabled: false },
    // PGlite's cold start and Chromium builds take seconds on a loaded 2-core machine; these are
    // ceilings against hangs, not speed targets (those live in the benchmarks).
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Vitest's default on 2 cores is one file at a time; most files wait on another process
    // (Postgres, Chromium, npm) part of the time, so two run at once. Only one of them may be a
    // browser file (test/support/browserSlot.ts), and the sequencer lines them up so that the
    // browser files run back to back beside the rest (docs/decisions.md).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: SuiteSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts', 'studio/**/*.test.ts'],
          exclude: ['**/node_modules/**', ...BROWSER_FILES],
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: BROWSER_FILES,
          // A page's answer (rows drawn in transitions, a worker's query) can take seconds on a
          // loaded 2-core machine; `expect.poll`'s 1 s default failed there on a correct page.
          // A ceiling against hangs, like testTimeout: the speed targets live in the benchmarks.
          expect: { poll: { timeout: 10_000 } },
          setupFiles: ['test/support/browserSlot.setup.ts'],
        },
      },
    ],
  },
});
