import { INTL_TAGS, type Locale } from './locale.ts';

/** Month names (long and short, lower case, without a trailing dot) → month number, per locale. */
function monthNames(locale: Locale): Map<string, number> {
  const out = new Map<string, number>();
  for (const month of ['long', 'short'] as const) {
    const f = new Intl.DateTimeFormat(INTL_TAGS[locale], { month, timeZone: 'UTC' });
    for (let m = 0; m < 12; m++)
      out.set(
        f
          .format(new Date(Date.UTC(2024, m, 1)))
          .toLowerCase()
          .replace(/\.$/, ''),
        m + 1,
      );
  }
  // English writes "Sept" as well as "Sep"; German "Mrz" for März.
  if (locale === 'en') out.set('sept', 9);
  if (locale === 'de') out.set('mrz', 3);
  return out;
}

const names = new Map<Locale, Map<string, number>>();

function ymd(y: number, m: number, d: number): string | null {
  const year = y < 100 ? 2000 + y : y;
  const t = new Date(Date.UTC(year, m - 1, d));
  if (t.getUTCFullYear() !== year || t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d) return null;
  return `${String(year).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/**
 * A date as a person types it, to `YYYY-MM-DD`, or null when it is not one: the app's own format
 * (`10 Dec 2026`, `10. Dez. 2026`), the locale's short numeric one (`12/10/2026` in US English,
 * month first; `10.12.2026` in German), two-digit years (`12/10/26`) and ISO (`2026-12-10`).
 *
 * @example
 * parseTypedDate('12/10/2026', 'en'); // '2026-12-10'
 * parseTypedDate('10.12.26', 'de');   // '2026-12-10'
 * parseTypedDate('10 Dec 2026', 'en'); // '2026-12-10'
 */
export function parseTypedDate(text: string, locale: Locale): string | null {
  const t = text.trim().toLowerCase();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  if (iso) return ymd(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const numeric = /^(\d{1,2})\s*[./-]\s*(\d{1,2})\s*[./-]\s*(\d{2}|\d{4})$/.exec(t);
  if (numeric) {
    const [a, b, y] = [Number(numeric[1]), Number(numeric[2]), Number(numeric[3])];
    // US English puts the month first; German (and the rest of Europe) the day.
    return locale === 'en' ? ymd(y, a, b) : ymd(y, b, a);
  }
  if (!names.has(locale)) names.set(locale, monthNames(locale));
  const months = names.get(locale) as Map<string, number>;
  const words = t.replace(/,/g, ' ').split(/\s+/).filter(Boolean);
  let day: number | undefined;
  let month: number | undefined;
  let year: number | undefined;
  for (const w of words) {
    const n = /^(\d{1,4})\.?$/.exec(w);
    if (n) {
      const v = Number(n[1]);
      if (day === undefined && n[1]!.length <= 2) day = v;
      else if (year === undefined) year = v;
      else return null;
    } else {
      const m = months.get(w.replace(/\.$/, ''));
      if (m === undefined || month !== undefined) return null;
      month = m;
    }
  }
  return day !== undefined && month !== undefined && year !== undefined ? ymd(year, month, day) : null;
}
