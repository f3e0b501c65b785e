/** The shapes of a table's SQL names (src/model/sqlNames.ts spells them); types only, so table.ts can name them without a cycle. */

/** The names of an entity's history table and its parts (unquoted). */
export interface HistorySqlNames {
  /** `<table>_history`. */
  table: string;
  /** Trigger function (schema app) refusing UPDATE and DELETE. */
  appendOnly: string;
  rowIdIndex: string;
  /** Its one read policy. */
  readPolicy: string;
  /** The foreign key the generated database types show from `row_id` (no such constraint exists). */
  rowIdForeignKey: string;
}

/**
 * Every SQL name the migration derives from one table (unquoted; the printers quote): functions in
 * schema `app`, constraints, indexes, the history table. The one place these are spelled.
 */
export interface TableSqlNames {
  table: string;
  history: HistorySqlNames;
  /** Trigger functions (schema app). */
  onInsert: string;
  onUpdate: string;
  validate: string;
  revalidateDependents: string;
  /** `app.<table>__recompute_dependents`: rewrites rows whose computed fields read the changed row. */
  recomputeDependents: string;
  recheckPermission: string;
  /** `app.<table>__check_becomes`: the update permissions' `becomes`, with their catalogue codes. */
  checkBecomes: string;
  lockGroups: string;
  countedForWriter: string;
  audit: string;
  storagePath: string;
  queueFileRemoval: string;
  /** `app.<table>__search`'s name. */
  search: string;
  /** `public.<table>__readable`: the view clients read when some field has a `read` rule. */
  readView: string;
  /**
   * `app.<table>__hidden_fields(p_id)`: the read-restricted fields (spec names) the caller may not
   * read on that row, so a screen can say "hidden" rather than show an empty value.
   */
  hiddenFields: string;
  /** `app.<table>__read_<column>(p_id)`: the column's value where the caller may read it, else null. */
  readField(column: string): string;
  /** `app.<table>__run_timed(p_now)`: the transitions that happen by time (`after`). */
  runTimed: string;
  /** The audit trigger function for rows added under reference column `column`. */
  auditAdded(column: string): string;
  /** Its trigger's name. */
  auditAddedTrigger(column: string): string;
  /** The n-th helper function of the table's policies (`self_read` without RLS, `policy_read` with). */
  policyHelper(kind: 'self_read' | 'policy_read', n: number): string;
  foreignKey(column: string): string;
  index(column: string): string;
  trigramIndex(column: string): string;
  /** A structural constraint over one column (`<table>__size_bytes__nonnegative`). */
  columnConstraint(column: string, what: string): string;
}

/**
 * The masking view's extra column: the row's read-restricted fields the caller may not read (spec
 * names), so a screen shows them as hidden rather than empty (a real empty value stays empty).
 */
export const HIDDEN_COLUMN = 'ninefold_hidden';
