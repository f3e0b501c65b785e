import { modelOf, type SpecOrModel } from '../../../model/modelOf.ts';
import { demoOf } from './appDemo.ts';
import type { DemoAccount } from './demoAccount.ts';

// The seeding (hashing, inserts, profiles) is in seedDemoAccounts.ts: the sign-in screen lists
// these accounts on the first screen's path, which must not carry the database code with it.

// The account's type is in demoAccount.ts: appDemo.ts needs it, and this file imports appDemo.ts.
export type { DemoAccount };

/**
 * One demo account per role, with a password anyone may read (`demo-<role>`): the sign-in screen
 * shows them. Emails use the reserved `.test` domain so nothing is ever sent anywhere. An app's
 * registered demo (`AppDemo.accounts`) may add accounts its flows need (a second finance
 * account in expenses, since whoever approves for finance may not also pay).
 *
 * @example
 * demoAccounts(helpdesk)[0]; // { role: 'customer', email: 'customer@demo.test', password: 'demo-customer', ... }
 */
export function demoAccounts(app: SpecOrModel): DemoAccount[] {
  const model = modelOf(app);
  // A role held through a relationship is nobody's to be given: its holders are in the data.
  const base = [...model.roles]
    .filter(([, r]) => r.through === undefined)
    .map(([role, r]) => ({
      role,
      email: `${role.toLowerCase()}@demo.test`,
      password: `demo-${role}`,
      name: `Demo ${r.label}`,
    }));
  const own = demoOf(model)?.accounts;
  return own ? own(model, base) : base;
}
