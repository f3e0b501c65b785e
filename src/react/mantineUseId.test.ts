import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { useId } from './mantineUseId.ts';

function Ids({ fixed }: { fixed?: string }) {
  return createElement('p', null, [useId(), useId(), useId(fixed)].join(' '));
}

describe('useId (the copy the build gives Mantine)', () => {
  it('gives each caller its own id, usable in a CSS selector, and keeps a static one', () => {
    const [a, b, c] = renderToString(createElement(Ids, { fixed: 'due-date' }))
      .replace(/<\/?p>/g, '')
      .split(' ');
    expect(a).toMatch(/^mantine-[A-Za-z0-9_-]+$/);
    expect(b).toMatch(/^mantine-[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(c).toBe('due-date');
  });
});
