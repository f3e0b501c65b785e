import { type CheckedRule, typedOf } from '../model/checkedRule.ts';
import type { Typed } from '../rules/ast.ts';
import { typedChildren } from '../rules/typedChildren.ts';
import { compileRuleSql, type SqlRuleContext } from './compileRuleSql.ts';

export { typedOf };

/** Compiles a rule the model checked (src/model/checkedRule.ts). */
export function ruleSql(ctx: SqlRuleContext, rule: CheckedRule): string {
  return compileRuleSql(typedOf(rule), ctx);
}

export { readsBeyondRow } from '../rules/readsBeyondRow.ts';

/** Row fields (first path element, scope `row`) a rule reads: the columns worth indexing. */
export function rowFieldsRead(t: Typed, out: Set<string> = new Set()): Set<string> {
  if (t.kind === 'field' && t.scope === 'row') out.add(t.path[0]);
  for (const c of typedChildren(t)) rowFieldsRead(c, out);
  return out;
}
