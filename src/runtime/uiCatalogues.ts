import type { Locale } from './locale.ts';
import { UI_TEXT_DE } from './uiText.de.ts';
import { registerUiCatalogue, UI_TEXT, type UiTextKey } from './uiText.ts';

/**
 * Every shipped locale's catalogue at once, for Node code and tests (which switch locales
 * without a boot): importing this module also makes each of them available to `ui()`. The app's
 * tab does not import it; it loads only its own language (`loadUiCatalogue`).
 */
export const UI_CATALOGUES: Readonly<Record<Locale, Readonly<Record<UiTextKey, string>>>> = {
  en: UI_TEXT,
  de: UI_TEXT_DE,
};

for (const [locale, catalogue] of Object.entries(UI_CATALOGUES))
  registerUiCatalogue(locale as Locale, catalogue);
