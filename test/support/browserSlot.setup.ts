/**
 * Setup file of the `browser` project (vitest.config.ts): the file waits for the run's browser
 * slot before it starts (no hook timeout applies while waiting) and gives it back when it ends.
 */
import { afterAll } from 'vitest';
import { acquireBrowserSlot } from './browserSlot.ts';

const dir = process.env.NINEFOLD_BROWSER_SLOT;
if (dir) {
  const release = await acquireBrowserSlot(dir);
  afterAll(release);
}
