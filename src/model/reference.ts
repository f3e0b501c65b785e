/** A foreign key: a `ref` or `user` column pointing at another table's `id`. */
export interface ReferenceNode {
  entity: string;
  field: string;
  column: string;
  /** The entity referenced (`user` fields: the profile entity). */
  target: string;
  onDelete: 'cascade' | 'restrict' | 'set null';
  /** `<table>__<column>__fk`. */
  constraintName: string;
}
