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
