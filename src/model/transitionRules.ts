import { isRelationRole } from '../spec/relationRoles.ts';
import { transitionGuards } from '../spec/transitionGuards.ts';
import type { AppSpec, TransitionSpec } from '../spec/types.ts';
import { type CheckedRule, checkedRule } from './checkedRule.ts';

/** One guard of a transition, checked, in the order guards are checked. */
export interface GuardNode {
  rule: CheckedRule;
  /** The code raised when it fails (FORBIDDEN when none). */
  error?: string;
}

/** A transition's rules, checked: its guards and its `set` expressions (values over the row). */
export interface TransitionRules {
  guardRules: readonly GuardNode[];
  /** `set` field by field, in spec order. */
  setRules: readonly { field: string; rule: CheckedRule }[];
  /** The instant it happens by itself (`after`), when it does. */
  after?: CheckedRule;
  /** Who may run it as a rule, when a role it names is held through a relationship. */
  rolesRule?: CheckedRule;
}

/** The checked guards and `set` expressions of transition `name` of `entity`. */
export function transitionRulesOf(
  spec: AppSpec,
  entity: string,
  name: string,
  t: TransitionSpec,
): TransitionRules {
  const where = `states.${entity}.transitions.${name}`;
  const after =
    t.after === undefined ? {} : { after: checkedRule(spec, t.after, entity, `${where}.after`, 'value') };
  const relational = t.roles.some((r) => isRelationRole(spec, r));
  return {
    ...after,
    ...(relational
      ? {
          rolesRule: checkedRule(
            spec,
            t.roles.map((r) => `me is ${r}`).join(' or '),
            entity,
            `${where}.roles`,
          ),
        }
      : {}),
    guardRules: transitionGuards(t).map((g) => {
      const node: GuardNode = { rule: checkedRule(spec, g.rule, entity, `${where}.${g.path}`) };
      if (g.error !== undefined) node.error = g.error;
      return node;
    }),
    setRules: Object.entries(t.set ?? {}).map(([field, text]) => ({
      field,
      rule: checkedRule(spec, text, entity, `${where}.set.${field}`, 'value'),
    })),
  };
}
