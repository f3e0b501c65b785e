import type { Diagnostic } from '../../diagnostics.ts';
import { at } from '../../spec/specShape.ts';
import type { AppSpec } from '../../spec/types.ts';
import { reachableStates } from '../specGraph.ts';

/**
 * States no chain of transitions leads to from the initial state: rows can never be in them.
 *
 * @example
 * unreachableStates(spec); // [{ code: 'lint/unreachable-state', path: 'states.ticket.states.archived', ... }]
 */
export function unreachableStates(spec: AppSpec): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const [en, st] of Object.entries(spec.states)) {
    if (!Object.hasOwn(st.states, st.initial)) continue;
    const reachable = reachableStates(st);
    for (const s of Object.keys(st.states)) {
      if (reachable.has(s)) continue;
      out.push({
        code: 'lint/unreachable-state',
        severity: 'warning',
        path: at(at(at('states', en), 'states'), s),
        message: `state "${s}" cannot be reached from the initial state "${st.initial}"`,
        hint: `add a transition with to: "${s}", or remove the state`,
      });
    }
  }
  return out;
}
