import type { Typed } from '../rules/ast.ts';
import { checkRule } from '../rules/check.ts';
import { typedChildren } from '../rules/typedChildren.ts';
import type { AppSpec } from '../spec/types.ts';
import { compileRuleSql, type SqlRuleContext } from './compileRuleSql.ts';

/**
 * Checks a rule text of the specification. The migration is compiled from a validated
 * specification, so a failure here is a bug upstream: it throws with the spec path.
 */
export function typedRule(
  spec: AppSpec,
  text: string,
  entity: string | null,
  where: string,
  expect: 'boolean' | 'value' = 'boolean',
): Typed {
  const r = checkRule(spec, text, { entity, expect });
  if (!r.ok) throw new Error(`${where}: ${r.errors.map((e) => e.message).join('; ')} (in "${text}")`);
  return r.typed;
}

/** Checks and compiles a rule text in one step. */
export function ruleSql(
  ctx: SqlRuleContext,
  text: string,
  entity: string | null,
  where: string,
  expect: 'boolean' | 'value' = 'boolean',
): string {
  return compileRuleSql(typedRule(ctx.spec, text, entity, where, expect), ctx);
}

export { readsBeyondRow } from '../rules/readsBeyondRow.ts';

/** Row fields (first path element, scope `row`) a rule reads: the columns worth indexing. */
export function rowFieldsRead(t: Typed, out: Set<string> = new Set()): Set<string> {
  if (t.kind === 'field' && t.scope === 'row') out.add(t.path[0]);
  for (const c of typedChildren(t)) rowFieldsRead(c, out);
  return out;
}
