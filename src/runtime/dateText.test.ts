import { afterEach, describe, expect, it } from 'vitest';
import { dateText, timeAgo, toDate } from './dateText.ts';
import { setLocale } from './locale.ts';
import { loadUiCatalogue } from './uiText.ts';

const NOW = new Date(2026, 10, 25, 12, 0, 0).getTime();
const ago = (seconds: number) => new Date(NOW - seconds * 1000);

describe('dateText', () => {
  afterEach(() => setLocale('en'));

  it('writes a day as the reader expects, in English and in German', () => {
    expect(dateText('2026-11-05')).toBe('5 Nov 2026');
    expect(dateText('2026-09-28')).toBe('28 Sep 2026');
    setLocale('de');
    expect(dateText('2026-11-05')).toBe('5. Nov. 2026');
  });

  it('adds the time on 24 hours when asked', () => {
    const at = new Date(2026, 10, 5, 14, 3).toISOString();
    expect(dateText(at, { time: true })).toBe('5 Nov 2026 14:03');
    setLocale('de');
    expect(dateText(at, { time: true })).toBe('5. Nov. 2026, 14:03');
  });

  it('reads a bare day in the local time zone, not as midnight UTC', () => {
    const d = toDate('2026-01-01');
    expect([d.getFullYear(), d.getMonth(), d.getDate(), d.getHours()]).toEqual([2026, 0, 1, 0]);
  });

  it('gives back what it cannot read as a date', () => {
    expect(dateText('not a date')).toBe('not a date');
    expect(timeAgo('soon', NOW)).toBe('soon');
  });
});

describe('timeAgo', () => {
  afterEach(() => setLocale('en'));

  it('rounds to the largest unit people would say', () => {
    expect(timeAgo(ago(10), NOW)).toBe('a few seconds ago');
    expect(timeAgo(ago(50), NOW)).toBe('1 minute ago');
    expect(timeAgo(ago(50 * 60), NOW)).toBe('1 hour ago');
    expect(timeAgo(ago(3 * 86_400), NOW)).toBe('3 days ago');
    expect(timeAgo(ago(27 * 86_400), NOW)).toBe('1 month ago');
    expect(timeAgo(ago(400 * 86_400), NOW)).toBe('1 year ago');
  });

  it('says the future forwards, and speaks German', async () => {
    expect(timeAgo(ago(-2 * 3_600), NOW)).toBe('in 2 hours');
    setLocale('de');
    await loadUiCatalogue('de');
    expect(timeAgo(ago(5 * 60), NOW)).toBe('vor 5 Minuten');
    expect(timeAgo(ago(5), NOW)).toBe('vor ein paar Sekunden');
  });
});
