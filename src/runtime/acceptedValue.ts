import type { AppModel } from '../model/appModel.ts';
import type { DataContext } from '../rules/evaluate.ts';
import { formRules } from './formRules.ts';
import { type RuleUser, refusesRow, ruleVerdict } from './ruleVerdict.ts';

/**
 * Whether the specification's row rules on `field` accept `value` in this row: what a form may
 * offer (a date picker's days, a reference's options), so the browser never offers what the
 * server will refuse. The rules are the spec's own (`date <= today`, `assignee is agent`), judged
 * as the database does; a rule the browser cannot judge (it reads rows it was not given) is the
 * server's and accepts here.
 *
 * @example
 * acceptedValue(resolve(expenses), 'line', 'date', '2999-01-01', {}, user) // false (DATE_IN_FUTURE)
 */
export function acceptedValue(
  model: AppModel,
  entity: string,
  field: string,
  value: unknown,
  row: Readonly<Record<string, unknown>>,
  user: RuleUser | null,
  data?: DataContext,
  now: Date = new Date(),
): boolean {
  for (const { rule, target } of formRules(model, entity)) {
    if (rule.kind !== 'row' || target !== field) continue;
    const ctx = { user, row: { ...row, [field]: value }, now, ...(data ? { data } : {}) };
    try {
      if (rule.when && ruleVerdict(model, entity, rule.when, ctx) !== true) continue;
      if (refusesRow(model, entity, rule.rule, ctx)) return false;
    } catch {
      // It read rows the caller does not have (their data context throws): the server judges.
    }
  }
  return true;
}

/**
 * Whether any time of the day `day` (`YYYY-MM-DD`) is accepted for a date or datetime field:
 * the start, the end or the present moment (for rules relative to `now`).
 */
export function acceptedDay(
  model: AppModel,
  entity: string,
  field: string,
  kind: 'date' | 'datetime',
  day: string,
  row: Readonly<Record<string, unknown>>,
  user: RuleUser | null,
  now: Date = new Date(),
): boolean {
  if (kind === 'date') return acceptedValue(model, entity, field, day, row, user, undefined, now);
  const start = new Date(`${day}T00:00:00`);
  const end = new Date(`${day}T23:59:59`);
  const candidates = [start, end];
  if (now >= start && now <= end) candidates.push(now);
  return candidates.some((t) =>
    acceptedValue(model, entity, field, t.toISOString(), row, user, undefined, now),
  );
}
