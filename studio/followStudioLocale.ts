import { LOCALE_STORAGE_KEY, pickLocale, setLocale } from '../src/runtime/locale.ts';
import { loadUiCatalogue } from '../src/runtime/uiText.ts';

/**
 * The live app speaks the studio's language: the studio keeps its choice under the key the
 * generated app reads (`ninefold-locale`), so the app's texts follow it as in a built app. The
 * document carries no translations, so the specification's own labels stay as written.
 */
export async function followStudioLocale(): Promise<void> {
  let saved: string | null = null;
  try {
    saved = localStorage.getItem(LOCALE_STORAGE_KEY);
  } catch {
    // Storage blocked: the browser's language.
  }
  const locale = pickLocale(saved, navigator.languages ?? [navigator.language]);
  setLocale(locale);
  document.documentElement.lang = locale;
  await loadUiCatalogue(locale);
}
