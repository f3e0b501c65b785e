import type { Diagnostic } from '../../diagnostics.ts';
import { own } from '../../spec/specRefs.ts';
import { at } from '../../spec/specShape.ts';
import type { AppSpec } from '../../spec/types.ts';
import { canRead, holdersOf, reachableStates } from '../specGraph.ts';

/**
 * Transitions that can never run: no listed role exists, none of the roles that hold a
 * listed role can read the entity's rows, every from-state is unreachable, or the guard
 * is the literal `false`.
 *
 * @example
 * deadTransitions(spec); // [{ code: 'lint/dead-transition', path: 'states.ticket.transitions.escalate', ... }]
 */
export function deadTransitions(spec: AppSpec): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const [en, st] of Object.entries(spec.states)) {
    const reachable = reachableStates(st);
    for (const [tn, t] of Object.entries(st.transitions)) {
      const path = at(at(at('states', en), 'transitions'), tn);
      const warn = (message: string, hint: string) =>
        out.push({ code: 'lint/dead-transition', severity: 'warning', path, message, hint });
      const roles = t.roles.filter((r) => own(spec.roles.roles, r) !== undefined);
      if (roles.length === 0 && t.after === undefined) {
        warn(
          `transition "${tn}" can never run: none of its roles exists`,
          'list roles defined in roles.roles',
        );
      } else if (
        roles.length > 0 &&
        !roles.some((r) => holdersOf(spec, r).some((h) => canRead(spec, h, en)))
      ) {
        warn(
          `transition "${tn}" can never run: no role allowed to run it can read ${en} rows`,
          `give ${roles.map((r) => `"${r}"`).join(' or ')} read permission on ${en}`,
        );
      }
      if (t.from.length > 0 && !t.from.some((s) => reachable.has(s))) {
        warn(
          `transition "${tn}" can never run: none of its from-states (${t.from.join(', ')}) can be reached`,
          'make a from-state reachable, or remove the transition',
        );
      }
      if (t.guard?.trim() === 'false')
        warn(`transition "${tn}" can never run: its guard is false`, 'remove it');
    }
  }
  return out;
}
