import type { Diagnostic } from '../../diagnostics.ts';
import { at } from '../../spec/specShape.ts';
import type { AppSpec } from '../../spec/types.ts';

/**
 * States no transition leaves that are not marked `final`: rows get stuck there by accident.
 *
 * @example
 * deadEndStates(spec); // [{ code: 'lint/dead-end-state', path: 'states.ticket.states.solved', ... }]
 */
export function deadEndStates(spec: AppSpec): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const [en, st] of Object.entries(spec.states)) {
    const transitions = Object.values(st.transitions);
    for (const [s, state] of Object.entries(st.states)) {
      if (state.final === true || transitions.some((t) => t.from.includes(s))) continue;
      out.push({
        code: 'lint/dead-end-state',
        severity: 'warning',
        path: at(at(at('states', en), 'states'), s),
        message: `no transition leaves state "${s}", and it is not marked final`,
        hint: 'add a transition from it, or mark it final: true',
      });
    }
  }
  return out;
}
