import type { Diagnostic } from '../../diagnostics.ts';
import { at } from '../../spec/specShape.ts';
import type { AppSpec } from '../../spec/types.ts';
import { withAncestors } from '../specGraph.ts';

/**
 * Transitions a role may run but whose declared call that role may not make. The transition
 * queues its calls in its own transaction and checks the call's roles there (finding 11), so the
 * database refuses the whole transition to that role with FORBIDDEN.
 *
 * @example
 * callRoleGaps(spec); // [{ code: 'lint/call-role-gap', path: 'states.ticket.transitions.solve.calls[0]', ... }]
 */
export function callRoleGaps(spec: AppSpec): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const [entity, st] of Object.entries(spec.states)) {
    for (const [name, t] of Object.entries(st.transitions)) {
      (t.calls ?? []).forEach((callName, i) => {
        const call = Object.hasOwn(spec.calls.declared, callName) ? spec.calls.declared[callName] : undefined;
        if (!call) return;
        const gaps = t.roles.filter((r) => !withAncestors(spec, r).some((a) => call.roles.includes(a)));
        if (gaps.length === 0) return;
        out.push({
          code: 'lint/call-role-gap',
          severity: 'warning',
          path: at(at(at(at(at('states', entity), 'transitions'), name), 'calls'), i),
          message: `${gaps.map((g) => `"${g}"`).join(', ')} may run ${entity}.${name} but not make its call "${callName}": the transition refuses them (FORBIDDEN)`,
          hint: `add ${gaps.join(', ')} to calls.declared.${callName}.roles, or remove them from the transition's roles`,
        });
      });
    }
  }
  return out;
}
