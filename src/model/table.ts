import type { EntitySpec } from '../spec/types.ts';
import type { ColumnNode } from './column.ts';
import type { ConstraintNode } from './constraint.ts';
import type { ReferenceNode } from './reference.ts';
import type { TableIndexNode } from './tableIndex.ts';
import type { TableSqlNames } from './tableSqlNames.ts';
import type { TransitionNode } from './transition.ts';
import type { ValidationRuleNode } from './validationRule.ts';

/** One entity's table: the only mapping from entity and field names to tables and columns. */
export interface TableNode {
  entity: string;
  /** Unquoted table name (`expense_claim`). */
  table: string;
  /** Quoted, schema-qualified: `public.expense_claim`, `public."user"`. */
  ref: string;
  /**
   * What clients read (unquoted, schema public): the table, or its masking view
   * (`names.readView`) when some field has a `read` rule (`readRestricted`).
   */
  readTable: string;
  /** `readTable`, quoted and schema-qualified. */
  readRef: string;
  /** Columns with a `read` rule: not granted to clients, read through `names.readField`. */
  readRestricted: readonly ColumnNode[];
  label: string;
  plural: string;
  /** The field shown as a row's title. */
  title?: string;
  /** Its rows are the app's users. */
  profile: boolean;
  files: boolean;
  live: boolean;
  /** Every column rows show, implicit ones first, then declared, then file metadata. */
  columns: readonly ColumnNode[];
  byField: ReadonlyMap<string, ColumnNode>;
  byColumn: ReadonlyMap<string, ColumnNode>;
  /** Declared fields of type `file`: not columns (files live in their own rows). */
  fileFields: readonly string[];
  /** Fields the caller may write through create/update. */
  writable: ReadonlySet<string>;
  /** Columns matched by free-text search. */
  searchable: readonly string[];
  /** The status field, when the entity has states. */
  statusField?: string;
  /** Owner fields (`owner: true`). */
  ownerFields: readonly string[];
  references: readonly ReferenceNode[];
  constraints: readonly ConstraintNode[];
  indexes: readonly TableIndexNode[];
  transitions: readonly TransitionNode[];
  /** `<table>_history`, when the entity has states. */
  historyTable?: string;
  /** Every SQL name built on the table (functions, constraints, indexes, history). */
  names: TableSqlNames;
  /** Its validation rules, checked, in spec order. */
  rules: readonly ValidationRuleNode[];
  /** The default length ceiling of each free-text field a `maxLength` rule does not bound. */
  textCeilings: ReadonlyMap<string, number>;
  spec: EntitySpec;
}
