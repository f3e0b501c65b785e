import type { AppModel } from '../model/index.ts';
import type { Typed } from '../rules/ast.ts';
import { typedChildren } from '../rules/typedChildren.ts';
import { hopsRead, relatesOwnData, rowRuleHolds } from '../sql/emitValidation.ts';
import { tableRef } from '../sql/specModel.ts';
import { typedOf } from '../sql/typedRule.ts';

/**
 * A row rule that a trigger enforces (it reads a count, a sum or a referenced row) and that
 * existing rows can be checked against: what a migration re-checks when the rule is new or
 * changed (finding 28.7), as it does for CHECKs.
 */
export interface Invariant {
  /** The entity's table: `public.attachment`. */
  table: string;
  /** The rule's name (as its constraint would be named) and catalogue code. */
  name: string;
  code: string;
  /** The rule as written in the spec, for the refusal's message. */
  rule: string;
  /** Whether row `r` of `table` keeps the rule: plain SQL (no Ninefold function), owner's view. */
  holds: string;
  /** The other tables it reads (a check waits until they exist). */
  reads: string[];
}

/** Nodes whose value at migration time is not the one a write saw: the user, the clock, roles. */
function readsContext(t: Typed): boolean {
  if (t.kind === 'me' || t.kind === 'now' || t.kind === 'today' || t.kind === 'role') return true;
  return typedChildren(t).some(readsContext);
}

/** Entities a rule reads other than its own (counted, summed, or behind a reference). */
export function entitiesRead(t: Typed, out: Set<string> = new Set()): Set<string> {
  if (t.kind === 'count' || t.kind === 'sum') out.add(t.entity);
  if (t.kind === 'field' && t.via) out.add(t.via);
  for (const c of typedChildren(t)) entitiesRead(c, out);
  return out;
}

/**
 * The row rules existing rows are checked against: enforced by a trigger (a CHECK already is),
 * not `onChange` (they bind only when their field is written), reading neither the user, the
 * clock nor roles (their value depends on who writes when), and relating the row's own data
 * (a count, a sum, an own field: `ticket.status != closed` on a comment guards writes, old
 * comments of a closed ticket do not break it).
 *
 * @example
 * rowInvariants(helpdesk).map((i) => i.code); // ['TOO_MANY_ATTACHMENTS', …]
 */
export function rowInvariants(model: AppModel): Invariant[] {
  const out: Invariant[] = [];
  for (const t of model.tables.values())
    for (const node of t.rules) {
      if (node.kind !== 'row' || node.spec.onChange || node.checkable) continue;
      const rule = node.spec;
      const typed = typedOf(node.rule);
      const when = node.when ? typedOf(node.when) : undefined;
      if (readsContext(typed) || (when && readsContext(when))) continue;
      if (!relatesOwnData(typed, hopsRead(typed, new Set()))) continue;
      out.push({
        table: t.ref,
        name: node.constraintName,
        code: rule.error,
        rule: rule.when === undefined ? rule.rule : `${rule.rule} (when ${rule.when})`,
        holds: rowRuleHolds(model, node, 'r', true),
        reads: [...entitiesRead(typed, when ? entitiesRead(when) : new Set())]
          .filter((e) => e !== t.entity)
          .map((e) => tableRef(model, e))
          .sort(),
      });
    }
  return out;
}
