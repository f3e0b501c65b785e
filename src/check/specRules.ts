import type { Diagnostic } from '../diagnostics.ts';
import type { Typed } from '../rules/ast.ts';
import { checkRule, comparable, fieldRuleType, typeName } from '../rules/index.ts';
import { ruleSites } from '../spec/ruleSites.ts';
import type { AppSpec } from '../spec/types.ts';

/**
 * Checks every rule string of the specification with the rule checker, and that each
 * `set` expression fits the field it is written to. Messages quote the rule so the
 * path alone is enough to find and fix it.
 */
export function checkRuleSites(spec: AppSpec, out: Diagnostic[]): void {
  for (const site of ruleSites(spec)) {
    const result = checkRule(spec, site.text, { entity: site.entity, expect: site.expect });
    if (!result.ok) {
      for (const e of result.errors) {
        const d: Diagnostic = {
          code: e.code,
          severity: 'error',
          path: site.path,
          message: `${e.message} in rule ${JSON.stringify(site.text)}`,
          span: e.span,
        };
        if (e.hint !== undefined) d.hint = e.hint;
        out.push(d);
      }
      continue;
    }
    if (site.path.endsWith('.after')) {
      checkAfter(site.path, site.text, result.typed, out);
      continue;
    }
    const setField =
      /\.set\.([A-Za-z0-9_]+)$/.exec(site.path)?.[1] ??
      /\.fields\.([A-Za-z0-9_]+)\.computed$/.exec(site.path)?.[1];
    if (setField === undefined || site.entity === null) continue;
    const target = fieldRuleType(spec, site.entity, setField);
    const type = result.typed.type;
    if (target && type.kind !== 'null' && !comparable(target, type)) {
      out.push({
        code: 'rule/type',
        severity: 'error',
        path: site.path,
        message: `${JSON.stringify(site.text)} is ${typeName(type)}, but field "${setField}" holds ${typeName(target)}`,
        span: result.typed.span,
      });
    }
  }
}

/** What an `after` rule reads that a job run by the system has not: the user, or the clock itself. */
function unsystematic(t: Typed): string | undefined {
  switch (t.kind) {
    case 'me':
      return 'me';
    case 'now':
      return 'now';
    case 'today':
      return 'today';
    case 'role':
      return unsystematic(t.subject) ?? 'is';
    case 'binary':
      return unsystematic(t.left) ?? unsystematic(t.right);
    case 'not':
    case 'neg':
    case 'empty':
      return unsystematic(t.operand);
    case 'in':
      return unsystematic(t.operand) ?? t.list.map(unsystematic).find((x) => x !== undefined);
    case 'call':
      return t.args.map(unsystematic).find((x) => x !== undefined);
    case 'count':
    case 'sum':
      return t.where ? unsystematic(t.where) : undefined;
    default:
      return undefined;
  }
}

/** `after` gives the instant a transition happens by itself: a date or time of the row, no user, no clock. */
function checkAfter(path: string, text: string, typed: Typed, out: Diagnostic[]): void {
  const push = (message: string, hint: string) =>
    out.push({ code: 'rule/type', severity: 'error', path, message, hint, span: typed.span });
  if (typed.type.kind !== 'datetime' && typed.type.kind !== 'date') {
    push(
      `"after" gives the instant the transition happens by itself; ${JSON.stringify(text)} is ${typeName(typed.type)}`,
      'write a date or time of the row, like dueDate + days(1) or startOfDay(dueDate + days(1))',
    );
    return;
  }
  const reads = unsystematic(typed);
  if (reads !== undefined)
    push(
      `"after" cannot read "${reads}" in ${JSON.stringify(text)}: the system moves the row, with no user, when the clock passes the instant`,
      'give the instant from the row and constants only (the clock is what passes it)',
    );
}
