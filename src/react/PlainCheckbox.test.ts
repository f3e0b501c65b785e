import { Checkbox } from '@mantine/core';
import { createElement as h } from 'react';
import { describe, expect, it } from 'vitest';
import { mantineMarkup as markup } from '../../test/support/mantineMarkup.ts';
import { PlainCheckbox } from './PlainCheckbox.tsx';

describe('PlainCheckbox', () => {
  /** Mantine's input carries a generated id nothing refers to without a label. */
  const noId = (html: string) => html.replace(/ id="mantine-[^"]*"/, '');

  it('renders what Mantine’s Checkbox renders, checked and not', () => {
    for (const checked of [false, true]) {
      const props = { 'aria-label': 'Select row “A”', checked, onChange: () => {} };
      const plain = markup(h(PlainCheckbox, props));
      expect(plain).toBe(noId(markup(h(Checkbox, props))));
      expect(plain.includes('data-checked="true"')).toBe(checked);
    }
  });
});
