import { describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { translations } from '../check/lints/translations.ts';
import { validateSpec } from '../check/validateSpec.ts';
import { resolve } from '../model/resolve.ts';
import { formatMessage } from '../runtime/formatMessage.ts';
import { valueOption } from '../runtime/valueOptions.ts';
import { specTexts } from '../spec/specTexts.ts';
import type { AppSpec } from '../spec/types.ts';
import { localizeSpec } from './localizeSpec.ts';

const hd = helpdesk as unknown as AppSpec;
const ex = expenses as unknown as AppSpec;

describe('localizeSpec', () => {
  it('gives the UI the German labels, states, transitions, enum values and catalogue messages', () => {
    const de = localizeSpec(hd, 'de');
    expect(de.entities.ticket?.label).toBe('Ticket');
    expect(de.entities.ticket?.fields.title?.label).toBe('Betreff');
    expect(de.states.ticket?.states.pending?.label).toBe('Wartet auf Kunden');
    expect(de.states.ticket?.transitions.reopen?.label).toBe('Wieder öffnen');
    expect(valueOption(resolve(de), 'ticket', 'priority', 'urgent').label).toBe('Dringend');
    expect(valueOption(resolve(de), 'ticket', 'status', 'pending').label).toBe('Wartet auf Kunden');
    expect(formatMessage(resolve(de), 'ASSIGNEE_NOT_AGENT')).toBe(
      'Tickets können nur Agenten zugewiesen werden.',
    );
    expect(formatMessage(resolve(localizeSpec(ex, 'de')), 'CLAIM_EMPTY')).toBe(
      'Fügen Sie vor dem Einreichen mindestens eine Position hinzu.',
    );
  });

  it('changes texts only: names, rules, values and colours stay as they are', () => {
    const de = localizeSpec(hd, 'de');
    expect(Object.keys(de.entities)).toEqual(Object.keys(hd.entities));
    expect(de.states.ticket?.transitions.solve?.guard).toBe(hd.states.ticket?.transitions.solve?.guard);
    expect(de.roles.permissions).toBe(hd.roles.permissions);
    expect(de.validation).toBe(hd.validation);
    const values = de.entities.ticket?.fields.priority?.values?.map((v) =>
      typeof v === 'object' ? v.value : v,
    );
    expect(values).toEqual(['low', 'normal', 'high', 'urgent']);
  });

  it('is the same object for a locale without translations (English)', () => {
    expect(localizeSpec(hd, 'en')).toBe(hd);
    expect(localizeSpec(hd, 'fr')).toBe(hd);
  });

  it('both reference apps translate every text they show into German', () => {
    for (const spec of [hd, ex]) {
      const de = spec.translations?.de ?? {};
      expect(specTexts(spec).filter((t) => !Object.hasOwn(de, t.text))).toEqual([]);
      expect(translations(spec)).toEqual([]);
    }
  });
});

describe('translation lints', () => {
  const withDe = (de: Record<string, string>, locale = 'de'): AppSpec => ({
    ...hd,
    translations: { [locale]: de },
  });
  const full = hd.translations?.de ?? {};

  it('a key that is no text of the spec, with the nearest text as a hint', () => {
    const found = translations(withDe({ ...full, Subjcet: 'Betreff' }));
    expect(found).toEqual([
      expect.objectContaining({
        code: 'lint/unknown-translation',
        path: 'translations.de.Subjcet',
        hint: 'did you mean "Subject"?',
      }),
    ]);
  });

  it('validateSpec refuses a translation that is not text, at its path', () => {
    const bad = { ...hd, translations: { de: { Subject: 5 } } };
    const r = validateSpec(JSON.parse(JSON.stringify(bad)));
    expect(r.spec).toBeNull();
    expect(r.diagnostics).toEqual([
      expect.objectContaining({ code: 'spec/type', path: 'translations.de.Subject' }),
    ]);
  });

  it('a translation that drops or renames a placeholder is an error', () => {
    const key = 'Messages may be at most {commentMaxLength} characters long.';
    const found = translations(withDe({ ...full, [key]: 'Höchstens {max} Zeichen.' }));
    expect(found).toEqual([
      expect.objectContaining({ code: 'lint/translation-placeholder', severity: 'error' }),
    ]);
  });

  it('untranslated texts are listed once per locale; a locale without a UI catalogue is reported', () => {
    const { Subject: _, ...rest } = full;
    expect(translations(withDe(rest))).toEqual([
      expect.objectContaining({
        code: 'lint/missing-translation',
        message: expect.stringContaining('"Subject"'),
      }),
    ]);
    const fr = translations(withDe({ Subject: 'Objet' }, 'fr'));
    expect(fr.map((d) => d.code)).toEqual(['lint/unknown-translation', 'lint/missing-translation']);
  });
});
