import { type AppModel, HIDDEN_COLUMN, type TableNode } from '../model/index.ts';
import { readableSql } from './emitPolicies.ts';
import { qualified, quoteIdent, quoteLiteral, sqlComment } from './quote.ts';
import { tableOf } from './specModel.ts';
import { sqlFunction } from './sqlFunction.ts';
import { ruleSql } from './typedRule.ts';

/** `app.<table>__read_<column>`, quoted. */
export function readFieldRef(t: TableNode, column: string): string {
  return qualified('app', t.names.readField(column));
}

/**
 * The SQL of a read-restricted column's masked value on row `row` (an alias or a record variable):
 * the value where the field's `read` rule holds, null otherwise. For code already running with
 * full visibility (the transition functions), after the row's own read check.
 */
export function maskedValueSql(model: AppModel, t: TableNode, field: string, row: string): string {
  const c = t.byField.get(field);
  if (c?.read === undefined) return `${row}.${quoteIdent(c?.column ?? field)}`;
  return `case when coalesce(${ruleSql({ model, row }, c.read)}, false) then ${row}.${quoteIdent(c.column)} end`;
}

/**
 * Per-field reads (a field's `read` rule), for both targets. Column privileges cannot depend on
 * the row, so a read-restricted column is not granted to the client roles at all (emitGrants.ts):
 * a client naming it in a select, filter, sort, RETURNING or whole-row reference is refused
 * (42501), and Postgres leaves it out of constraint errors' "failing row" details. Its value
 * reaches a client only through `app.<table>__read_<column>(id)`, a security-definer function that
 * applies the table's read policies and the field's rule itself (as the search functions do) and
 * answers null where either fails, and the view `public.<table>__readable` (security invoker, so
 * the table's row-level security applies to the caller) shows every column with those masked
 * ones. Clients read the view; a filter or sort on a masked column compares the masked value, so
 * rows the caller may not read the field of sort and filter as empty. Writes go to the table.
 */
export function emitFieldReads(model: AppModel, entity: string): string {
  const t = tableOf(model, entity);
  if (t.readRestricted.length === 0) return '';
  const fns = t.readRestricted.map((c) =>
    sqlFunction({
      name: readFieldRef(t, c.column),
      args: 'p_id uuid',
      argTypes: 'uuid',
      returns: c.sqlType,
      language: 'sql',
      volatility: 'stable',
      securityDefiner: true,
      body: `select ${maskedValueSql(model, t, c.field, 't')} from ${t.ref} t where t.id = p_id and coalesce(${readableSql(model, entity, 't')}, false)`,
      executeTo: ['authenticated'],
      comment: `${entity}.${c.field} where the caller may read it (${c.read?.text}), else null.`,
    }),
  );
  const hiddenRef = qualified('app', t.names.hiddenFields);
  const hidden = sqlFunction({
    name: hiddenRef,
    args: 'p_id uuid',
    argTypes: 'uuid',
    returns: 'text[]',
    language: 'sql',
    volatility: 'stable',
    securityDefiner: true,
    body: `select array_remove(array[${t.readRestricted.map((c) => `case when not coalesce(${ruleSql({ model, row: 't' }, c.read as NonNullable<typeof c.read>)}, false) then ${quoteLiteral(c.field)} end`).join(', ')}]::text[], null) from ${t.ref} t where t.id = p_id and coalesce(${readableSql(model, entity, 't')}, false)`,
    executeTo: ['authenticated'],
    comment: `The read-restricted fields of ${entity} the caller may not read on the row (shown as hidden, not empty).`,
  });
  const restricted = new Set(t.readRestricted.map((c) => c.column));
  const select = [
    ...t.columns
      .map((c) => c.column)
      .map((col) =>
        restricted.has(col) ? `${readFieldRef(t, col)}(t.id) as ${quoteIdent(col)}` : `t.${quoteIdent(col)}`,
      ),
    `${hiddenRef}(t.id) as ${HIDDEN_COLUMN}`,
  ].join(', ');
  return [
    ...fns,
    hidden,
    sqlComment(`What clients read of ${entity}: every column, the read-restricted ones masked.`),
    `create or replace view ${t.readRef} with (security_invoker = true) as select ${select} from ${t.ref} t;`,
    `revoke all on table ${t.readRef} from anon, authenticated;`,
    `grant select on table ${t.readRef} to authenticated;`,
  ].join('\n');
}
