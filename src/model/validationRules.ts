import type { AppSpec, ValidationRuleSpec } from '../spec/types.ts';

/**
 * One validation rule of an entity, with the form field its message attaches to: the rule's own
 * field, else its catalogue code's (`errors.X.field`, `entity.field`), else none (the form's).
 */
export interface ValidationRuleNode {
  entity: string;
  /** Its position among the entity's rules (constraint names and `ConstraintNode.rule` use it). */
  index: number;
  rule: ValidationRuleSpec;
  /** The field of `entity` its message attaches to in forms, if any. */
  target?: string;
}

/** Every entity's validation rules, in spec order, by entity. */
export function validationRulesOf(spec: AppSpec): Map<string, readonly ValidationRuleNode[]> {
  const out = new Map<string, readonly ValidationRuleNode[]>();
  for (const [entity, rules] of Object.entries(spec.validation)) {
    out.set(
      entity,
      rules.map((rule, index) => {
        const node: ValidationRuleNode = { entity, index, rule };
        const [owner, field] = (spec.errors[rule.error]?.field ?? '').split('.');
        const target = rule.field ?? (owner === entity ? field : undefined);
        if (target) node.target = target;
        return node;
      }),
    );
  }
  return out;
}
