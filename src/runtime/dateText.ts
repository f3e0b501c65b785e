import { intlFormat } from './intlFormat.ts';
import { currentLocale, INTL_TAGS, type Locale } from './locale.ts';
import { ui } from './uiText.ts';

/**
 * Dates as the app shows them, written by the browser's own `Intl` (no date library on the list's
 * first screen; dayjs stays with the date pickers, which need it). English keeps the day-month-
 * year order the app has always shown ("5 Nov 2026", "5 Nov 2026 14:03"); German writes the day
 * with a full stop and a comma before the time ("5. Nov. 2026, 14:03").
 */

const TIME_SEPARATOR: Readonly<Record<Locale, string>> = { en: ' ', de: ', ' };

/**
 * A stored date or timestamp as a `Date`. A bare `YYYY-MM-DD` is that day in the reader's time
 * zone (as dayjs read it), not midnight UTC, which is the day before west of Greenwich.
 */
export function toDate(v: unknown): Date {
  const text = String(v);
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  return day ? new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])) : new Date(text);
}

/**
 * A date, or a date and time, in the current locale; an unreadable value as it came.
 *
 * @example
 * dateText('2026-11-05')                         // '5 Nov 2026'
 * dateText('2026-11-05T14:03:00', { time: true }) // '5 Nov 2026 14:03'
 */
export function dateText(v: unknown, options: { time?: boolean } = {}): string {
  const d = toDate(v);
  if (Number.isNaN(d.getTime())) return String(v);
  const locale = currentLocale();
  if (locale === 'en') {
    const fast = englishDateText(d, options.time === true);
    if (fast !== undefined) return fast;
  }
  const tag = INTL_TAGS[locale];
  const date = intlFormat(
    `d:${tag}`,
    () => new Intl.DateTimeFormat(tag, { day: 'numeric', month: 'short', year: 'numeric' }),
  );
  const day = locale === 'en' ? dayMonthYear(date, d) : date.format(d);
  if (!options.time) return day;
  const time = intlFormat(
    `t:${tag}`,
    () => new Intl.DateTimeFormat(tag, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
  );
  return `${day}${TIME_SEPARATOR[locale]}${time.format(d)}`;
}

/** `en-US`'s short month names, which `dayMonthYear` reads from Intl. */
const EN_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * English dates of years 1–9999 written without Intl, the same text as the Intl path (a test
 * compares them): the first `Intl.DateTimeFormat` of a page loads the locale's calendar data, about
 * 100 ms on the list's first render (a CPU profile of a return visit, docs/performance.md). Other
 * years, and other locales, go through Intl.
 */
function englishDateText(d: Date, time: boolean): string | undefined {
  const year = d.getFullYear();
  if (year < 1 || year > 9999) return undefined;
  const day = `${d.getDate()} ${EN_MONTHS[d.getMonth()]} ${year}`;
  return time ? `${day}${TIME_SEPARATOR.en}${pad2(d.getHours())}:${pad2(d.getMinutes())}` : day;
}

/**
 * English in day-month-year order with the three-letter months the app has always shown: from
 * `en-US`'s parts, since `en-GB` now writes September "Sept".
 */
function dayMonthYear(format: Intl.DateTimeFormat, d: Date): string {
  const parts = format.formatToParts(d);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('day')} ${part('month')} ${part('year')}`;
}

/**
 * Each unit, how many seconds it holds, and up to how many seconds it is the one used: the
 * thresholds people (and dayjs) round at, so 50 minutes reads "1 hour ago", 27 days "1 month ago".
 */
const UNITS: readonly [Intl.RelativeTimeFormatUnit, number, number][] = [
  ['minute', 60, 45 * 60],
  ['hour', 3_600, 22 * 3_600],
  ['day', 86_400, 26 * 86_400],
  ['month', 30 * 86_400, 320 * 86_400],
  ['year', 365 * 86_400, Number.POSITIVE_INFINITY],
];

/**
 * How long ago (or from now) a moment is, rounded to its largest whole unit as people say it:
 * "3 days ago", "in 2 hours", "vor 5 Minuten"; under 45 seconds either way, "a few seconds ago" (as
 * dayjs said it, which the app used before; a clock a little ahead is not "in a few seconds").
 *
 * @example
 * timeAgo(new Date(Date.now() - 3 * 86_400_000)) // '3 days ago'
 */
export function timeAgo(v: unknown, now: number = Date.now()): string {
  const d = v instanceof Date ? v : toDate(v);
  if (Number.isNaN(d.getTime())) return String(v);
  const seconds = (d.getTime() - now) / 1000;
  const size = Math.abs(seconds);
  if (size < 45) return ui('secondsAgo');
  const locale = currentLocale();
  const [unit, length] = UNITS.find(([, , upTo]) => size < upTo) ?? ['year', 365 * 86_400];
  const count = Math.sign(seconds) * Math.max(1, Math.round(size / length));
  if (locale === 'en') return englishRelative(count, unit);
  const tag = INTL_TAGS[locale];
  const rtf = intlFormat(`r:${tag}`, () => new Intl.RelativeTimeFormat(tag, { numeric: 'always' }));
  return rtf.format(count, unit);
}

/**
 * "3 days ago", "in 1 hour": English relative time written without Intl, the same text as
 * `Intl.RelativeTimeFormat('en', { numeric: 'always' })` (a test compares them), for the reason
 * `englishDateText` gives.
 */
function englishRelative(count: number, unit: Intl.RelativeTimeFormatUnit): string {
  const n = Math.abs(count);
  const words = `${String(n).replace(/\B(?=(\d{3})+$)/g, ',')} ${unit}${n === 1 ? '' : 's'}`;
  return count < 0 ? `${words} ago` : `in ${words}`;
}
