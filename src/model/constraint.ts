/**
 * A named constraint of the migration and what it means, so a database error naming it maps back
 * to a catalogue code and a field. Validation rules that read other rows are triggers instead
 * (they raise their code directly) and are not constraints.
 */
export interface ConstraintNode {
  name: string;
  entity: string;
  /** `required`: a required text field is not blank (a CHECK raising REQUIRED on its field). */
  kind: 'validation' | 'unique' | 'values' | 'required';
  /** Catalogue code (validation rules). */
  code?: string;
  field?: string;
  /**
   * For unique fields and keys: text compared ignoring case (`lower(...)`), so the constraint is
   * a unique index over `lower(column)` rather than a UNIQUE constraint.
   */
  ignoreCase?: boolean;
  /** For validation rules: the index of the rule in `validation[entity]`. */
  rule?: number;
  /** For validation rules: a CHECK (reads only the row) or a trigger (reads other rows, the user, the clock). */
  enforcedBy?: 'check' | 'trigger';
}
