import { describe, expect, it } from 'vitest';
import { parseTypedDate } from './typedDate.ts';

describe('issue 31 (low): a date typed in the locale’s short format, its own format or ISO', () => {
  it.each([
    ['12/10/2026', 'en', '2026-12-10'],
    ['12/10/26', 'en', '2026-12-10'],
    ['10 Dec 2026', 'en', '2026-12-10'],
    ['10 December 2026', 'en', '2026-12-10'],
    ['Dec 10, 2026', 'en', '2026-12-10'],
    ['10 Sept 2026', 'en', '2026-09-10'],
    ['2026-12-10', 'en', '2026-12-10'],
    ['10.12.2026', 'de', '2026-12-10'],
    ['10.12.26', 'de', '2026-12-10'],
    ['10. Dez. 2026', 'de', '2026-12-10'],
    ['10. Dezember 2026', 'de', '2026-12-10'],
    ['3. März 2027', 'de', '2027-03-03'],
  ] as const)('%s (%s) → %s', (text, locale, want) => {
    expect(parseTypedDate(text, locale)).toBe(want);
  });
  it.each([
    ['31/12/2026', 'en'],
    ['13.13.2026', 'de'],
    ['30 Feb 2026', 'en'],
    ['soon', 'en'],
    ['10 Dec', 'en'],
    ['', 'de'],
  ] as const)('%s (%s) is not a date', (text, locale) => {
    expect(parseTypedDate(text, locale)).toBeNull();
  });
});
