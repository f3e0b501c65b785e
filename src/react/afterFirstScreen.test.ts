import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// Node has no frames or idle periods: both are run by hand, timers are Vitest's fake ones. Each
// test loads the modules afresh (whether a screen was drawn is the page's state).
let frames: Array<() => void> = [];
let idle: Array<() => void> = [];
const run = (due: Array<() => void>) => {
  for (const f of due) f();
};
const paint = () => run(frames.splice(0));
const idleNow = () => run(idle.splice(0));

async function fresh() {
  vi.resetModules();
  const { afterFirstScreen } = await import('./afterFirstScreen.ts');
  const { screenDrawn } = await import('../runtime/screenPreview.ts');
  return { afterFirstScreen, screenDrawn };
}

/** Whether `p` has settled, after the microtasks now queued have run. */
async function settled(p: Promise<void>): Promise<boolean> {
  let done = false;
  void p.then(() => {
    done = true;
  });
  await Promise.resolve();
  await Promise.resolve();
  return done;
}

beforeEach(() => {
  vi.useFakeTimers();
  frames = [];
  idle = [];
  vi.stubGlobal('requestAnimationFrame', (f: () => void) => frames.push(f));
  vi.stubGlobal('cancelAnimationFrame', () => undefined);
  vi.stubGlobal('requestIdleCallback', (f: () => void) => idle.push(f));
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('afterFirstScreen', () => {
  it('settles once the first screen is drawn, painted and the page idle', async () => {
    const { afterFirstScreen, screenDrawn } = await fresh();
    const waiting = afterFirstScreen();
    paint();
    vi.advanceTimersByTime(0);
    idleNow();
    expect(await settled(waiting)).toBe(false);
    screenDrawn();
    expect(await settled(waiting)).toBe(false);
    paint();
    vi.advanceTimersByTime(0);
    expect(await settled(waiting)).toBe(false); // the task right after the frame is not idle
    idleNow();
    expect(await settled(waiting)).toBe(true);
  });

  it('gives each caller a turn of its own, a task after the one before', async () => {
    const { afterFirstScreen, screenDrawn } = await fresh();
    const turns = [afterFirstScreen(), afterFirstScreen(), afterFirstScreen()];
    screenDrawn();
    paint();
    vi.advanceTimersByTime(0);
    idleNow();
    const done = async () => Promise.all(turns.map(settled));
    expect(await done()).toEqual([true, false, false]);
    vi.advanceTimersByTime(0);
    expect(await done()).toEqual([true, true, false]);
    vi.advanceTimersByTime(0);
    expect(await done()).toEqual([true, true, true]);
    // A caller after every turn is taken waits one task.
    const later = afterFirstScreen();
    expect(await settled(later)).toBe(false);
    vi.advanceTimersByTime(0);
    expect(await settled(later)).toBe(true);
  });

  it('settles at once when a screen was drawn before it was asked', async () => {
    const { afterFirstScreen, screenDrawn } = await fresh();
    screenDrawn();
    expect(await settled(afterFirstScreen())).toBe(true);
  });

  it('settles after two seconds when no screen is ever drawn', async () => {
    const { afterFirstScreen } = await fresh();
    const waiting = afterFirstScreen();
    vi.advanceTimersByTime(1_999);
    expect(await settled(waiting)).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await settled(waiting)).toBe(true);
  });
});
