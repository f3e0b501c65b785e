/**
 * Database names derived from specification names. One place, because the SQL compiler,
 * the document and the backends must agree on every table, column and function name.
 *
 * Entities and fields are camelCase in the specification; Postgres and PostgREST use
 * snake_case. Tables keep the entity's singular name (`expenseClaim` → `expense_claim`).
 */

/**
 * Converts a camelCase (or PascalCase, kebab-case, spaced) name to snake_case.
 * Runs of capitals are kept together as one word.
 *
 * @example
 * snakeCase('expenseClaim'); // 'expense_claim'
 * snakeCase('receiptURL');   // 'receipt_url'
 * snakeCase('HTTPStatus2x'); // 'http_status2x'
 */
export function snakeCase(s: string): string {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[\s-]+/g, '_')
    .replace(/_+/g, '_')
    .toLowerCase();
}

/**
 * The table holding an entity's rows.
 *
 * @example
 * tableName('expenseClaim'); // 'expense_claim'
 */
export function tableName(entity: string): string {
  return snakeCase(entity);
}

/**
 * The column holding a field.
 *
 * @example
 * columnName('createdAt'); // 'created_at'
 */
export function columnName(field: string): string {
  return snakeCase(field);
}

/**
 * The database function (PostgREST `rpc`) that runs one transition of an entity.
 *
 * @example
 * transitionFunctionName('expenseClaim', 'sendBack'); // 'expense_claim_send_back'
 */
export function transitionFunctionName(entity: string, transition: string): string {
  return `${tableName(entity)}_${snakeCase(transition)}`;
}

/**
 * Name of the function applying a screen's `where` rule to a row of its entity,
 * `<table>__where_<screen>`: lists and dashboard widgets of the screen filter through it on the
 * server (as a PostgREST computed field on Supabase, a call in the embedded backend's query).
 *
 * @example
 * screenWhereFunctionName('poll', 'awaitingMyVote'); // 'poll__where_awaiting_my_vote'
 */
export function screenWhereFunctionName(entity: string, screen: string): string {
  return `${tableName(entity)}__where_${snakeCase(screen)}`;
}

/**
 * Name of the CHECK constraint of the `index`-th (0-based) validation rule of an entity:
 * `<table>__<error_code_lower>__<n>` with n = index + 1. The error mapper reads the code
 * back from the name (or from the model's constraints).
 *
 * @example
 * validationConstraintName('ticket', 'TITLE_TOO_SHORT', 0); // 'ticket__title_too_short__1'
 */
export function validationConstraintName(entity: string, code: string, index: number): string {
  return `${tableName(entity)}__${codeStem(code)}__${index + 1}`;
}

/** A catalogue code in a constraint name: lower case, dotted codes (`claim.locked`) as `claim_locked`. */
function codeStem(code: string): string {
  return code.toLowerCase().replace(/[^a-z0-9_]/g, '_');
}

/**
 * Name of the `index`-th (0-based) unique key over several fields: `<table>__<code>__key<n>`.
 *
 * @example
 * uniqueKeyConstraintName('vote', 'ONE_VOTE', 0); // 'vote__one_vote__key1'
 */
export function uniqueKeyConstraintName(entity: string, code: string, index: number): string {
  return `${tableName(entity)}__${codeStem(code)}__key${index + 1}`;
}

/** Name of the UNIQUE constraint of a field: `<table>__<column>__unique`. */
export function uniqueConstraintName(entity: string, field: string): string {
  return `${tableName(entity)}__${columnName(field)}__unique`;
}

/** Name of the CHECK that a required text field is not blank: `<table>__<column>__blank`. */
export function blankConstraintName(entity: string, field: string): string {
  return `${tableName(entity)}__${columnName(field)}__blank`;
}

/** Name of the allowed-values CHECK of an enum/status/tags field: `<table>__<column>__values`. */
export function valuesConstraintName(entity: string, field: string): string {
  return `${tableName(entity)}__${columnName(field)}__values`;
}

/** Name of the foreign key of a ref/user field: `<table>__<column>__fk`. */
export function foreignKeyName(entity: string, field: string): string {
  return `${tableName(entity)}__${columnName(field)}__fk`;
}

/** Name of the row-level-security policy of one role and action: `<table>__<role>__<action>`. */
export function policyName(entity: string, role: string, action: string): string {
  return `${tableName(entity)}__${role}__${action}`;
}

/** Name of the index on one column: `<table>__<column>__idx`. */
export function indexName(entity: string, column: string): string {
  return `${tableName(entity)}__${column}__idx`;
}

/** The history table of an entity with states: `<table>_history`. */
export function historyTableName(entity: string): string {
  return `${tableName(entity)}_history`;
}

// Quoting an identifier: every identifier that comes from a specification passes through here
// (a specification is data, and data never becomes SQL syntax unquoted).

/** Postgres reserved words (and the non-reserved ones that cannot be column names) that must be quoted. */
const RESERVED = new Set(
  (
    'all analyse analyze and any array as asc asymmetric authorization binary both case cast check collate ' +
    'collation column concurrently constraint create cross current_catalog current_date current_role ' +
    'current_schema current_time current_timestamp current_user default deferrable desc distinct do else ' +
    'end except false fetch for foreign freeze from full grant group having ilike in initially inner ' +
    'intersect into is isnull join lateral leading left like limit localtime localtimestamp natural not ' +
    'notnull null offset on only or order outer overlaps placing primary references returning right select ' +
    'session_user similar some symmetric system_user table tablesample then to trailing true union unique ' +
    'user using variadic verbose when where window with'
  ).split(' '),
);

/**
 * Quotes an identifier when it is not a plain lower-case name (or is a reserved word).
 *
 * @example
 * quoteIdent('ticket');  // ticket
 * quoteIdent('user');    // "user"
 * quoteIdent('a"b');     // "a""b"
 */
export function quoteIdent(name: string): string {
  if (name.length === 0) throw new Error('quoteIdent: empty identifier');
  if (name.includes('\0')) throw new Error('quoteIdent: NUL character in identifier');
  if (/^[a-z_][a-z0-9_]*$/.test(name) && !RESERVED.has(name)) return name;
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * A schema-qualified name, each part quoted as needed.
 *
 * @example
 * qualified('public', 'user'); // public."user"
 */
export function qualified(schema: string, name: string): string {
  return `${quoteIdent(schema)}.${quoteIdent(name)}`;
}
