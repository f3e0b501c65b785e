import type { AppSpec, EntityStatesSpec } from '../spec/types.ts';
import { type CheckedRule, checkedRule } from './checkedRule.ts';
import { humanize } from './humanize.ts';

/** One state of an entity's machine, with the label people read. */
export interface StateNode {
  name: string;
  /** The state's label, else its name spelled out (`waiting_on_customer` → `Waiting on customer`). */
  label: string;
  final: boolean;
  /** Whose turn it is in this state (a rule on the row), if said. */
  waitingOn?: string;
}

/** A state a new row starts in when its rule holds on the row (`initialWhen`). */
export interface InitialRuleNode {
  state: string;
  rule: CheckedRule;
}

/** An entity's state machine: its status field, first state and states by name (spec order). */
export interface StateMachineNode {
  entity: string;
  field: string;
  /** The state a new row starts in when no rule of `initialRules` holds. */
  initial: string;
  /** States chosen by a rule on the new row, in order (the first that holds wins); may be empty. */
  initialRules: readonly InitialRuleNode[];
  states: ReadonlyMap<string, StateNode>;
  /** The spec's declaration (transitions with every guard), for what the nodes above do not say. */
  spec: EntityStatesSpec;
}

/** The state machines of every entity that has one, by entity. */
export function stateMachinesOf(spec: AppSpec): Map<string, StateMachineNode> {
  const out = new Map<string, StateMachineNode>();
  for (const [entity, m] of Object.entries(spec.states)) {
    const states = new Map<string, StateNode>();
    for (const [name, s] of Object.entries(m.states)) {
      const node: StateNode = { name, label: s.label ?? humanize(name), final: s.final === true };
      if (s.waitingOn !== undefined) node.waitingOn = s.waitingOn;
      states.set(name, node);
    }
    const initialRules = (m.initialWhen ?? []).map((r, i) => ({
      state: r.state,
      rule: checkedRule(spec, r.when, entity, `states.${entity}.initialWhen[${i}].when`),
    }));
    out.set(entity, { entity, field: m.field, initial: m.initial, initialRules, states, spec: m });
  }
  return out;
}
