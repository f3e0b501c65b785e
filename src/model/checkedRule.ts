import type { Typed } from '../rules/ast.ts';
import type { AppSpec } from '../spec/types.ts';
import { checkRule } from './modelRuleCheck.ts';

/**
 * One rule text of the specification, checked once when the model is resolved: its typed tree, or
 * why it does not check. Printers read `typed`; a validated specification always has it.
 */
export interface CheckedRule {
  /** The rule as written. */
  text: string;
  /** Where it is written in the specification (`roles.permissions.agent.ticket.read`). */
  path: string;
  /** The entity whose row the rule reads, or null (a screen without an entity). */
  entity: string | null;
  expect: 'boolean' | 'value';
  /** The checked tree; absent when the rule does not check. */
  typed?: Typed;
  /** The checker's messages, when it does not. */
  errors?: readonly string[];
}

/**
 * Checks one rule text of `spec`. A failure is kept on the node (the model is also resolved for
 * specifications `check` is about to reject); readers that need the tree use `typedOf`.
 */
export function checkedRule(
  spec: AppSpec,
  text: string,
  entity: string | null,
  path: string,
  expect: 'boolean' | 'value' = 'boolean',
): CheckedRule {
  const r = checkRule(spec, text, { entity, expect });
  return r.ok
    ? { text, path, entity, expect, typed: r.typed }
    : { text, path, entity, expect, errors: r.errors.map((e) => e.message) };
}

/**
 * The typed tree of a checked rule. The printers run on validated specifications, so a rule that
 * did not check is a bug upstream: it throws with the spec path.
 */
export function typedOf(rule: CheckedRule): Typed {
  if (rule.typed) return rule.typed;
  throw new Error(`${rule.path}: ${(rule.errors ?? []).join('; ')} (in "${rule.text}")`);
}

/**
 * A permission's rule, checked, spread into its policy node (nothing when the permission is
 * unconditional).
 */
export function permissionRule(
  spec: AppSpec,
  entity: string,
  role: string,
  action: string,
  when: true | string,
): { rule?: CheckedRule } {
  if (when === true) return {};
  const path = `roles.permissions.${role}.${entity}.${action === 'update' ? 'update.when' : action}`;
  return { rule: checkedRule(spec, when, entity, path) };
}
