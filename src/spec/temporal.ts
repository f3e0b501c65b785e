import { isTimeZoneName } from './timeZone.ts';

/**
 * Date, datetime and duration texts, as written in date/time constants and in the rule literals
 * `date("2027-06-30")` and `datetime("2027-06-30T18:00:00Z")`. One reading for every back end:
 * the evaluator turns them into epoch milliseconds, the SQL compiler into typed literals.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A datetime must say its zone (`Z` or `±hh:mm`): the browser and the database may be in different zones. */
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}:\d{2})$/;
/** ISO 8601 durations of fixed length only: weeks, days, hours, minutes, seconds (no months or years). */
const DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d{1,3})?)S)?)?$/;

function validDay(y: number, m: number, d: number): boolean {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/**
 * A calendar date `YYYY-MM-DD`, as the epoch milliseconds of its UTC midnight; null when not one.
 *
 * @example
 * parseDateText('2027-06-30'); // 1814313600000
 * parseDateText('2027-02-30'); // null
 */
export function parseDateText(text: string): number | null {
  const m = DATE.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1 || !validDay(y, mo, d)) return null;
  return Date.UTC(y, mo - 1, d);
}

/**
 * An instant `YYYY-MM-DDTHH:MM[:SS[.fff]](Z|±HH:MM)`, as epoch milliseconds; null when not one.
 *
 * @example
 * parseDatetimeText('2027-06-30T18:00:00Z'); // 1814378400000
 * parseDatetimeText('2027-06-30T18:00:00'); // null (no zone)
 */
export function parseDatetimeText(text: string): number | null {
  const m = DATETIME.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi] = [1, 2, 3, 4, 5].map((i) => Number(m[i])) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const s = Number(m[6] ?? 0);
  if (y < 1 || !validDay(y, mo, d) || h > 23 || mi > 59 || s > 59) return null;
  const zone = m[8] as string;
  if (zone !== 'Z') {
    const [zh, zm] = zone.slice(1).split(':').map(Number) as [number, number];
    if (zh > 15 || zm > 59) return null;
  }
  // Microseconds beyond milliseconds would be kept by Postgres and lost here: refuse them.
  if (m[7] !== undefined && m[7].length > 3) return null;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : null;
}

/**
 * A fixed-length ISO 8601 duration (`P3D`, `PT2H30M`, `P1W`) in milliseconds; null when not one
 * (months and years have no fixed length and are refused).
 *
 * @example
 * parseDurationText('PT2H30M'); // 9000000
 */
export function parseDurationText(text: string): number | null {
  const m = DURATION.exec(text);
  if (!m || text === 'P' || text.endsWith('T')) return null;
  const [w, d, h, mi] = [1, 2, 3, 4].map((i) => Number(m[i] ?? 0)) as [number, number, number, number];
  const s = Number(m[5] ?? 0);
  const ms = Math.round((((w * 7 + d) * 24 + h) * 60 + mi) * 60_000 + s * 1000);
  return Number.isSafeInteger(ms) ? ms : null;
}

/** Kinds of temporal constants, and how each is written. */
export const TEMPORAL_CONSTANT_FORMS = {
  date: 'a date like "2027-06-30"',
  datetime: 'a date and time with its zone, like "2027-06-30T18:00:00Z"',
  duration: 'an ISO 8601 duration of days, hours, minutes or seconds, like "P3D" or "PT2H30M"',
  timezone: 'an IANA time zone name, like "Europe/Berlin" or "UTC"',
} as const;

/**
 * Reads a temporal constant's text as milliseconds (epoch for date/datetime, length for duration);
 * a time zone reads as 0 when the engine knows it under exactly that spelling.
 */
export function parseTemporal(kind: keyof typeof TEMPORAL_CONSTANT_FORMS, text: string): number | null {
  if (kind === 'timezone') return isTimeZoneName(text) ? 0 : null;
  return kind === 'date'
    ? parseDateText(text)
    : kind === 'datetime'
      ? parseDatetimeText(text)
      : parseDurationText(text);
}

/** The app's time zone: the value of its `timezone` constant, or UTC when it has none. */
export function appTimeZone(constants: Readonly<Record<string, { type?: string; value: unknown }>>): string {
  for (const c of Object.values(constants))
    if (c.type === 'timezone' && typeof c.value === 'string') return c.value;
  return 'UTC';
}
