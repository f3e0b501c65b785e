import { createElement as h, Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { lazyComponent } from './lazyComponent.ts';

const Hello = ({ name }: { name: string }) => h('b', null, `Hello ${name}`);

describe('lazyComponent', () => {
  it('suspends until its chunk is here, then renders it on a first render without suspending', async () => {
    const load = vi.fn(() => Promise.resolve(Hello));
    const Lazy = lazyComponent(load);
    // Not loaded: the nearest boundary's fallback (as React.lazy).
    expect(renderToString(h(Suspense, { fallback: 'wait' }, h(Lazy, { name: 'Ada' })))).toContain('wait');
    await Lazy.preload();
    // Loaded: drawn at once, even outside any boundary (React.lazy would suspend once more here).
    expect(renderToString(h(Lazy, { name: 'Ada' }))).toBe('<b>Hello Ada</b>');
    await Lazy.preload();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('fetches a chunk that failed again, and its error reaches the render', async () => {
    const load = vi
      .fn<() => Promise<typeof Hello>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce(Hello);
    const Lazy = lazyComponent(load);
    await expect(Lazy.preload()).rejects.toThrow('offline');
    await expect(Lazy.preload()).resolves.toBe(Hello);
    expect(load).toHaveBeenCalledTimes(2);
    expect(renderToString(h(Lazy, { name: 'Bo' }))).toBe('<b>Hello Bo</b>');
  });
});
