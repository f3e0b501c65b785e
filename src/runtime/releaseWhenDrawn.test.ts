import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// Node has no frames: they are run by hand, timers are Vitest's fake ones. Each test loads the
// modules afresh (which screens were drawn is the page's state).
let frames: Array<() => void> = [];
const paint = async () => {
  for (const f of frames.splice(0)) f();
  vi.advanceTimersByTime(0);
  await Promise.resolve();
};

async function fresh() {
  vi.resetModules();
  const { releaseWhenDrawn } = await import('./releaseWhenDrawn.ts');
  const { screenComing, screenDrawn } = await import('./screenPreview.ts');
  const release = vi.fn();
  releaseWhenDrawn(release, 1_500);
  return { release, screenComing, screenDrawn };
}

beforeEach(() => {
  vi.useFakeTimers();
  frames = [];
  vi.stubGlobal('requestAnimationFrame', (f: () => void) => frames.push(f));
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('releaseWhenDrawn', () => {
  it('releases once the first screen is drawn and painted', async () => {
    const { release, screenDrawn } = await fresh();
    await paint();
    expect(release).not.toHaveBeenCalled();
    screenDrawn();
    expect(release).not.toHaveBeenCalled();
    await paint();
    expect(release).toHaveBeenCalledTimes(1);
  });

  it('waits for a screen announced before the release (a demo account chosen at once)', async () => {
    const { release, screenComing, screenDrawn } = await fresh();
    let drawn: (v?: unknown) => void = () => undefined;
    screenDrawn(); // the sign-in screen
    screenComing(new Promise((r) => (drawn = r))); // a demo account clicked before its paint
    await paint();
    expect(release).not.toHaveBeenCalled();
    drawn();
    await Promise.resolve();
    await Promise.resolve();
    await paint();
    expect(release).toHaveBeenCalledTimes(1);
  });

  it('releases after the longest wait when no screen is drawn', async () => {
    const { release, screenComing } = await fresh();
    screenComing(new Promise(() => undefined));
    vi.advanceTimersByTime(1_499);
    expect(release).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(release).toHaveBeenCalled();
  });
});
