import { LOCALE_STORAGE_KEY, type Locale, pickLocale } from '../src/runtime/locale.ts';
import { fillTemplate } from '../src/runtime/uiText.ts';
import { STUDIO_TEXT_DE } from './studioText.de.ts';
import { STUDIO_TEXT, type StudioCatalogue, type StudioTextKey } from './studioText.ts';

/** Both catalogues ship in the page: together they are a few kilobytes. */

export const STUDIO_CATALOGUES: Readonly<Record<Locale, StudioCatalogue>> = {
  en: STUDIO_TEXT,
  de: STUDIO_TEXT_DE,
};

/** The studio's language, kept where the generated app keeps its own: the live app follows it. */
export const STUDIO_LOCALE_KEY = LOCALE_STORAGE_KEY;

let current: Locale = 'en';

/** Sets the language the studio speaks (the page re-renders its texts after). */
export function setStudioLocale(locale: Locale): void {
  current = locale;
}

export function studioLocale(): Locale {
  return current;
}

/** The saved choice, else the browser's first shipped language, else English (as the app does). */
export function initialStudioLocale(saved: string | null, languages: readonly string[]): Locale {
  return pickLocale(saved, languages);
}

/**
 * One studio text in the language in use, its placeholders filled.
 *
 * @example
 * st('errors', { count: 3 }); // '3 errors' ('3 Fehler' in German)
 */
export function st(key: StudioTextKey, params: Readonly<Record<string, unknown>> = {}): string {
  return fillTemplate(STUDIO_CATALOGUES[current][key], params);
}
