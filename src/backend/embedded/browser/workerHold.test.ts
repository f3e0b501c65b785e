import { describe, expect, it, vi } from 'vitest';
import {
  HELD_NAME_SUFFIX,
  isHeld,
  isRelease,
  RELEASE_MESSAGE,
  whenReleased,
  workerRelease,
} from './workerHold.ts';

/** A worker's message scope: `send` delivers a message the way the page's postMessage would. */
function scope() {
  const target = new EventTarget();
  return {
    addEventListener: (type: 'message', l: (e: MessageEvent) => void) =>
      target.addEventListener(type, l as EventListener),
    removeEventListener: (type: 'message', l: (e: MessageEvent) => void) =>
      target.removeEventListener(type, l as EventListener),
    send: (data: unknown) => target.dispatchEvent(new MessageEvent('message', { data })),
  };
}

describe('a held worker', () => {
  it('is known by its name and its release message only', () => {
    expect(isHeld(`ninefold-helpdesk${HELD_NAME_SUFFIX}`)).toBe(true);
    expect(isHeld('ninefold-helpdesk')).toBe(false);
    expect(isRelease(RELEASE_MESSAGE)).toBe(true);
    expect(isRelease({ type: 'init' })).toBe(false);
    expect(isRelease(null)).toBe(false);
  });

  it('starts at once when not held, on the release when held, after the limit when never released', async () => {
    vi.useFakeTimers();
    try {
      const started: string[] = [];
      const s = scope();
      void whenReleased(s, false).then(() => started.push('free'));
      void whenReleased(s, true, 1_000).then(() => started.push('released'));
      await vi.advanceTimersByTimeAsync(0);
      expect(started).toEqual(['free']);
      s.send({ type: 'init' });
      await vi.advanceTimersByTimeAsync(500);
      expect(started).toEqual(['free']);
      s.send(RELEASE_MESSAGE);
      await vi.advanceTimersByTimeAsync(0);
      expect(started).toEqual(['free', 'released']);

      const never = scope();
      void whenReleased(never, true, 1_000).then(() => started.push('limit'));
      await vi.advanceTimersByTimeAsync(999);
      expect(started).not.toContain('limit');
      await vi.advanceTimersByTimeAsync(1);
      expect(started).toContain('limit');
    } finally {
      vi.useRealTimers();
    }
  });

  it('is released once by the page, however often the page says so; no worker, nothing sent', async () => {
    const sent: unknown[] = [];
    const worker = Promise.resolve({ postMessage: (m: unknown) => sent.push(m) } as unknown as Worker);
    const release = workerRelease(worker);
    release();
    release();
    await worker;
    await Promise.resolve();
    expect(sent).toEqual([RELEASE_MESSAGE]);
    expect(() => workerRelease(undefined)()).not.toThrow();
  });
});
