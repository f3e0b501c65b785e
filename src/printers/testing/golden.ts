import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';

/**
 * Compares a printer's output with its golden file (`UPDATE_GOLDEN=1` rewrites it; a missing file is
 * written, except in CI). Test helper of the printers.
 */
export function expectGolden(file: string, actual: string): void {
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
    if (process.env.CI === 'true' && !existsSync(file)) throw new Error(`missing golden file ${file}`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  expect(actual, `${file} differs (UPDATE_GOLDEN=1 rewrites it)`).toBe(readFileSync(file, 'utf8'));
}

export const goldenFile = (name: string): string =>
  join(dirname(new URL(import.meta.url).pathname), '..', '__golden__', name);
