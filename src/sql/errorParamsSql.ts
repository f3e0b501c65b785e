import type { ErrorParamNode } from '../model/errorParams.ts';
import { oneAggregate } from '../model/errorParams.ts';
import type { AppModel } from '../model/index.ts';
import type { RowRuleNode } from '../model/validationRule.ts';
import { compileRuleSql, firstCountedSql, type SqlRuleContext } from './compileRuleSql.ts';
import { countFilterFor } from './emitCountVisibility.ts';
import { colSql } from './specModel.ts';

/**
 * The declared parameters of a row rule's error as SQL expressions for `raiseSql`, read on row
 * variable `row`. What they read of other rows is filtered as a rule's counts are (the rows the
 * writer may read or owns, and the row written), so the error shows the caller nothing they could
 * not read themselves.
 *
 * @example
 * errorParamsSql(model, rule, 'new'); // { date: 'new."date"', logged: 'coalesce((select sum(...)), 0)' }
 */
export function errorParamsSql(model: AppModel, rule: RowRuleNode, row: string): Record<string, string> {
  const params = model.errors.get(rule.spec.error)?.params ?? [];
  const ctx: SqlRuleContext = {
    model,
    row,
    countFilter: countFilterFor(model, rule.entity, row),
    filterSums: true,
  };
  const out: Record<string, string> = {};
  for (const p of params) {
    const sql = paramSql(model, rule, p, ctx);
    if (sql !== undefined) out[p.name] = sql;
  }
  return out;
}

function paramSql(
  model: AppModel,
  rule: RowRuleNode,
  p: ErrorParamNode,
  ctx: SqlRuleContext,
): string | undefined {
  const { source } = p;
  if (source.kind === 'field') return `${ctx.row}.${colSql(model, rule.entity, source.field)}`;
  if (source.kind === 'other') {
    const c = oneAggregate(rule, 'count');
    return c ? firstCountedSql(c, source.field, ctx) : undefined;
  }
  const a = oneAggregate(rule, source.kind);
  return a ? compileRuleSql(a, ctx) : undefined;
}
