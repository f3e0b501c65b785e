import type { Diagnostic } from '../../diagnostics.ts';
import { LOCALES } from '../../runtime/locale.ts';
import { didYouMean } from '../../spec/didYouMean.ts';
import { at } from '../../spec/specShape.ts';
import { specTexts } from '../../spec/specTexts.ts';
import type { AppSpec } from '../../spec/types.ts';
import { placeholders } from '../placeholders.ts';

/**
 * The `translations` section against the texts the app shows (`specTexts`):
 * - a locale the runtime has no UI catalogue for (its own buttons would stay English),
 * - a key that is no text of the spec (a typo, or a label changed since: it would silently
 *   never apply) — with the nearest text as a hint,
 * - a translation whose `{placeholders}` differ from the English text's (the message would
 *   show a raw `{name}` or lose a value),
 * - texts a locale leaves untranslated (one finding per locale, listing the first few).
 *
 * @example
 * translations(spec); // [{ code: 'lint/unknown-translation', path: 'translations.de.Tilte', ... }]
 */
export function translations(spec: AppSpec): Diagnostic[] {
  const out: Diagnostic[] = [];
  const texts = [...new Set(specTexts(spec).map((t) => t.text))];
  const known = new Set(texts);
  for (const [locale, table] of Object.entries(spec.translations ?? {})) {
    const base = at('translations', locale);
    if (!(LOCALES as readonly string[]).includes(locale)) {
      out.push({
        code: 'lint/unknown-translation',
        severity: 'warning',
        path: base,
        message: `the app's own texts have no "${locale}" catalogue, so its buttons and menus would stay English`,
        hint: `use one of ${LOCALES.join(', ')}`,
      });
    }
    for (const [source, target] of Object.entries(table)) {
      const path = at(base, source);
      if (!known.has(source)) {
        out.push({
          code: 'lint/unknown-translation',
          severity: 'warning',
          path,
          message: `"${source}" is not a text of this specification, so this translation is never used`,
          hint: didYouMean(source, texts) ?? 'key a translation by the English text the app shows',
        });
        continue;
      }
      const want = [...new Set(placeholders(source))].sort().join(', ');
      const got = [...new Set(placeholders(target))].sort().join(', ');
      if (want !== got) {
        out.push({
          code: 'lint/translation-placeholder',
          severity: 'error',
          path,
          message: `the translation uses the placeholders {${got}} but the text has {${want}}`,
          hint: 'keep every {placeholder} of the English text, spelled the same',
        });
      }
    }
    const missing = texts.filter((t) => !Object.hasOwn(table, t));
    if (missing.length > 0) {
      out.push({
        code: 'lint/missing-translation',
        severity: 'warning',
        path: base,
        message: `${missing.length} text(s) have no "${locale}" translation and show in English: ${missing
          .slice(0, 5)
          .map((t) => JSON.stringify(t))
          .join(', ')}${missing.length > 5 ? ', …' : ''}`,
        hint: `add them to translations.${locale}`,
      });
    }
  }
  return out;
}
