import { modelOf, type SpecOrModel } from '../model/modelOf.ts';
import { sqlColumnOf } from '../model/sqlNames.ts';

export {
  blankConstraintName,
  uniqueConstraintName,
  uniqueKeyConstraintName,
  validationConstraintName,
  valuesConstraintName,
} from '../naming.ts';

/** What a constraint name means, for mapping database errors to catalogue entries. */
export interface ConstraintMeaning {
  entity: string;
  /** Catalogue code (validation rules) or undefined for structural constraints. */
  code?: string;
  field?: string;
  kind: 'validation' | 'unique' | 'values' | 'required';
}

/**
 * Every unique and validation constraint name the migration uses, by name (the model's
 * constraints; validation rules that read other rows are triggers raising their code, listed too).
 */
export function constraintCatalogue(app: SpecOrModel): Record<string, ConstraintMeaning> {
  const model = modelOf(app);
  const out: Record<string, ConstraintMeaning> = {};
  for (const c of model.constraints.values()) {
    out[c.name] = {
      entity: c.entity,
      kind: c.kind,
      ...(c.code ? { code: c.code } : {}),
      ...(c.field ? { field: c.field } : {}),
    };
  }
  // Every field's `__values` CHECK: allowed values, finite numbers and dates, the default text
  // ceiling (emitTables.ts). INVALID_VALUE on the field.
  for (const t of model.tables.values())
    for (const field of Object.keys(t.spec.fields))
      out[t.names.columnConstraint(sqlColumnOf(t, field), 'values')] ??= {
        entity: t.entity,
        field,
        kind: 'values',
      };
  return out;
}
