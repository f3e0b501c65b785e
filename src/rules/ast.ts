/**
 * The rule language's syntax tree. One AST, read by every back end: the TypeScript
 * evaluator (browser), the SQL compiler (database), the printer (documents).
 *
 * `parseRule` produces `Expr` (names unresolved); `checkRule` resolves names against a
 * specification and produces `Typed` nodes (every node carries its `type`, every name
 * is resolved to a field path, a constant, an enum value or a role).
 */

/** Character offsets into the rule text, for positioned errors. */
export interface Span {
  start: number;
  end: number;
}

export type CompareOp = '=' | '!=' | '<' | '<=' | '>' | '>=';
export type ArithOp = '+' | '-' | '*' | '/';
export type LogicOp = 'and' | 'or';
export type BinaryOp = CompareOp | ArithOp | LogicOp | 'contains';

/**
 * Built-in functions: durations, text length, lower case; `date`/`datetime` read a quoted literal
 * (`date(t)` of a date or time is its calendar date in the app's time zone); `hour`, `weekday` and
 * `startOfDay` read wall-clock time in the app's time zone.
 */
export type FunctionName =
  | 'days'
  | 'hours'
  | 'minutes'
  | 'length'
  | 'lower'
  | 'date'
  | 'datetime'
  | 'hour'
  | 'weekday'
  | 'startOfDay';

/** Functions that read wall-clock time in the app's time zone (their typed node carries `zone`). */
export const ZONED_FUNCTIONS: ReadonlySet<FunctionName> = new Set<FunctionName>([
  'hour',
  'weekday',
  'startOfDay',
  'date',
]);

export type Expr =
  | { kind: 'literal'; value: number | string | boolean | null; span: Span }
  /** A bare name or a one-hop path: `requester`, `submitter.manager`, `reopenWindowDays`, `open`. */
  | { kind: 'name'; path: readonly string[]; span: Span }
  /** The current user (`me`) or one of their profile fields (`me.manager`). */
  | { kind: 'me'; field?: string; span: Span }
  | { kind: 'now'; span: Span }
  | { kind: 'today'; span: Span }
  /** The outer row inside `count(... where ...)`: `this` or `this.field`. */
  | { kind: 'this'; field?: string; span: Span }
  | { kind: 'binary'; op: BinaryOp; left: Expr; right: Expr; span: Span }
  | { kind: 'not'; operand: Expr; span: Span }
  | { kind: 'neg'; operand: Expr; span: Span }
  | { kind: 'in'; operand: Expr; list: readonly Expr[]; negated: boolean; span: Span }
  | { kind: 'empty'; operand: Expr; negated: boolean; span: Span }
  /** `me is agent`, `assignee is not admin`: the user holds the role (directly or by inheritance). */
  | { kind: 'role'; subject: Expr; role: string; negated: boolean; span: Span }
  | { kind: 'call'; fn: FunctionName; args: readonly Expr[]; span: Span }
  /** `count(comment where ticket = this)` */
  | { kind: 'count'; entity: string; where?: Expr; span: Span }
  /** `sum(line.amount where claim = this)` */
  | { kind: 'sum'; entity: string; field: string; where?: Expr; span: Span };

/** Types of rule values. `ref` values are row ids of an entity (`user` refs point at the profile entity). */
export type RuleType =
  | { kind: 'boolean' }
  | { kind: 'number' }
  | { kind: 'text' }
  | { kind: 'datetime' }
  | { kind: 'date' }
  | { kind: 'duration' }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'ref'; entity: string }
  | { kind: 'tags'; values?: readonly string[] }
  | { kind: 'null' };

/** A resolved, typed node. */
export type Typed =
  | { kind: 'literal'; value: number | string | boolean | null; type: RuleType; span: Span }
  /**
   * A field of the row in scope. `path` is one name, or two for a one-hop reference
   * (`submitter.manager`: `submitter` is a ref/user field of `entity`, `manager` a field of `via`).
   * `scope` says which row: the rule's row, or the counted row inside `count`/`sum`.
   */
  | {
      kind: 'field';
      scope: 'row' | 'inner';
      entity: string;
      path: readonly [string] | readonly [string, string];
      via?: string;
      type: RuleType;
      span: Span;
    }
  | {
      kind: 'const';
      name: string;
      value: number | string | boolean | readonly string[];
      type: RuleType;
      span: Span;
    }
  | { kind: 'me'; field?: string; profile?: string; type: RuleType; span: Span }
  | { kind: 'now'; type: RuleType; span: Span }
  | { kind: 'today'; type: RuleType; span: Span }
  /**
   * `enclosing`: the row counted by the enclosing count, not the rule's row (only in the count a
   * relationship role tested on a counted row expands to, nested in that count).
   */
  | { kind: 'this'; field?: string; entity: string; enclosing?: true; type: RuleType; span: Span }
  | { kind: 'binary'; op: BinaryOp; left: Typed; right: Typed; type: RuleType; span: Span }
  | { kind: 'not'; operand: Typed; type: RuleType; span: Span }
  | { kind: 'neg'; operand: Typed; type: RuleType; span: Span }
  | { kind: 'in'; operand: Typed; list: readonly Typed[]; negated: boolean; type: RuleType; span: Span }
  | { kind: 'empty'; operand: Typed; negated: boolean; type: RuleType; span: Span }
  | { kind: 'role'; subject: Typed; role: string; negated: boolean; type: RuleType; span: Span }
  /** `zone`: the IANA zone `hour`/`weekday`/`startOfDay`/`date(t)` read wall-clock time in. */
  | { kind: 'call'; fn: FunctionName; args: readonly Typed[]; zone?: string; type: RuleType; span: Span }
  /** `exists`: compared `>= 1` only, as a relationship role is (SQL may stop at the first row). */
  | { kind: 'count'; entity: string; where?: Typed; exists?: true; type: RuleType; span: Span }
  | { kind: 'sum'; entity: string; field: string; where?: Typed; type: RuleType; span: Span };
