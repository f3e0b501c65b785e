import { oneAggregate } from '../model/errorParams.ts';
import type { AppModel } from '../model/index.ts';
import type { Typed } from '../rules/ast.ts';
import { typedChildren } from '../rules/typedChildren.ts';
import { ME_SQL } from './compileRuleSql.ts';
import { readableSql } from './emitPolicies.ts';
import { qualified } from './quote.ts';
import { colSql, tableOf } from './specModel.ts';
import { sqlFunction } from './sqlFunction.ts';
import { typedOf } from './typedRule.ts';

/**
 * Non-interference for counts (issue 11, finding 7; docs/security.md, "Non-interference"): a
 * `count(...)` in a row rule counts, for a client, only the rows that client may read or owns —
 * and the row being written. A hidden row then never changes what the writer observes: a customer
 * cannot learn from TOO_MANY_ATTACHMENTS how many internal attachments a ticket has, nor does a
 * hidden row satisfy `count(...) >= 1` for them. The browser evaluates counts over the rows it was
 * allowed to load, so both sides agree. The owner, `service_role` and seeds count every row.
 * Sums are not filtered: they are money invariants (a claim's total), which hidden rows must keep.
 */
export function countedName(model: AppModel, entity: string): string {
  return qualified('app', tableOf(model, entity).names.countedForWriter);
}

/** Entities some row rule counts (`count(attachment where ...)` counts attachment). */
export function countedEntities(model: AppModel): Set<string> {
  const out = new Set<string>();
  const walk = (t: Typed) => {
    if (t.kind === 'count') out.add(t.entity);
    for (const c of typedChildren(t)) walk(c);
  };
  for (const t of model.tables.values())
    for (const rule of t.rules) {
      if (rule.kind !== 'row') continue;
      walk(typedOf(rule.rule));
      if (rule.when) walk(typedOf(rule.when));
      // A message parameter's sum is filtered like a count (errorParamsSql.ts).
      const params = model.errors.get(rule.spec.error)?.params ?? [];
      const summed = params.some((p) => p.source.kind === 'sum') ? oneAggregate(rule, 'sum') : undefined;
      if (summed) out.add(summed.entity);
    }
  return out;
}

/**
 * `app.<table>__counted_for_writer(row)`: whether a row counts for the current writer. SECURITY
 * DEFINER and called from the (definer) validation triggers, where RLS does not apply; the client
 * is recognised by the `role` setting, which a definer function does not change.
 */
export function emitCountVisibility(model: AppModel, entity: string): string {
  const t = model.tables.get(entity);
  if (!t || !countedEntities(model).has(entity)) return '';
  const owned = t.ownerFields.map((f) => `p_row.${colSql(model, entity, f)} = ${ME_SQL}`);
  const body = [
    "coalesce(current_setting('role', true), 'none') not in ('anon', 'authenticated')",
    ...owned,
    `(${readableSql(model, entity, 'p_row')})`,
  ].join('\n  or ');
  return sqlFunction({
    name: countedName(model, entity),
    args: `p_row ${t.ref}`,
    argTypes: t.ref,
    returns: 'boolean',
    language: 'sql',
    volatility: 'stable',
    securityDefiner: true,
    body: `select coalesce(\n  ${body}, false);`,
    executeTo: [],
    comment: `${entity}: whether a row counts in a rule's count for the current writer (it may read or owns it).`,
  });
}

/**
 * The `countFilter` of a row rule on `ruleEntity` evaluated on row variable `row`: the counted row
 * counts for the writer, or is the row being written.
 */
export function countFilterFor(model: AppModel, ruleEntity: string, row: string) {
  return (entity: string, alias: string): string =>
    entity === ruleEntity
      ? `(${alias}.id = ${row}.id or ${countedName(model, entity)}(${alias}))`
      : `${countedName(model, entity)}(${alias})`;
}
