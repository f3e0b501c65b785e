import type { DemoAccount } from '../../src/backend/embedded/demo/demoAccounts.ts';

/**
 * The demo accounts that hold a role in an organisation rather than a platform role: their
 * platform role is `member`, their role in an organisation comes from a membership of the demo
 * data. `key` names them in the demo plan.
 */
export const ORGANISATION_ACCOUNTS: readonly DemoAccount[] = [
  {
    key: 'owner',
    role: 'member',
    email: 'owner@demo.test',
    password: 'demo-owner',
    name: 'Demo Owner (Northwind)',
  },
  {
    key: 'orgadmin',
    role: 'member',
    email: 'orgadmin@demo.test',
    password: 'demo-orgadmin',
    name: 'Demo Administrator (Northwind)',
  },
  {
    key: 'lead',
    role: 'member',
    email: 'lead@demo.test',
    password: 'demo-lead',
    name: 'Demo Project lead (Northwind)',
  },
];

/**
 * The default demo accounts (one per platform role: member, platform administrator) plus one per
 * role in an organisation (owner, administrator, project lead), right after the member account:
 * a visitor walks every flow of one organisation, approval of time included, without SQL.
 * NEEDS(issue 32 item 1): once roles held through a membership are roles of the language, the
 * default "one account per role" includes them and this list shrinks to nothing.
 *
 * @example
 * tasksAccounts(model, accounts).map((a) => a.key ?? a.role); // ['member', 'owner', 'orgadmin', 'lead', 'admin']
 */
export function tasksAccounts(_model: unknown, accounts: DemoAccount[]): DemoAccount[] {
  const at = accounts.findIndex((a) => a.role === 'member');
  if (at < 0) return accounts;
  const member = accounts[at];
  const named = member ? [{ ...member, name: 'Demo Member (Northwind, Bluefin)' }] : [];
  return [...accounts.slice(0, at), ...named, ...ORGANISATION_ACCOUNTS, ...accounts.slice(at + 1)];
}
