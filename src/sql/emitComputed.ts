import type { ColumnNode } from '../model/column.ts';
import type { AppModel } from '../model/index.ts';
import { minorUnits, minorUnitsSql, roundSql } from '../spec/currencies.ts';
import { qualified } from './quote.ts';
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
  const sets = cols.map((c) => {
    const value = ruleSql({ model, row: 'new' }, c.computed!);
    return `new.${colSql(model, entity, c.field)} := ${moneyRounded(model, entity, c.field, value, 'new')};`;
  });
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
      body: `begin\n${indent(sets.join('\n'))}\n  return new;\nend;`,
      executeTo: [],
      comment: `Computed fields of ${entity}: ${cols.map((c) => c.field).join(', ')}.`,
    }),
    sqlTrigger('ninefold_25_computed', 'before insert or update', t.ref, fn),
  ].join('\n');
}
