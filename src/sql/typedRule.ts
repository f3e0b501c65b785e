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

/** Whether a rule reads anything beyond the row's own columns (so it cannot be a CHECK constraint). */
export function readsBeyondRow(t: Typed): boolean {
  switch (t.kind) {
    case 'literal':
    case 'const':
      return false;
    case 'field':
      return t.path.length > 1 || t.scope !== 'row';
    case 'me':
    case 'now':
    case 'today':
    case 'this':
    case 'role':
    case 'count':
    case 'sum':
      return true;
    case 'binary':
      return readsBeyondRow(t.left) || readsBeyondRow(t.right);
    case 'not':
    case 'neg':
    case 'empty':
      return readsBeyondRow(t.operand);
    case 'in':
      return readsBeyondRow(t.operand) || t.list.some(readsBeyondRow);
    case 'call':
      return t.args.some(readsBeyondRow);
  }
}

/** Row fields (first path element, scope `row`) a rule reads: the columns worth indexing. */
export function rowFieldsRead(t: Typed, out: Set<string> = new Set()): Set<string> {
  if (t.kind === 'field' && t.scope === 'row') out.add(t.path[0]);
  for (const c of typedChildren(t)) rowFieldsRead(c, out);
  return out;
}
