import { LOCALE_NAMES, LOCALES, type Locale } from '../src/runtime/locale.ts';
import { initialStudioLocale, STUDIO_LOCALE_KEY, setStudioLocale, st, studioLocale } from './studioLocale.ts';
import type { StudioTextKey } from './studioText.ts';

/**
 * Writes the page's fixed texts in the language in use: an element's `data-text` names the key of
 * its text, `data-label` the key of its `aria-label`, `data-title` of its `title`.
 */
export function applyPageText(): void {
  document.documentElement.lang = studioLocale();
  document.title = st('title');
  for (const node of document.querySelectorAll<HTMLElement>('[data-text]'))
    node.textContent = st(node.dataset.text as StudioTextKey);
  for (const node of document.querySelectorAll<HTMLElement>('[data-label]'))
    node.setAttribute('aria-label', st(node.dataset.label as StudioTextKey));
  for (const node of document.querySelectorAll<HTMLElement>('[data-title]'))
    node.title = st(node.dataset.title as StudioTextKey);
}

function savedChoice(): string | null {
  try {
    return localStorage.getItem(STUDIO_LOCALE_KEY);
  } catch {
    return null; // Storage blocked: the browser's language still applies.
  }
}

/**
 * Chooses the studio's language (saved choice, else the browser's, else English), writes the
 * page's texts, and wires the switch (`#language`): a change is saved (the live app reads the same
 * key) and `onChange` redraws what the page drew itself.
 */
export function setUpLanguageSwitch(onChange: (locale: Locale) => void): void {
  setStudioLocale(initialStudioLocale(savedChoice(), navigator.languages ?? [navigator.language]));
  const select = document.getElementById('language') as HTMLSelectElement;
  select.replaceChildren(
    ...LOCALES.map((l) => {
      const option = new Option(LOCALE_NAMES[l], l);
      option.lang = l;
      return option;
    }),
  );
  select.value = studioLocale();
  applyPageText();
  select.addEventListener('change', () => {
    const next = select.value as Locale;
    setStudioLocale(next);
    try {
      localStorage.setItem(STUDIO_LOCALE_KEY, next);
    } catch {
      // Not kept for the next visit; this one still switches.
    }
    applyPageText();
    onChange(next);
  });
}
