import { enumValueName } from './enumValueNames.ts';
import { humanize } from './humanize.ts';
import type { AppSpec } from './types.ts';

/** One text of a specification a person reads, at its path, as the app shows it in English. */
export interface SpecText {
  path: string;
  text: string;
}

/**
 * Every text of a specification that the app shows to people, in English as it is shown: explicit
 * labels, and for a name without one its spelled-out form (`humanize`), since that is what a
 * person sees and so what a translation is keyed by. Names, rules and routes are not texts.
 * The one list both `localizeSpec` (what it may replace) and the translation lints read.
 *
 * @example
 * specTexts(spec).find((t) => t.path === 'states.ticket.states.open.label') // { text: 'Open', ... }
 */
export function specTexts(spec: AppSpec): SpecText[] {
  const out: SpecText[] = [];
  const add = (path: string, text: string | undefined) => {
    if (text !== undefined && text.trim() !== '') out.push({ path, text });
  };
  add('purpose.name', spec.purpose.name);
  add('purpose.summary', spec.purpose.summary);
  for (const [name, s] of Object.entries(spec.screens)) add(`screens.${name}.title`, s.title);
  for (const [name, e] of Object.entries(spec.entities)) {
    add(`entities.${name}.label`, e.label);
    add(`entities.${name}.plural`, e.plural ?? `${e.label}s`);
    for (const [field, f] of Object.entries(e.fields)) {
      add(`entities.${name}.fields.${field}.label`, f.label ?? humanize(field));
      add(`entities.${name}.fields.${field}.help`, f.help);
      f.values?.forEach((v, i) => {
        add(
          `entities.${name}.fields.${field}.values.${i}.label`,
          (typeof v === 'object' ? v.label : undefined) ?? humanize(enumValueName(v)),
        );
      });
    }
  }
  for (const [entity, m] of Object.entries(spec.states)) {
    for (const [state, s] of Object.entries(m.states)) {
      add(`states.${entity}.states.${state}.label`, s.label ?? humanize(state));
      add(`states.${entity}.states.${state}.description`, s.description);
    }
    for (const [name, t] of Object.entries(m.transitions))
      add(`states.${entity}.transitions.${name}.label`, t.label ?? humanize(name));
  }
  for (const [name, r] of Object.entries(spec.roles.roles)) {
    add(`roles.roles.${name}.label`, r.label);
    add(`roles.roles.${name}.description`, r.description);
  }
  for (const [code, e] of Object.entries(spec.errors)) add(`errors.${code}.message`, e.message);
  for (const [name, c] of Object.entries(spec.constants)) add(`constants.${name}.label`, c.label);
  return out;
}
