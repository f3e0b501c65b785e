/** An index the migration creates on one column. */
export interface TableIndexNode {
  /** `<table>__<column>__idx`. */
  name: string;
  entity: string;
  field: string;
  column: string;
  /** Why it exists: a reference column, a column a permission rule reads, a list's default sort. */
  reasons: readonly ('reference' | 'rule' | 'sort')[];
}
