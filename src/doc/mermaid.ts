import type { EntityStatesSpec } from '../spec/types.ts';
import { block } from './markdown.ts';

/** Mermaid labels cannot hold `:`, `;`, `#`, quotes or line breaks; keep the words, drop the rest. */
function label(text: string): string {
  return text
    .replace(/[\r\n]+/g, ' ')
    .replace(/[:;#"]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** State ids must be plain words in Mermaid; spec names are, but be safe. */
function id(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, '_');
}

/**
 * A Mermaid `stateDiagram-v2` of one entity's lifecycle: `[*] --> initial`, one arrow per
 * (from, transition), and `final --> [*]`.
 *
 * @example
 * stateDiagram(spec.states.loan, (s) => labelOf(s), (t) => labelOf(t));
 * // '```mermaid\nstateDiagram-v2\n  [*] --> requested\n  requested --> approved : Approve\n ...'
 */
export function stateDiagram(
  states: EntityStatesSpec,
  stateLabel: (state: string) => string,
  transitionLabel: (transition: string) => string,
): string {
  const lines = ['stateDiagram-v2'];
  for (const s of Object.keys(states.states)) {
    const l = label(stateLabel(s));
    if (l !== s) lines.push(`  state "${l}" as ${id(s)}`);
  }
  lines.push(`  [*] --> ${id(states.initial)}`);
  // States a rule chooses for a new row start there too.
  for (const s of new Set((states.initialWhen ?? []).map((r) => r.state)))
    if (s !== states.initial) lines.push(`  [*] --> ${id(s)}`);
  for (const [t, tr] of Object.entries(states.transitions)) {
    for (const from of tr.from) lines.push(`  ${id(from)} --> ${id(tr.to)} : ${label(transitionLabel(t))}`);
  }
  for (const [s, st] of Object.entries(states.states)) {
    if (st.final) lines.push(`  ${id(s)} --> [*]`);
  }
  return block('mermaid', lines.join('\n'));
}
