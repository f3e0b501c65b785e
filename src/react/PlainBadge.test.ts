import { DEFAULT_THEME } from '@mantine/core';
import { createElement as h } from 'react';
import { describe, expect, it } from 'vitest';
import { mantineMarkup as markup } from '../../test/support/mantineMarkup.ts';
import { MantineBadge, PlainBadge, type PlainBadgeProps } from './PlainBadge.tsx';

/** Both drawings of one badge: the plain elements and Mantine's Badge with the same props. */
const both = (props: PlainBadgeProps) => [markup(h(PlainBadge, props)), markup(h(MantineBadge, props))];

describe('PlainBadge', () => {
  it('renders what Mantine’s Badge renders, for every theme colour, light and dot', () => {
    for (const color of Object.keys(DEFAULT_THEME.colors)) {
      const [plain, mantine] = both({
        variant: 'light',
        color,
        rootStyle: { color: 'light-dark(black, white)', flexShrink: 0 },
        labelStyle: { whiteSpace: 'nowrap', overflow: 'visible', textOverflow: 'clip' },
        children: 'Open',
      });
      expect(plain).toBe(mantine);
      expect(plain).toContain(`--badge-bg:var(--mantine-color-${color}-light)`);
      const [dot, mantineDot] = both({
        variant: 'dot',
        color,
        dotColor: `light-dark(var(--mantine-color-${color}-6), var(--mantine-color-${color}-4))`,
        rootStyle: { maxWidth: 'none', flexShrink: 0 },
        labelStyle: { overflow: 'visible' },
        children: 'High',
      });
      expect(dot).toBe(mantineDot);
      expect(dot).toContain('data-variant="dot"');
    }
  });

  it('leaves a colour the theme does not name to Mantine', () => {
    const [plain, mantine] = both({ variant: 'light', color: '#123456', children: 'Odd' });
    expect(plain).toBe(mantine);
    expect(plain).toContain('mantine-Badge-root');
  });
});
