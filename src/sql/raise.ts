import { quoteLiteral } from './quote.ts';

/**
 * A PL/pgSQL `raise` in the one error convention: SQLSTATE P0001, message = catalogue code,
 * detail = JSON object of parameters. `params` values are SQL expressions.
 *
 * @example
 * raiseSql('NOT_FOUND', { entity: "'ticket'", id: 'p_id' });
 * // raise exception using errcode = 'P0001', message = 'NOT_FOUND',
 * //   detail = jsonb_build_object('entity', 'ticket', 'id', p_id)::text;
 */
export function raiseSql(code: string, params: Record<string, string> = {}): string {
  const args = Object.entries(params)
    .map(([k, v]) => `${quoteLiteral(k)}, ${v}`)
    .join(', ');
  return `raise exception using errcode = 'P0001', message = ${quoteLiteral(code)}, detail = jsonb_build_object(${args})::text;`;
}

/**
 * An exception clause for a block that writes as the owner (SECURITY DEFINER): a CHECK or NOT
 * NULL violation is raised again with its SQLSTATE, message, constraint, table and column, but
 * without Postgres' `Failing row contains (…)` detail. Postgres leaves that detail out for writes
 * under row-level security; written by the owner, the row (every column, also ones the caller
 * never chose) would otherwise reach the client as is (PostgREST passes `details` through).
 * The adapters map the error by SQLSTATE and constraint, as before.
 *
 * @example
 * ['begin', '  update …;', rowlessReraiseSql(), 'end;'].join('\n');
 */
export function rowlessReraiseSql(): string {
  return [
    'exception when check_violation or not_null_violation then',
    '  declare',
    '    v_state text; v_message text; v_constraint text; v_schema text; v_table text; v_column text;',
    '  begin',
    '    get stacked diagnostics v_state = returned_sqlstate, v_message = message_text,',
    '      v_constraint = constraint_name, v_schema = schema_name, v_table = table_name, v_column = column_name;',
    '    raise exception using errcode = v_state, message = v_message, constraint = v_constraint,',
    '      schema = v_schema, table = v_table, column = v_column;',
    '  end;',
  ].join('\n');
}
