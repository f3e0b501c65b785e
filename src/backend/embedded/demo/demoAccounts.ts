import { modelOf, type SpecOrModel } from '../../../model/modelOf.ts';
import { demoOf } from './appDemo.ts';
import type { DemoAccount } from './demoAccount.ts';

// The seeding (hashing, inserts, profiles) is in seedDemoAccounts.ts: the sign-in screen lists
// these accounts on the first screen's path, which must not carry the database code with it.

// The account's type is in demoAccount.ts: appDemo.ts needs it, and this file imports appDemo.ts.
export type { DemoAccount };

/**
 * One demo account per role, with a password anyone may read (`demo-<role>`): the sign-in screen
 * shows them. Emails use the reserved `.test` domain so nothing is ever sent anywhere. When the
 * app registers demo rows (`AppDemo.plan`), each role held through a relationship gets an account
 * too, right after the sign-up role's: a person of the sign-up role whom the demo rows give the
 * relationship (`ref('<role>')`: a membership, a project they lead). Without demo rows nobody
 * could hold it, so there is no such account. An app's registered demo (`AppDemo.accounts`) may
 * add accounts its flows need (a second finance account in expenses, since whoever approves for
 * finance may not also pay).
 *
 * @example
 * demoAccounts(helpdesk)[0]; // { role: 'customer', email: 'customer@demo.test', password: 'demo-customer', ... }
 * demoAccounts(tasks).map((a) => a.key ?? a.role); // ['member', 'orgMember', 'orgAdmin', 'orgOwner', 'projectLead', 'admin'] (before the app's own `accounts`)
 */
export function demoAccounts(app: SpecOrModel): DemoAccount[] {
  const model = modelOf(app);
  const account = (role: string, label: string) => ({
    role,
    email: `${role.toLowerCase()}@demo.test`,
    password: `demo-${role}`,
    name: `Demo ${label}`,
  });
  const granted = [...model.roles].filter(([, r]) => r.through === undefined);
  const base: DemoAccount[] = granted.map(([role, r]) => account(role, r.label));
  const demo = demoOf(model);
  const signup = granted.find(([, r]) => r.signup)?.[0] ?? granted[0]?.[0];
  if (demo?.plan && signup !== undefined) {
    const held = [...model.roles]
      .filter(([, r]) => r.through !== undefined)
      .map(([role, r]) => ({ ...account(role, r.label), key: role, role: signup, holds: role }));
    base.splice(base.findIndex((a) => a.role === signup) + 1, 0, ...held);
  }
  return demo?.accounts ? demo.accounts(model, base) : base;
}
