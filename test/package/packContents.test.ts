import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The files `npm pack` would put in the tarball (without building dist/: its sources are listed). */
function packedFiles(): Promise<string[]> {
  return new Promise((done, fail) => {
    execFile(
      'npm',
      ['pack', '--dry-run', '--json', '--ignore-scripts'],
      { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => {
        if (error) return fail(error);
        const [pack] = JSON.parse(stdout) as [{ files: { path: string }[] }];
        done(pack.files.map((f) => f.path));
      },
    );
  });
}

/** A test, a fixture, a golden file or test support, by its path. */
const TEST_PATH =
  /\.test(-d)?\.tsx?$|(^|\/)(test|fixtures|testing|__golden__)\/|(^|\/)(fixtures|testUtil)\.tsx?$/;
/** A module that loads a test runner or a browser driver. */
const TEST_IMPORT = /from\s+['"](vitest|@vitest\/[^'"]+|playwright-core|playwright)['"]/;

describe('the package', () => {
  it('issue 29: npm pack lists no test, fixture or vitest-importing file', async () => {
    const files = await packedFiles();
    expect(files.length).toBeGreaterThan(100);
    // The package's own code is in it (the check would pass vacuously on an empty list).
    expect(files).toContain('src/backend/loadBackend.ts');
    expect(files.filter((f) => TEST_PATH.test(f))).toEqual([]);
    const sources = files.filter((f) => /\.(ts|tsx|js|mjs)$/.test(f));
    expect(sources.filter((f) => TEST_IMPORT.test(readFileSync(join(ROOT, f), 'utf8')))).toEqual([]);
  });
});
