import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterNextPaint } from './afterNextPaint.ts';

// Node has no frames: a frame is run by hand (`paint()`), timers are Vitest's fake ones.
let frames: Array<() => void> = [];
const paint = () => {
  const due = frames;
  frames = [];
  for (const f of due) f();
};

beforeEach(() => {
  vi.useFakeTimers();
  frames = [];
  vi.stubGlobal('requestAnimationFrame', (f: () => void) => frames.push(f));
  vi.stubGlobal('cancelAnimationFrame', (id: number) => {
    frames[id - 1] = () => undefined;
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('afterNextPaint', () => {
  it('calls back in the task after the next frame, once', () => {
    const fn = vi.fn();
    afterNextPaint(fn);
    vi.advanceTimersByTime(10);
    expect(fn).not.toHaveBeenCalled();
    paint();
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(0);
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('calls back after the fallback when no frame is painted (a hidden tab)', () => {
    const fn = vi.fn();
    afterNextPaint(fn, 100);
    vi.advanceTimersByTime(99);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
    paint();
    vi.advanceTimersByTime(0);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('never calls back once called off', () => {
    const fn = vi.fn();
    const off = afterNextPaint(fn);
    off();
    paint();
    vi.advanceTimersByTime(1000);
    expect(fn).not.toHaveBeenCalled();
  });
});
