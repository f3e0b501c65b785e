import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireBrowserSlot } from './browserSlot.ts';

describe('the browser slot', () => {
  const root = mkdtempSync(join(tmpdir(), 'ninefold-slot-test-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('lets one holder in at a time; the next gets it when the first releases', async () => {
    const dir = join(root, 'one');
    const release = await acquireBrowserSlot(dir, 10);
    let second = false;
    const waiting = acquireBrowserSlot(dir, 10).then((r) => {
      second = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(second).toBe(false);
    release();
    (await waiting)();
    expect(second).toBe(true);
    expect(existsSync(dir)).toBe(false);
  });

  it('takes a slot whose holder died', async () => {
    const dir = join(root, 'dead');
    // A process that has ended: its pid is free.
    const dead = spawnSync(process.execPath, [
      '-e',
      'process.stdout.write(String(process.pid))',
    ]).stdout.toString();
    mkdirSync(dir);
    writeFileSync(join(dir, 'pid'), dead);
    const release = await acquireBrowserSlot(dir, 10);
    release();
  });
});
