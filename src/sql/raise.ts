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
