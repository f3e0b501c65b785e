import fc from 'fast-check';
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

  it('writes English without Intl exactly as en-US Intl writes it, in any year 1–9999', () => {
    // The Intl path dateText takes for other locales and years, written out for English.
    const date = new Intl.DateTimeFormat('en-US', { day: 'numeric', month: 'short', year: 'numeric' });
    const time = new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    const viaIntl = (d: Date) => {
      const parts = date.formatToParts(d);
      const part = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
      return `${part('day')} ${part('month')} ${part('year')} ${time.format(d)}`;
    };
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('0001-01-02T00:00:00Z'),
          max: new Date('9999-12-30T00:00:00Z'),
          noInvalidDate: true,
        }),
        (d) => {
          expect(dateText(d.toISOString(), { time: true })).toBe(viaIntl(d));
          expect(dateText(d.toISOString())).toBe(viaIntl(d).replace(/ \d\d:\d\d$/, ''));
        },
      ),
      { numRuns: 2000, seed: 20261127 },
    );
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

  it('writes English without Intl exactly as Intl.RelativeTimeFormat writes it', () => {
    const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'always' });
    // Every unit at counts 1–1,500 either way, each at a length of time that rounds to that count.
    const cases: [number, string][] = [
      ['minute', 60],
      ['hour', 3_600],
      ['day', 86_400],
      ['month', 30 * 86_400],
      ['year', 365 * 86_400],
    ].flatMap(([unit, length]) =>
      Array.from({ length: 1_500 }, (_, i) => i + 1).flatMap((n) =>
        [n, -n].map((c): [number, string] => [
          c * (length as number),
          rtf.format(c, unit as Intl.RelativeTimeFormatUnit),
        ]),
      ),
    );
    let compared = 0;
    for (const [seconds, intl] of cases) {
      const text = timeAgo(new Date(NOW + seconds * 1000), NOW);
      // A count past its unit's range reads in the next unit (1,500 minutes is "1 day"): skipped.
      if (text.replace(/\d[\d,]*/, '') !== intl.replace(/\d[\d,]*/, '')) continue;
      expect(text).toBe(intl);
      compared++;
    }
    expect(compared).toBeGreaterThan(1_500);
    expect(timeAgo(new Date(NOW - 1_000 * 365 * 86_400_000), NOW)).toBe('1,000 years ago');
  });

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
