import type { ColumnNode } from '../model/column.ts';
import { computedHops } from '../model/computedDependents.ts';
import type { AppModel } from '../model/index.ts';
import { minorUnits, minorUnitsSql, roundSql } from '../spec/currencies.ts';
import { qualified, quoteLiteral } from './quote.ts';
import { colSql, tableOf } from './specModel.ts';
import { indent, sqlFunction, sqlTrigger } from './sqlFunction.ts';
import { ruleSql } from './typedRule.ts';

/**
 * A money value rounded to its currency's minor unit (half away from zero, `round(numeric, n)`):
 * the field's fixed currency, else its currency field read on `row`, else two decimals. Other
 * types are left as they are (an integer column rounds the same way on assignment).
 */
export function moneyRounded(
  model: AppModel,
  entity: string,
  field: string,
  sql: string,
  row: string,
): string {
  const t = tableOf(model, entity);
  const f = t.spec.fields[field];
  if (f?.type !== 'money') return sql;
  const col = t.byField.get(field);
  if (f.currencyField)
    return roundSql(sql, minorUnitsSql(`${row}.${colSql(model, entity, f.currencyField)}`));
  return roundSql(sql, String(minorUnits(col?.currency)));
}

/**
 * The transaction-local setting a recompute (emitRecompute.ts) names the fields it rewrites in:
 * `<table>:,<column>,<column>,`; empty, or another table's, means every computed field.
 */
export const RECOMPUTE_ONLY = 'ninefold.recompute_only';

/** The computed columns of an entity, in field order. */
export function computedColumns(model: AppModel, entity: string): ColumnNode[] {
  return tableOf(model, entity).columns.filter((c) => c.computed !== undefined);
}

/**
 * Computed fields (`computed: '<rule>'`): a BEFORE INSERT OR UPDATE trigger, after the row
 * bookkeeping (which refuses a client's own value), sets each one from its rule over the new row,
 * in field order (a computed field may read one declared before it), money rounded to its minor
 * unit. SECURITY DEFINER, as the validation trigger: a rule reading a referenced row (`project.rate`)
 * gives the same value whoever writes.
 */
export function emitComputed(model: AppModel, entity: string): string {
  const cols = computedColumns(model, entity);
  if (cols.length === 0) return '';
  const t = tableOf(model, entity);
  const followed = computedHops(model).some((h) => h.entity === entity);
  const sets = cols.map((c) => {
    const value = ruleSql({ model, row: 'new' }, c.computed!);
    const set = `new.${colSql(model, entity, c.field)} := ${moneyRounded(model, entity, c.field, value, 'new')};`;
    if (!followed) return set;
    // A recompute for a referenced row's change works out only the fields it names, and rounds
    // those marked `~` again in their (new) currency (emitRecompute.ts); the rest stay as stored.
    const col = colSql(model, entity, c.field);
    return [
      `if v_all or position(${quoteLiteral(`,${c.column},`)} in v_only) > 0 then`,
      `  ${set}`,
      ...(t.spec.fields[c.field]?.type === 'money'
        ? [
            `elsif position(${quoteLiteral(`,~${c.column},`)} in v_only) > 0 then`,
            `  new.${col} := ${moneyRounded(model, entity, c.field, `new.${col}`, 'new')};`,
          ]
        : []),
      'end if;',
    ].join('\n');
  });
  const declare = followed
    ? [
        'declare',
        `  v_only text := coalesce(current_setting(${quoteLiteral(RECOMPUTE_ONLY)}, true), '');`,
        `  v_all boolean := split_part(v_only, ':', 1) is distinct from ${quoteLiteral(t.table)};`,
      ]
    : [];
  const fn = qualified('app', `${t.table}__computed`);
  return [
    sqlFunction({
      name: fn,
      args: '',
      argTypes: '',
      returns: 'trigger',
      language: 'plpgsql',
      volatility: 'volatile',
      securityDefiner: true,
      body: [...declare, 'begin', indent(sets.join('\n')), '  return new;', 'end;'].join('\n'),
      executeTo: [],
      comment: `Computed fields of ${entity}: ${cols.map((c) => c.field).join(', ')}.`,
    }),
    sqlTrigger('ninefold_25_computed', 'before insert or update', t.ref, fn),
  ].join('\n');
}
