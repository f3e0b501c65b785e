import type { Diagnostic } from '../../diagnostics.ts';
import type { Typed } from '../../rules/ast.ts';
import { checkRule } from '../../rules/check.ts';
import { typedChildren } from '../../rules/typedChildren.ts';
import { at } from '../../spec/specShape.ts';
import { transitionGuards } from '../../spec/transitionGuards.ts';
import type { AppSpec } from '../../spec/types.ts';
import { holdersOf, withAncestors } from '../specGraph.ts';

function aggregated(t: Typed, out: Set<string> = new Set()): Set<string> {
  if (t.kind === 'count' || t.kind === 'sum') out.add(t.entity);
  for (const c of typedChildren(t)) aggregated(c, out);
  return out;
}

/**
 * Transition guards that count (or sum) rows of an entity some role running the transition cannot
 * all read. Guards read every row, hidden ones included (a workflow condition a hidden row must
 * still block), so a refusal tells that role a row it cannot see matches (issue 11, finding 7;
 * docs/security.md, "Non-interference").
 *
 * @example
 * guardCountsHiddenRows(spec); // [{ code: 'lint/guard-counts-hidden-rows', path: 'states.ticket.transitions.withdraw.guard', ... }]
 */
export function guardCountsHiddenRows(spec: AppSpec): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const [entity, st] of Object.entries(spec.states)) {
    for (const [name, t] of Object.entries(st.transitions)) {
      const runners = [...new Set(t.roles.flatMap((r) => holdersOf(spec, r)))];
      for (const g of transitionGuards(t)) {
        const r = checkRule(spec, g.rule, { entity });
        if (!r.ok) continue;
        for (const counted of aggregated(r.typed)) {
          const roles = runners.filter(
            (role) =>
              !withAncestors(spec, role).some((x) => spec.roles.permissions[x]?.[counted]?.read === true),
          );
          if (roles.length === 0) continue;
          out.push({
            code: 'lint/guard-counts-hidden-rows',
            severity: 'warning',
            path: `${at(at(at('states', entity), 'transitions'), name)}.${g.path}`,
            message: `the guard of ${entity}.${name} counts ${counted} rows, and ${roles.map((x) => `"${x}"`).join(', ')} may run it without reading every ${counted}: a refusal tells them a hidden row matches`,
            hint: "write the visibility into the count's where (e.g. internal = false), or accept the disclosure",
          });
        }
      }
    }
  }
  return out;
}
