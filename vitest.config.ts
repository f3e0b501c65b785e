import { defineConfig } from 'vitest/config';

export default defineConfig({
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
