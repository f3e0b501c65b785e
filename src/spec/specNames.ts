import { snakeCase } from '../naming.ts';
import { IMPLICIT_FIELDS, KEYWORDS } from './reservedNames.ts';

/**
 * The naming rules of a specification. Names become Postgres identifiers (tables, columns,
 * function names), rule-language names and TypeScript keys, so they must be safe in all three.
 */
export type NameKind =
  | 'entity'
  | 'field'
  | 'constant'
  | 'role'
  | 'state'
  | 'transition'
  | 'error'
  | 'screen'
  | 'call';

interface NameRule {
  pattern: RegExp;
  what: string;
  example: string;
  /** Becomes a SQL identifier: reserved words and implicit columns are refused. */
  sql: boolean;
  /** Appears bare in rules: rule keywords are refused. */
  rule: boolean;
}

const CAMEL = /^[a-z][a-zA-Z0-9]*$/;
/**
 * States and transitions: lower camelCase (`inProgress`, `sendBack`) or lower snake_case
 * (`in_progress`, `send_back`). A transition's SQL function takes the snake_case of its name
 * (`transitionFunctionName`); two names of one entity that snake to the same are refused
 * (`checkIdentifierLengths`: "the generated SQL name … is made by both …").
 */
const CAMEL_OR_SNAKE = /^[a-z][a-zA-Z0-9_]*$/;

/**
 * Catalogue codes: UPPER_SNAKE (`TITLE_TOO_LONG`) or the dotted/namespaced shape many APIs use
 * (`claim.locked`, `billing/card.declined`). Codes travel unchanged from the spec to SQL `raise`,
 * the error mapper and the browser, so either shape is stable.
 */
export const ERROR_CODE_SHAPE = /^(?:[A-Z][A-Z0-9_]*|[a-z][a-zA-Z0-9_]*(?:[./][a-z][a-zA-Z0-9_]*)*)$/;

export const NAME_RULES: Record<NameKind, NameRule> = {
  entity: { pattern: CAMEL, what: 'entity name', example: 'ticket, lineItem', sql: true, rule: true },
  field: { pattern: CAMEL, what: 'field name', example: 'title, dueDate', sql: true, rule: true },
  constant: { pattern: CAMEL, what: 'constant name', example: 'maxTitleLength', sql: false, rule: true },
  role: { pattern: CAMEL, what: 'role name', example: 'agent, teamLead', sql: false, rule: true },
  state: {
    pattern: CAMEL_OR_SNAKE,
    what: 'state name',
    example: 'open, inProgress, in_progress',
    sql: false,
    rule: true,
  },
  transition: {
    pattern: CAMEL_OR_SNAKE,
    what: 'transition name',
    example: 'solve, sendBack, send_back',
    sql: false,
    rule: false,
  },
  error: {
    pattern: ERROR_CODE_SHAPE,
    what: 'error code',
    example: 'TITLE_TOO_LONG, claim.locked',
    sql: false,
    rule: false,
  },
  screen: {
    pattern: /^[a-zA-Z][a-zA-Z0-9_-]*$/,
    what: 'screen name',
    example: 'ticketList',
    sql: false,
    rule: false,
  },
  call: {
    pattern: /^[a-zA-Z][a-zA-Z0-9_-]*$/,
    what: 'call name',
    example: 'notifySlack',
    sql: false,
    rule: false,
  },
};

/** Longest name accepted: Postgres truncates identifiers at 63 bytes, and names get prefixes. */
export const MAX_NAME_LENGTH = 40;

/** Columns every table has; a field may not reuse them. */
export const IMPLICIT_COLUMNS: readonly string[] = IMPLICIT_FIELDS;

/** Words of the rule language (`docs/rule-language.md`), which can never be names. */
export const RULE_WORDS: ReadonlySet<string> = new Set([...KEYWORDS, 'count', 'sum']);

/**
 * Postgres reserved key words (SQL key words appendix, "reserved" and "reserved, can be function
 * or type"): as table or column names they would need quoting everywhere.
 */
export const SQL_RESERVED: ReadonlySet<string> = new Set(
  (
    'all analyse analyze and any array as asc asymmetric authorization binary both case cast check collate ' +
    'collation column concurrently constraint create cross current_catalog current_date current_role ' +
    'current_schema current_time current_timestamp current_user default deferrable desc distinct do else end ' +
    'except false fetch for foreign freeze from full grant group having ilike in initially inner intersect into ' +
    'is isnull join lateral leading left like limit localtime localtimestamp natural not notnull null offset on ' +
    'only or order outer overlaps placing primary references returning right select session_user similar some ' +
    'symmetric system_user table tablesample then to trailing true union unique user using variadic verbose ' +
    'when where window with oid ctid xmin xmax cmin cmax tableoid'
  ).split(' '),
);

/**
 * Why a name is not acceptable, or `null` when it is.
 *
 * @example
 * nameProblem('field', 'select'); // 'field name "select" is a reserved SQL word'
 * nameProblem('field', 'title');  // null
 */
export function nameProblem(kind: NameKind, name: string): { message: string; hint: string } | null {
  const rule = NAME_RULES[kind];
  const shown = JSON.stringify(name);
  if (!rule.pattern.test(name)) {
    return {
      message: `${rule.what} ${shown} is not allowed: it must match ${rule.pattern.source}`,
      hint: `use names like ${rule.example}`,
    };
  }
  if (name.length > MAX_NAME_LENGTH) {
    return {
      message: `${rule.what} ${shown} is too long (${name.length} characters, at most ${MAX_NAME_LENGTH})`,
      hint: 'use a shorter name',
    };
  }
  if (name in Object.prototype) {
    // Names are object keys everywhere downstream; `constructor` would resolve to a built-in.
    return {
      message: `${rule.what} ${shown} clashes with a JavaScript built-in name`,
      hint: 'choose another name',
    };
  }
  if (rule.sql && (SQL_RESERVED.has(name.toLowerCase()) || SQL_RESERVED.has(snakeCase(name)))) {
    return {
      message: `${rule.what} ${shown} is a reserved SQL word (as a column or table: "${snakeCase(name)}")`,
      hint: 'choose another name, e.g. add a noun: "selection", "orderNumber"',
    };
  }
  if (rule.rule && RULE_WORDS.has(name)) {
    return {
      message: `${rule.what} ${shown} is a word of the rule language`,
      hint: 'choose another name',
    };
  }
  if (kind === 'field' && IMPLICIT_COLUMNS.includes(name)) {
    return {
      message: `field name ${shown} clashes with a column every table has (${IMPLICIT_COLUMNS.join(', ')})`,
      hint: 'remove the field (it exists already) or rename it',
    };
  }
  return null;
}
