import type { AppModel } from '../model/appModel.ts';
import { transitionGuards } from '../spec/transitionGuards.ts';
import type { EntityStatesSpec } from '../spec/types.ts';
import { entityLabel, entityPlural, fieldLabel, roleLabel, stateLabel } from './docLabels.ts';
import * as plain from './labels.ts';
import { andList, code, joinBlocks, table } from './markdown.ts';
import { stateDiagram } from './mermaid.ts';
import { holders } from './roleGraph.ts';
import { ruleText } from './ruleText.ts';

/**
 * Section 4: for each entity with a lifecycle, its states, its transitions (who may run them,
 * the guard in words, the input asked for, the fields set) and a state diagram.
 *
 * @example
 * renderStates(model); // '## 4. States and transitions\n\n### Loan\n\n...'
 */
export function renderStates(model: AppModel): string {
  // State meanings, waiting-on rules and guard lists are read from each machine's declaration.
  const entries = [...model.machines].map(([entity, m]) => [entity, m.spec] as const);
  return joinBlocks([
    '## 4. States and transitions',
    entries.length === 0
      ? 'No entity has a lifecycle.'
      : 'A status only changes through the transitions below: the database runs each one as a single step ' +
        'that checks the role and the guard, sets the fields and records the change in the history. ' +
        'Roles that inherit an allowed role may run the transition too.',
    ...entries.map(([entity, st]) => renderEntityStates(model, entity, st)),
  ]);
}

function renderEntityStates(model: AppModel, entity: string, st: EntityStatesSpec): string {
  const s = (state: string) => stateLabel(model, entity, state);
  const f = (field: string) => fieldLabel(model, entity, field);
  const stateRows = Object.entries(st.states).map(([name, state]) => [
    code(name),
    // The Label columns define the labels: printed as written, read back raw.
    plain.stateLabel(model, entity, name),
    name === st.initial ? 'yes' : '',
    state.final ? 'yes' : '',
    state.description ?? '',
    state.waitingOn ? ruleText(state.waitingOn, model, entity) : '',
  ]);
  const transitionRows = Object.entries(st.transitions).map(([name, t]) => {
    // One line per guard, in the order they are checked: `rule; otherwise CODE`, then `then …`.
    const guards = transitionGuards(t);
    const guard =
      guards.length === 0
        ? 'none'
        : guards
            .map(
              (g, i) =>
                `${i > 0 ? 'then ' : ''}${ruleText(g.rule, model, entity)}${g.error ? `; otherwise ${code(g.error)}` : ''}`,
            )
            .join('\n');
    const notes: string[] = [];
    if (t.confirm) notes.push('asks for confirmation');
    if (t.calls && t.calls.length > 0) notes.push(`then calls ${t.calls.map(code).join(', ')}`);
    // On a line of its own: the rule's words must not be read as the other notes.
    const timed =
      t.after === undefined
        ? []
        : [`happens by itself, as the system, once ${ruleText(t.after, model, entity)} has passed`];
    return [
      code(name),
      plain.transitionLabel(model, entity, name),
      t.from.map(s).join(', '),
      s(t.to),
      rolesWords(model, t.roles),
      guard,
      [...(t.input ?? []).map(f), ...(t.optionalInput ?? []).map((x) => `${f(x)} (optional)`)].join(', '),
      Object.entries(t.set ?? {})
        .map(([field, value]) => `${f(field)} set to ${ruleText(value, model, entity)}`)
        .join('\n'),
      [...(notes.length > 0 ? [notes.join('; ')] : []), ...timed].join('\n'),
    ];
  });
  const chosen = st.initialWhen ?? [];
  const starts = `New ${entityPlural(model, entity).toLowerCase()} start as **${s(st.initial)}**`;
  return joinBlocks([
    `### ${entityLabel(model, entity)}`,
    `The status is kept in the field ${f(st.field)} (${code(st.field)}). ${
      chosen.length === 0 ? `${starts}.` : `${starts} unless one of these holds (the first that does):`
    }`,
    chosen.map((r) => `- **${s(r.state)}** when ${ruleText(r.when, model, entity)}`).join('\n'),
    table(['State', 'Label', 'Initial', 'Final', 'Meaning', 'Waiting on'], stateRows),
    table(
      ['Transition', 'Label', 'From', 'To', 'Roles', 'Guard', 'Asks for', 'Sets', 'Notes'],
      transitionRows,
    ),
    stateDiagram(
      st,
      (x) => plain.stateLabel(model, entity, x),
      (t) => plain.transitionLabel(model, entity, t),
    ),
  ]);
}

/** `Manager (and Administrator, who inherits it)`. */
export function rolesWords(model: AppModel, roles: readonly string[]): string {
  if (roles.length === 0) return 'nobody';
  const declared = roles.map((r) => roleLabel(model, r));
  const inherited = holders(model, roles)
    .filter((r) => !roles.includes(r))
    .map((r) => roleLabel(model, r));
  if (inherited.length === 0) return declared.join(', ');
  return `${declared.join(', ')} (and ${andList(inherited)}, by inheritance)`;
}
