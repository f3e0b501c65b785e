/**
 * A named constraint of the migration and what it means, so a database error naming it maps back
 * to a catalogue code and a field. Validation rules that read other rows are triggers instead
 * (they raise their code directly) and are not constraints.
 */
export interface ConstraintNode {
  name: string;
  entity: string;
  kind: 'validation' | 'unique' | 'values';
  /** Catalogue code (validation rules). */
  code?: string;
  field?: string;
  /** For validation rules: the index of the rule in `validation[entity]`. */
  rule?: number;
  /** For validation rules: a CHECK (reads only the row) or a trigger (reads other rows, the user, the clock). */
  enforcedBy?: 'check' | 'trigger';
}
