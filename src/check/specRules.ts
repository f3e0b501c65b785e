import type { Diagnostic } from '../diagnostics.ts';
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
