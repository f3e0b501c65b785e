import type { AppModel } from '../model/appModel.ts';
import type { DataContext } from '../rules/evaluate.ts';
import { rolePolicy } from './rolePolicy.ts';
import { rolesOnRows } from './roles.ts';
import { type RuleUser, readsMissingField, ruleVerdict } from './ruleVerdict.ts';
import { ui } from './uiText.ts';

export type Action = 'read' | 'create' | 'update' | 'delete';

/** Why something is not allowed: no role grants it, or the role's row rule does not hold. */
export type Decision = { ok: true } | { ok: false; why: 'role' | 'rule'; reason: string };

/**
 * May this user do `action` on `entity` (and on `row`, when given)? The same permission table
 * the database's row-level security is generated from: a role grants the action always (`true`),
 * never (`false`/absent), or when its row rule holds. Inherited roles count. Without a row, a
 * row rule is given the benefit of the doubt (the server decides), so "New ticket" shows.
 *
 * @example
 * can(model, { id: 'u1', roles: ['customer'] }, 'ticket', 'update', row)
 * // { ok: false, why: 'rule', reason: 'Not possible right now.' }
 */
export function can(
  model: AppModel,
  user: RuleUser | null,
  entity: string,
  action: Action,
  row?: Readonly<Record<string, unknown>>,
  /** Rows the caller has (e.g. the parent of a row about to be created), for `parent.field` rules. */
  data?: DataContext,
): Decision {
  if (!user) return { ok: false, why: 'role', reason: ui('notAllowedRole') };
  let someRoleGrants = false;
  for (const role of rolesOnRows(model, user.roles)) {
    const raw = rolePolicy(model, role, entity, action)?.when;
    if (raw === undefined) continue;
    someRoleGrants = true;
    // Without the row, or with a draft lacking a field the rule reads, the server decides.
    if (raw === true || row === undefined || readsMissingField(model, entity, raw, row)) return { ok: true };
    if (permits(verdictWith(model, entity, raw, { user, row, ...(data ? { data } : {}) })))
      return { ok: true };
  }
  return someRoleGrants
    ? { ok: false, why: 'rule', reason: ui('notAllowedGuard') }
    : { ok: false, why: 'role', reason: ui('notAllowedRole') };
}

/**
 * The fields this user may change on `row`: the union of `update.fields` over the roles whose
 * update rule holds.
 *
 * @example
 * updatableFields(model, customer, 'ticket', row) // Set { 'title', 'body' }
 */
export function updatableFields(
  model: AppModel,
  user: RuleUser | null,
  entity: string,
  row: Readonly<Record<string, unknown>> | undefined,
  /** Rows the caller has, for rules reading beyond the row (a relationship role's membership). */
  data?: DataContext,
): Set<string> {
  const out = new Set<string>();
  if (!user) return out;
  for (const role of rolesOnRows(model, user.roles)) {
    const update = rolePolicy(model, role, entity, 'update');
    if (!update) continue;
    const allowed =
      update.when === true ||
      row === undefined ||
      permits(verdictWith(model, entity, update.when, { user, row, ...(data ? { data } : {}) }));
    if (allowed) for (const f of update.fields ?? []) out.add(f);
  }
  return out;
}

/** A verdict where data the caller could not provide (it throws) leaves the rule to the server. */
function verdictWith(...args: Parameters<typeof ruleVerdict>): ReturnType<typeof ruleVerdict> {
  try {
    return ruleVerdict(...args);
  } catch {
    return 'undecidable';
  }
}

/** A permission or guard is granted when its rule holds, or when only the server can tell. */
export function permits(verdict: boolean | null | 'undecidable'): boolean {
  return verdict === true || verdict === 'undecidable';
}
