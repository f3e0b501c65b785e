import type { Diagnostic } from '../../diagnostics.ts';
import { didYouMean } from '../../spec/didYouMean.ts';
import { at } from '../../spec/specShape.ts';
import type { AppSpec } from '../../spec/types.ts';

/**
 * Initial states and transition ends that name no state of the entity.
 *
 * @example
 * undefinedStates(spec); // [{ code: 'lint/undefined-state', path: 'states.ticket.transitions.solve.to', ... }]
 */
export function undefinedStates(spec: AppSpec): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const [en, st] of Object.entries(spec.states)) {
    const names = Object.keys(st.states);
    const base = at('states', en);
    const check = (state: string, path: string) => {
      if (Object.hasOwn(st.states, state)) return;
      const d: Diagnostic = {
        code: 'lint/undefined-state',
        severity: 'error',
        path,
        message: `"${state}" is not a state of ${en}`,
        hint: didYouMean(state, names) ?? `states: ${names.join(', ')}`,
      };
      out.push(d);
    };
    check(st.initial, at(base, 'initial'));
    for (const [tn, t] of Object.entries(st.transitions)) {
      const tp = at(at(base, 'transitions'), tn);
      t.from.forEach((s, i) => {
        check(s, at(at(tp, 'from'), i));
      });
      check(t.to, at(tp, 'to'));
    }
  }
  return out;
}
