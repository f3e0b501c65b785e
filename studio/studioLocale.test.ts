import { afterEach, describe, expect, it } from 'vitest';
import { LOCALES } from '../src/runtime/locale.ts';
import { STUDIO_CATALOGUES, setStudioLocale, st } from './studioLocale.ts';
import { STUDIO_TEXT } from './studioText.ts';

const placeholders = (t: string) => [...t.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('studio texts', () => {
  afterEach(() => setStudioLocale('en'));

  it('every locale has every key, non-empty, with the English placeholders', () => {
    for (const locale of LOCALES)
      for (const [key, english] of Object.entries(STUDIO_TEXT)) {
        const text = STUDIO_CATALOGUES[locale][key as keyof typeof STUDIO_TEXT];
        expect(text.trim(), `${locale}.${key}`).not.toBe('');
        expect(placeholders(text), `${locale}.${key}`).toEqual(placeholders(english));
      }
  });

  it('German is a translation: only names and codes are the same', () => {
    const same = Object.entries(STUDIO_CATALOGUES.de)
      .filter(([k, v]) => STUDIO_TEXT[k as keyof typeof STUDIO_TEXT] === v)
      .map(([k]) => k);
    expect(same.sort()).toEqual(['tabOpenApi', 'tabSql', 'title']);
  });

  it('st() follows the language in use and fills placeholders', () => {
    expect(st('errors', { count: 3 })).toBe('3 errors');
    setStudioLocale('de');
    expect(st('errors', { count: 3 })).toBe('3 Fehler');
    expect(st('tabStates')).toBe('Zustände');
  });
});
