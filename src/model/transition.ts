import type { CheckedRule } from './checkedRule.ts';
import type { GuardNode } from './transitionRules.ts';

/** A named transition of an entity, run by its generated function. */
export interface TransitionNode {
  entity: string;
  name: string;
  label: string;
  /** The SQL function (`public.<table>_<transition>`), unquoted name. */
  functionName: string;
  from: readonly string[];
  to: string;
  /** Roles named in the spec. */
  roles: readonly string[];
  /** Every role allowed, inheritance resolved (roles inheriting a named one). */
  allowedRoles: readonly string[];
  guard?: string;
  guardError?: string;
  /** Fields it must be given. */
  input: readonly string[];
  /** Fields it may be given (empty or left out: see TransitionSpec.optionalInput). */
  optionalInput: readonly string[];
  set: Readonly<Record<string, string>>;
  confirm: boolean;
  calls: readonly string[];
  /** Its guards, checked, in the order they are checked. */
  guardRules: readonly GuardNode[];
  /**
   * When a role it names is held through a relationship: who may run it, as a rule on the row
   * (`me is agent or me is projectLead`), checked. Absent when every role is granted.
   */
  rolesRule?: CheckedRule;
  /** Its `set` expressions, checked, in spec order. */
  setRules: readonly { field: string; rule: CheckedRule }[];
  /** When it happens by itself: the instant (a date or time of the row), checked. */
  after?: CheckedRule;
}
