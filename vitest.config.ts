import { defineConfig } from 'vitest/config';
import { sourceAliases, viteAliases } from './src/sourceAliases.ts';

export default defineConfig({
  // Tests and the reference apps import `ninefold` by name, resolved to its sources (docs/decisions.md).
  resolve: { alias: viteAliases(sourceAliases()) },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
    // Type tests (`*.test-d.ts`) are checked by `tsc` in `npm test`, not run here.
    typecheck: { enabled: false },
    // PGlite's cold start and Chromium builds take seconds on a loaded 2-core machine; these are
    // ceilings against hangs, not speed targets (those live in the benchmarks).
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
