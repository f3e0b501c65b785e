import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Whether process `pid` still runs (a slot held by a dead process is free). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === 'EPERM';
  }
}

/**
 * Takes the run's one browser slot (a directory holding the owner's pid), waiting while another
 * file holds it; returns the release. Test files run two at a time on a 2-core machine, but two
 * Chromium files at once starve each other's page workers (PGlite in wasm) into timeouts, so
 * browser files take turns while the other worker runs the Node-only files.
 *
 * @example
 * const release = await acquireBrowserSlot(dir);
 */
export async function acquireBrowserSlot(dir: string, pollMs = 200): Promise<() => void> {
  for (;;) {
    try {
      mkdirSync(dir);
      writeFileSync(join(dir, 'pid'), String(process.pid));
      let held = true;
      const release = () => {
        if (!held) return;
        held = false;
        rmSync(dir, { recursive: true, force: true });
      };
      // A file that crashes before its afterAll must not keep the others waiting.
      process.once('exit', release);
      return release;
    } catch (e) {
      if ((e as { code?: string }).code !== 'EEXIST') throw e;
    }
    let owner = Number.NaN;
    try {
      owner = Number(readFileSync(join(dir, 'pid'), 'utf8'));
    } catch {
      // Just made, pid not written yet: wait.
    }
    const age = Date.now() - (statSync(dir, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    // Its owner died (or died between making it and writing its pid): the slot is free.
    if ((Number.isInteger(owner) && owner > 0 && !alive(owner)) || (Number.isNaN(owner) && age > 10_000))
      rmSync(dir, { recursive: true, force: true });
    else await new Promise((r) => setTimeout(r, pollMs));
  }
}
