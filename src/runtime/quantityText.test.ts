import { afterEach, describe, expect, it } from 'vitest';
import { setLocale } from './locale.ts';
import { quantityText } from './quantityText.ts';

describe('quantityText', () => {
  afterEach(() => setLocale('en'));
  it('writes durations with the unit in the language and number of the reader', () => {
    expect(quantityText(80, 'hours')).toBe('80 hours');
    expect(quantityText(1, 'hours')).toBe('1 hour');
    expect(quantityText(1, 'days')).toBe('1 day');
    // An amount in whichever currency it bounds: the amount alone, never a made-up currency.
    expect(quantityText(500, 'currency')).toBe('500.00');
    setLocale('de');
    expect(quantityText(90, 'days')).toBe('90 Tage');
    expect(quantityText(1, 'hours')).toBe('1 Stunde');
    expect(quantityText(30, 'minutes')).toBe('30 Minuten');
  });
  it('writes money in its currency and other units as written', () => {
    expect(quantityText(5000, 'EUR')).toBe('€5,000.00');
    expect(quantityText(10, 'MB')).toBe('10 MB');
    expect(quantityText(3, undefined)).toBe('3');
  });
});
