import { tableName } from '../naming.ts';
import type { Typed } from '../rules/ast.ts';
import { typedChildren } from '../rules/typedChildren.ts';
import type { AppSpec } from '../spec/types.ts';
import { columnFor } from './columns.ts';
import { ME_SQL } from './compileRuleSql.ts';
import { readableSql } from './emitPolicies.ts';
import { quoteIdent } from './quote.ts';
import { ownerFields, tableRef } from './specModel.ts';
import { sqlFunction } from './sqlFunction.ts';
import { typedRule } from './typedRule.ts';

/**
 * Non-interference for counts (issue 11, finding 7; docs/security.md, "Non-interference"): a
 * `count(...)` in a row rule counts, for a client, only the rows that client may read or owns —
 * and the row being written. A hidden row then never changes what the writer observes: a customer
 * cannot learn from TOO_MANY_ATTACHMENTS how many internal attachments a ticket has, nor does a
 * hidden row satisfy `count(...) >= 1` for them. The browser evaluates counts over the rows it was
 * allowed to load, so both sides agree. The owner, `service_role` and seeds count every row.
 * Sums are not filtered: they are money invariants (a claim's total), which hidden rows must keep.
 */
export function countedName(entity: string): string {
  return `app.${quoteIdent(`${tableName(entity)}__counted_for_writer`)}`;
}

/** Entities some row rule counts (`count(attachment where ...)` counts attachment). */
export function countedEntities(spec: AppSpec): Set<string> {
  const out = new Set<string>();
  const walk = (t: Typed) => {
    if (t.kind === 'count') out.add(t.entity);
    for (const c of typedChildren(t)) walk(c);
  };
  for (const [entity, rules] of Object.entries(spec.validation)) {
    rules.forEach((rule, i) => {
      if (rule.kind !== 'row') return;
      const where = `validation.${entity}.${i}`;
      walk(typedRule(spec, rule.rule, entity, `${where}.rule`));
      if (rule.when !== undefined) walk(typedRule(spec, rule.when, entity, `${where}.when`));
    });
  }
  return out;
}

/**
 * `app.<table>__counted_for_writer(row)`: whether a row counts for the current writer. SECURITY
 * DEFINER and called from the (definer) validation triggers, where RLS does not apply; the client
 * is recognised by the `role` setting, which a definer function does not change.
 */
export function emitCountVisibility(spec: AppSpec, entity: string): string {
  const e = spec.entities[entity];
  if (!e || !countedEntities(spec).has(entity)) return '';
  const owned = ownerFields(e).map((f) => `p_row.${quoteIdent(columnFor(spec, entity, f))} = ${ME_SQL}`);
  const body = [
    "coalesce(current_setting('role', true), 'none') not in ('anon', 'authenticated')",
    ...owned,
    `(${readableSql(spec, entity, 'p_row')})`,
  ].join('\n  or ');
  return sqlFunction({
    name: countedName(entity),
    args: `p_row ${tableRef(entity)}`,
    argTypes: tableRef(entity),
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
export function countFilterFor(ruleEntity: string, row: string) {
  return (entity: string, alias: string): string =>
    entity === ruleEntity
      ? `(${alias}.id = ${row}.id or ${countedName(entity)}(${alias}))`
      : `${countedName(entity)}(${alias})`;
}
