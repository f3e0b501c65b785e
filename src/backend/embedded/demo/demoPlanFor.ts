import type { AppSpec } from '../../../spec/types.ts';
import { demoAccounts } from './demoAccounts.ts';
import type { DemoPlan } from './demoPlan.ts';
import { expensesDemo } from './expensesDemo.ts';
import { helpdeskDemo } from './helpdeskDemo.ts';

/**
 * The demo data for an app: the reference apps have their own; any other app gets its demo
 * accounts only (one per role), which is enough to sign in and try every screen.
 *
 * @example
 * demoPlanFor(helpdesk, new Date()).rows.length; // hundreds
 */
export function demoPlanFor(spec: AppSpec, now: Date): DemoPlan {
  const hasEntities = (...names: string[]) => names.every((n) => Object.hasOwn(spec.entities, n));
  if (
    spec.purpose.name === 'Helpdesk' &&
    hasEntities('ticket', 'comment', 'attachment', 'category', 'savedReply')
  ) {
    return helpdeskDemo(spec, now);
  }
  if (spec.purpose.name === 'Expenses' && hasEntities('claim', 'line', 'receipt'))
    return expensesDemo(spec, now);
  return {
    people: demoAccounts(spec).map((a) => ({
      key: a.role,
      email: a.email,
      name: a.name,
      roles: [a.role],
      password: a.password,
    })),
    rows: [],
    history: [],
  };
}
