import type { AppModel } from '../model/appModel.ts';
import { effectiveRoles } from './roles.ts';
import type { RuleUser } from './ruleVerdict.ts';

/**
 * Whether a form offers a boolean flag to this user when creating a row: some role they hold
 * may create with it set, i.e. its create rule does not pin it to false (`internal = false and
 * ticket.requester = me`). Read from the app model's policies, so the spec decides who sees the
 * flag even where the rest of the rule needs rows the browser does not have.
 *
 * @example
 * offersFlag(resolve(helpdesk), customer, 'comment', 'internal'); // false
 */
export function offersFlag(model: AppModel, user: RuleUser | null, entity: string, field: string): boolean {
  if (!user) return false;
  const held = effectiveRoles(model, user.roles);
  return model.policies.some(
    (p) => p.entity === entity && p.action === 'create' && held.includes(p.role) && p.fixed[field] !== false,
  );
}
