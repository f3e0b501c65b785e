import type { DemoAccount } from '../../src/backend/embedded/demo/demoAccounts.ts';

/**
 * Team Tasks' demo accounts: the default ones (a member, one account per role held in an
 * organisation or a project, a platform administrator), named after the organisations the demo
 * rows put them in. The account of `orgMember` goes: the member account holds it in both
 * organisations already.
 *
 * @example
 * tasksAccounts(model, accounts).map((a) => a.key ?? a.role); // ['member', 'orgAdmin', 'orgOwner', 'projectLead', 'admin']
 */
export function tasksAccounts(_model: unknown, accounts: DemoAccount[]): DemoAccount[] {
  return accounts
    .filter((a) => a.holds !== 'orgMember')
    .map((a) =>
      a.holds !== undefined
        ? { ...a, name: `${a.name} (Northwind)` }
        : a.role === 'member'
          ? { ...a, name: 'Demo Member (Northwind, Bluefin)' }
          : a,
    );
}
