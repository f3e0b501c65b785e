/** An index the migration creates on one column. */
export interface TableIndexNode {
  /** `<table>__<column>__idx`. */
  name: string;
  entity: string;
  field: string;
  column: string;
  /** For an index on several columns (a membership's person and scope), all of them in order. */
  columns?: readonly string[];
  /** A partial index: only rows whose columns hold one of the values (a list screen's `in`). */
  only?: readonly { column: string; values: readonly (string | number | boolean)[] }[];
  /**
   * Columns stored beside the keys (`include`): what the table's read policies read, so a count
   * under row-level security reads the index alone (a list index's only).
   */
  include?: readonly string[];
  /**
   * Why it exists: a reference column, a column a permission rule reads, a list's default sort, a
   * membership a relationship role reads, a list screen's fixed columns and sort.
   */
  reasons: readonly ('reference' | 'rule' | 'sort' | 'role' | 'list')[];
}
