import type { CheckedRule } from './checkedRule.ts';

export type Action = 'read' | 'create' | 'update' | 'delete';
export const ACTIONS: readonly Action[] = ['read', 'create', 'update', 'delete'];

/**
 * One role's declared permission for one action on one entity: a row-level-security policy
 * (`<table>__<role>__<action>`). Inheritance is resolved at run time by `app.has_role`.
 */
export interface PolicyNode {
  entity: string;
  role: string;
  action: Action;
  /**
   * `true` or a rule text: what enforces it. For a role held through a relationship, the relationship
   * and the declared rule (`me is projectLead and (status = open)`), the declared one in `declared`.
   */
  when: true | string;
  /**
   * Not declared: a person reads the rows that make them hold a relationship role (their own
   * memberships). The document and the browser's permission table skip it.
   */
  implicit?: true;
  /** A relationship role's permission as the spec declares it (without the relationship). */
  declared?: true | string;
  /** For update: the fields the role may change. */
  fields?: readonly string[];
  /**
   * For update and create: the rule over the row as it will be (`role != owner or me is orgOwner`),
   * checked; the write is refused with `error` when the row it makes would not satisfy it.
   */
  becomes?: CheckedRule;
  /** With `becomes`: the catalogue code raised when it fails (`FORBIDDEN` by default). */
  error?: string;
  /** The `error` as the spec declares it (absent when it falls back to `FORBIDDEN`): the document's. */
  declaredError?: string;
  /** The rule, checked (absent when `when` is `true`). */
  rule?: CheckedRule;
  /** The policy's name in the migration. */
  name: string;
  /**
   * Fields the rule fixes to one value by a top-level conjunct (`internal = false and ...`):
   * a form need not offer them to this role, whatever else the rule reads.
   */
  fixed: Readonly<Record<string, string | number | boolean | null>>;
}
