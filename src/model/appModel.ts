import type { DeclaredCallSpec, PurposeSpec } from '../spec/types.ts';
import type { CheckedRule } from './checkedRule.ts';
import type { ConstantNode } from './constant.ts';
import type { ConstraintNode } from './constraint.ts';
import type { ErrorCodeNode } from './errorCode.ts';
import type { OutboxNode } from './outbox.ts';
import type { PolicyNode } from './policy.ts';
import type { RoleNode } from './role.ts';
import type { ScreenNode } from './screen.ts';
import type { StateMachineNode } from './stateMachine.ts';
import type { TableNode } from './table.ts';
import type { TransitionNode } from './transition.ts';
import type { ValidationRuleNode } from './validationRule.ts';

/**
 * The specification resolved once: every name mapped to its table, column, function and policy,
 * every inheritance and default worked out. The SQL printer, the document, both backends, the
 * error mapping and the runtime read this; none re-derives it from the spec (docs/architecture.md).
 */
export interface AppModel {
  purpose: PurposeSpec;
  /** Tables by entity name, in spec order. */
  tables: ReadonlyMap<string, TableNode>;
  /** The entity whose rows are the app's users (`profile: true`), if any. */
  profile?: string;
  /** Roles by name, in spec order. */
  roles: ReadonlyMap<string, RoleNode>;
  /** Every policy, entity by entity, role by role (spec order), action by action. */
  policies: readonly PolicyNode[];
  /** Every transition of every entity. */
  transitions: readonly TransitionNode[];
  /** Every named constraint, by name. */
  constraints: ReadonlyMap<string, ConstraintNode>;
  /** Catalogue codes (built-in and the spec's), by code. */
  errors: ReadonlyMap<string, ErrorCodeNode>;
  constants: ReadonlyMap<string, ConstantNode>;
  screens: ReadonlyMap<string, ScreenNode>;
  calls: ReadonlyMap<string, DeclaredCallSpec>;
  /** State machines by entity (entities with states only). */
  machines: ReadonlyMap<string, StateMachineNode>;
  /** Validation rules by entity, in the order of the spec's `validation` section (entities with none left out). */
  validation: ReadonlyMap<string, readonly ValidationRuleNode[]>;
  /** Every rule text of the specification (screens, states, validation, permissions), checked. */
  rules: readonly CheckedRule[];
  /** Roles validation rules ask another person to hold, per entity and field (spec/rolesNamedByRules.ts). */
  rolesNamedByRules: readonly { entity: string; field: string; roles: readonly string[] }[];
  outbox: OutboxNode;
  /** Role → itself and every role it inherits, transitively, nearest first (`roleClosureOf`). */
  roleClosure: ReadonlyMap<string, readonly string[]>;
}
