import { afterEach, describe, expect, it } from 'vitest';
import { resolve } from '../model/resolve.ts';
import type { AppSpec } from '../spec/types.ts';
import { formatMessage } from './formatMessage.ts';
import { LOCALES, pickLocale, setLocale } from './locale.ts';
import { UI_CATALOGUES } from './uiCatalogues.ts';
import { UI_TEXT, ui } from './uiText.ts';

/** Tests hand over partial specs (two or three sections); resolve completes the rest. */
const model = (spec: object) => resolve(spec as AppSpec);

const placeholders = (t: string) => [...t.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('UI catalogues', () => {
  afterEach(() => setLocale('en'));

  it('every locale has exactly the English keys, each non-empty, with the same placeholders', () => {
    const keys = Object.keys(UI_TEXT).sort();
    for (const locale of LOCALES) {
      const table = UI_CATALOGUES[locale];
      expect(Object.keys(table).sort(), locale).toEqual(keys);
      for (const key of keys) {
        const text = table[key as keyof typeof UI_TEXT];
        expect(text.trim(), `${locale}.${key}`).not.toBe('');
        expect(placeholders(text), `${locale}.${key}`).toEqual(
          placeholders(UI_TEXT[key as keyof typeof UI_TEXT]),
        );
      }
    }
  });

  it('German is a translation, not a copy: most texts differ from the English', () => {
    const same = Object.entries(UI_CATALOGUES.de).filter(
      ([k, v]) => UI_TEXT[k as keyof typeof UI_TEXT] === v,
    );
    // Words that are the same in both (Navigation, Details, Filter, Name, —, {count} {plural}).
    expect(same.map(([k]) => k).sort()).toEqual([
      'details',
      'empty',
      'fieldName',
      'filter',
      'navigation',
      'totalRows',
    ]);
  });

  it('ui() and built-in error messages follow the locale in use', () => {
    setLocale('de');
    expect(ui('newRow', { label: 'Ticket' })).toBe('Neu: Ticket');
    expect(formatMessage(model({ errors: {}, constants: {} }), 'CONFLICT')).toMatch(/^Jemand anderes/);
    setLocale('en');
    expect(ui('newRow', { label: 'Ticket' })).toBe('New Ticket');
  });
});

describe('pickLocale', () => {
  it('prefers the saved choice, then the first shipped browser language, then English', () => {
    expect(pickLocale(null, ['de-DE', 'en-US'])).toBe('de');
    expect(pickLocale(null, ['fr-FR', 'de-AT'])).toBe('de');
    expect(pickLocale('en', ['de-DE'])).toBe('en');
    expect(pickLocale('xx', ['fr-FR'])).toBe('en');
    expect(pickLocale(null, [])).toBe('en');
  });
});
