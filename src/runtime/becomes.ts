import type { AppModel } from '../model/appModel.ts';
import type { DataContext } from '../rules/evaluate.ts';
import { rolesOnRows } from './roles.ts';
import { type RuleUser, ruleVerdict } from './ruleVerdict.ts';

/**
 * The catalogue code a write is refused with because of a permission's `becomes` (a rule over the
 * row as it will be), or undefined when the browser sees no such refusal. As the database's
 * trigger: among the update permissions that apply to the stored row (`when` on `old`), or the
 * create permissions that apply to the new one (`old` null: `when` on `draft`), when one has a
 * `becomes` and none lets `draft` through (no `becomes`, or one that holds on it), the first such
 * permission's `error`. Refused only when every verdict is certain; what needs rows the browser
 * was not given stays the server's to judge.
 *
 * @example
 * becomesRefusal(model, admin, 'membership', stored, { ...stored, role: 'owner' }, data)
 * // 'ONLY_OWNER_MAKES_OWNER'
 * becomesRefusal(model, admin, 'membership', null, { person, organisation, role: 'owner' }, data)
 * // 'ONLY_OWNER_MAKES_OWNER'
 */
export function becomesRefusal(
  model: AppModel,
  user: RuleUser,
  entity: string,
  old: Readonly<Record<string, unknown>> | null,
  draft: Readonly<Record<string, unknown>>,
  data?: DataContext,
): string | undefined {
  const held = new Set(rolesOnRows(model, user.roles));
  const action = old === null ? 'create' : 'update';
  const grants = model.policies.filter((p) => p.entity === entity && p.action === action && held.has(p.role));
  if (!grants.some((g) => g.becomes)) return undefined;
  const verdict = (rule: string | boolean, row: Readonly<Record<string, unknown>>) => {
    try {
      return ruleVerdict(model, entity, rule, { user, row, ...(data ? { data } : {}) });
    } catch {
      return 'undecidable' as const;
    }
  };
  let refusal: string | undefined;
  for (const g of grants) {
    const applies = verdict(g.when, old ?? draft);
    if (applies === false || applies === null) continue;
    const passes = g.becomes ? verdict(g.becomes.text, draft) : true;
    // A grant that may apply and may let the row through leaves the update to the server.
    if (applies === 'undecidable' || (passes !== false && passes !== null)) return undefined;
    refusal ??= g.error ?? 'FORBIDDEN';
  }
  return refusal;
}
