/**
 * The locale the UI speaks: one of the catalogues the runtime ships (`LOCALES`), chosen once at
 * boot from the person's saved choice, else the browser's languages, else English. Module state
 * on purpose: every `ui()` call, date and amount reads it while rendering, and a change reloads
 * the page (see `switchLocale`), so nothing keeps a string in the old language.
 */
export const LOCALES = ['en', 'de'] as const;
export type Locale = (typeof LOCALES)[number];

/** Each locale's own name, as the language switch shows it (always in that language). */
export const LOCALE_NAMES: Readonly<Record<Locale, string>> = { en: 'English', de: 'Deutsch' };

/** Where the person's choice is kept (localStorage), beside the colour scheme's key. */
export const LOCALE_STORAGE_KEY = 'ninefold-locale';

let current: Locale = 'en';

/** The locale in use. */
export function currentLocale(): Locale {
  return current;
}

/** Sets the locale in use (at boot, before anything renders). */
export function setLocale(locale: Locale): void {
  current = locale;
}

/** True when `tag` is one of the shipped locales. */
export function isLocale(tag: unknown): tag is Locale {
  return typeof tag === 'string' && (LOCALES as readonly string[]).includes(tag);
}

/**
 * The locale for a saved choice and the browser's preferred languages: the saved one when it is
 * shipped, else the first browser language whose primary subtag is shipped (`de-AT` → `de`),
 * else English.
 *
 * @example
 * pickLocale(null, ['de-DE', 'en-US']) // 'de'
 * pickLocale('en', ['de-DE'])          // 'en'
 */
export function pickLocale(saved: string | null, languages: readonly string[]): Locale {
  if (isLocale(saved)) return saved;
  for (const tag of languages) {
    const primary = tag.toLowerCase().split('-')[0];
    if (isLocale(primary)) return primary;
  }
  return 'en';
}

/**
 * Date patterns per locale (dayjs tokens). English keeps the day-month-year order the app has
 * always shown; German writes the day with a full stop, as German readers expect.
 */
export const DATE_FORMATS: Readonly<Record<Locale, { date: string; dateTime: string }>> = {
  en: { date: 'D MMM YYYY', dateTime: 'D MMM YYYY HH:mm' },
  de: { date: 'D. MMM YYYY', dateTime: 'D. MMM YYYY, HH:mm' },
};

/** The BCP 47 tag `Intl` formats numbers and amounts with for a locale. */
export const INTL_TAGS: Readonly<Record<Locale, string>> = { en: 'en-US', de: 'de-DE' };

/**
 * A label as it reads inside a sentence ("New expense line"): English lower-cases it, German keeps
 * it, since German nouns are always capitalised ("Neu: Position").
 */
export function inSentence(label: string): string {
  return current === 'de' ? label : label.toLowerCase();
}
