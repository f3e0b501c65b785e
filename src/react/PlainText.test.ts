import { Anchor, Skeleton, Text } from '@mantine/core';
import { createElement as h } from 'react';
import { describe, expect, it } from 'vitest';
import { Link } from 'wouter';
import { mantineMarkup as markup } from '../../test/support/mantineMarkup.ts';
import { followLink, PlainLink, PlainSkeleton, PlainText } from './PlainText.tsx';

describe('PlainText and PlainLink', () => {
  it('render what Mantine’s Text renders for a dimmed and an italic span', () => {
    expect(markup(h(PlainText, { dimmed: true }, '—'))).toBe(
      markup(h(Text<'span'>, { span: true, c: 'dimmed' }, '—')),
    );
    const hidden = markup(h(PlainText, { dimmed: true, italic: true, title: 'Withheld' }, 'hidden'));
    expect(hidden).toBe(
      markup(h(Text<'span'>, { span: true, c: 'dimmed', fs: 'italic', title: 'Withheld' }, 'hidden')),
    );
    expect(hidden).toContain('font-style:italic');
  });

  it('render what Text and Anchor render around wouter’s Link (as a plain link)', () => {
    const title = markup(h(PlainLink, { look: 'text', to: '/tickets/1' }, 'Subject'));
    expect(title).toBe(
      markup(
        h(
          Text<typeof Link>,
          { component: Link, to: '/tickets/1', fw: 500, style: { color: 'inherit' } },
          'Subject',
        ),
      ),
    );
    expect(title).toContain('href="/tickets/1"');
    const ref = markup(h(PlainLink, { look: 'anchor', to: '/categories/7' }, 'Reports'));
    expect(ref).toBe(markup(h(Anchor<typeof Link>, { component: Link, to: '/categories/7' }, 'Reports')));
    expect(ref).toContain('mantine-Anchor-root');
  });
});

describe('followLink', () => {
  /** A click as the handler sees it; `prevented` says whether the browser's own navigation was. */
  function click(
    init: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean; button: number }>,
  ) {
    const ev = {
      ctrlKey: false,
      metaKey: false,
      altKey: false,
      shiftKey: false,
      button: 0,
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
      ...init,
    };
    return ev;
  }

  it('navigates in the app on a plain left click, after the link’s own handler', () => {
    const seen: string[] = [];
    const ev = click({});
    followLink(
      ev,
      () => seen.push('go'),
      () => seen.push('onClick'),
    );
    expect(seen).toEqual(['onClick', 'go']);
    expect(ev.defaultPrevented).toBe(true);
  });

  it('leaves a click with a modifier key or another button to the browser', () => {
    for (const init of [
      { ctrlKey: true },
      { metaKey: true },
      { altKey: true },
      { shiftKey: true },
      { button: 1 },
    ]) {
      const seen: string[] = [];
      const ev = click(init);
      followLink(
        ev,
        () => seen.push('go'),
        () => seen.push('onClick'),
      );
      expect(seen).toEqual([]);
      expect(ev.defaultPrevented).toBe(false);
    }
  });

  it('does not navigate when the link’s own handler prevented it', () => {
    const seen: string[] = [];
    followLink(
      click({}),
      () => seen.push('go'),
      (ev: { preventDefault(): void }) => ev.preventDefault(),
    );
    expect(seen).toEqual([]);
  });
});

describe('PlainSkeleton', () => {
  it('renders what Mantine’s Skeleton renders, with and without width, radius and animation', () => {
    const cases = [
      { width: 34, height: 34, radius: 'sm' as const, animate: false },
      { height: 36, radius: 'sm' as const, animate: false },
      { height: 28 },
    ];
    for (const props of cases) expect(markup(h(PlainSkeleton, props))).toBe(markup(h(Skeleton, props)));
    expect(markup(h(PlainSkeleton, { height: 28 }))).toContain('data-animate="true"');
  });
});
