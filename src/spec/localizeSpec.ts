import { enumValueName } from './enumValueNames.ts';
import { humanize } from './humanize.ts';
import type { AppSpec, EnumValueSpec, FieldSpec } from './types.ts';

/**
 * The specification as a person reading `locale` sees it: every text `specTexts` lists replaced
 * by its entry in `spec.translations[locale]` (keyed by the English text), the rest untouched.
 * Names, rules and values stay as they are, so the localized spec enforces and stores exactly
 * what the original does; only the UI is given it (the backend keeps the original).
 * Without translations for `locale` the same object comes back (cheap, and `resolve`'s cache
 * keeps working for English).
 *
 * @example
 * localizeSpec(spec, 'de').states.ticket.states.open.label // 'Offen'
 */
export function localizeSpec(spec: AppSpec, locale: string): AppSpec {
  const table = spec.translations?.[locale];
  if (!table || Object.keys(table).length === 0) return spec;
  const tr = (text: string): string => (Object.hasOwn(table, text) ? (table[text] as string) : text);
  const opt = (text: string | undefined) => (text === undefined ? undefined : tr(text));
  const map = <T, U>(rec: Record<string, T>, f: (v: T, k: string) => U): Record<string, U> =>
    Object.fromEntries(Object.entries(rec).map(([k, v]) => [k, f(v, k)]));
  const field = (f: FieldSpec, name: string): FieldSpec => ({
    ...f,
    label: tr(f.label ?? humanize(name)),
    ...(f.help === undefined ? {} : { help: tr(f.help) }),
    ...(f.values === undefined
      ? {}
      : {
          values: f.values.map((v): EnumValueSpec => {
            const o = typeof v === 'object' ? v : { value: v };
            return { ...o, label: tr(o.label ?? humanize(enumValueName(v))) };
          }),
        }),
  });
  return {
    ...spec,
    purpose: { ...spec.purpose, name: tr(spec.purpose.name), summary: tr(spec.purpose.summary) },
    screens: map(spec.screens, (s) => ({ ...s, title: tr(s.title) })),
    entities: map(spec.entities, (e) => ({
      ...e,
      label: tr(e.label),
      plural: tr(e.plural ?? `${e.label}s`),
      fields: map(e.fields, field),
    })),
    states: map(spec.states, (m) => ({
      ...m,
      states: map(m.states, (s, name) => ({
        ...s,
        label: tr(s.label ?? humanize(name)),
        ...(s.description === undefined ? {} : { description: opt(s.description) }),
      })),
      transitions: map(m.transitions, (t, name) => ({ ...t, label: tr(t.label ?? humanize(name)) })),
    })),
    roles: {
      ...spec.roles,
      roles: map(spec.roles.roles, (r) => ({
        ...r,
        label: tr(r.label),
        ...(r.description === undefined ? {} : { description: opt(r.description) }),
      })),
    },
    errors: map(spec.errors, (e) => ({ ...e, message: tr(e.message) })),
    constants: map(spec.constants, (c) => ({ ...c, label: tr(c.label) })),
  };
}
