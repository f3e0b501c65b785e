import type { AppSpec, EntityStatesSpec } from '../spec/types.ts';
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

/** An entity's state machine: its status field, first state and states by name (spec order). */
export interface StateMachineNode {
  entity: string;
  field: string;
  initial: string;
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
    out.set(entity, { entity, field: m.field, initial: m.initial, states, spec: m });
  }
  return out;
}
