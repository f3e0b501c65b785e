import { validationConstraintName } from '../naming.ts';
import { readsBeyondRow } from '../rules/readsBeyondRow.ts';
import type { AppSpec, FieldRuleSpec, RowRuleSpec } from '../spec/types.ts';
import { type CheckedRule, checkedRule } from './checkedRule.ts';

interface RuleNodeBase {
  entity: string;
  /** Position in `validation[entity]` (from 0). */
  index: number;
  /** `validation.<entity>.<index>`. */
  path: string;
  /** Its CHECK's name (also the name a trigger-enforced rule would have). */
  constraintName: string;
  /**
   * Enforced by a CHECK (field rules, and row rules reading only the row's own columns, checked on
   * every write), else by a trigger.
   */
  checkable: boolean;
}

/** A field rule (`minLength`, `pattern`, `format`...): always a CHECK. */
export interface FieldRuleNode extends RuleNodeBase {
  kind: 'field';
  spec: FieldRuleSpec;
}

/** A row rule with its `rule` and `when` checked. */
export interface RowRuleNode extends RuleNodeBase {
  kind: 'row';
  spec: RowRuleSpec;
  rule: CheckedRule;
  when?: CheckedRule;
}

/** One validation rule of an entity, in spec order. */
export type ValidationRuleNode = FieldRuleNode | RowRuleNode;

function rowNode(spec: AppSpec, base: RuleNodeBase, r: RowRuleSpec): RowRuleNode {
  const rule = checkedRule(spec, r.rule, base.entity, `${base.path}.rule`);
  const when = r.when === undefined ? undefined : checkedRule(spec, r.when, base.entity, `${base.path}.when`);
  const parts = when ? [rule, when] : [rule];
  // A CHECK holds on every write; a rule checked only when its field changes needs the old row.
  // A rule whose message has parameters is raised by the trigger: a CHECK's error carries none.
  const params = Object.keys(spec.errors[r.error]?.params ?? {}).length > 0;
  const checkable =
    !r.onChange && !params && parts.every((p) => p.typed !== undefined && !readsBeyondRow(p.typed));
  const node: RowRuleNode = { ...base, checkable, kind: 'row', spec: r, rule };
  if (when) node.when = when;
  return node;
}

/** The validation rules of an entity, checked. */
export function validationRulesOf(spec: AppSpec, entity: string): ValidationRuleNode[] {
  return (spec.validation[entity] ?? []).map((r, index) => {
    const base: RuleNodeBase = {
      entity,
      index,
      path: `validation.${entity}.${index}`,
      constraintName: validationConstraintName(entity, r.error, index),
      checkable: true,
    };
    return r.kind === 'field' ? { ...base, kind: 'field', spec: r } : rowNode(spec, base, r);
  });
}
