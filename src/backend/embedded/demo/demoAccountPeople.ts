import type { AppSpec } from '../../../spec/types.ts';
import { demoOf } from './appDemo.ts';
import type { DemoAccount } from './demoAccounts.ts';
import type { DemoPerson } from './demoPlan.ts';

/**
 * The demo accounts as demo people, completed by the app's registered demo (`AppDemo.people`:
 * the profile a first visitor needs to walk every flow without SQL, e.g. a manager in expenses).
 * Both the full demo data and the accounts-only seeding (`?memory`, snapshots without demo data)
 * start from this list.
 *
 * @example
 * demoAccountPeople(spec, demoAccounts(spec)).map((p) => p.key); // ['customer', 'agent', 'admin']
 */
export function demoAccountPeople(spec: AppSpec, accounts: readonly DemoAccount[]): DemoPerson[] {
  const people: DemoPerson[] = accounts.map((a) => ({
    key: a.key ?? a.role,
    email: a.email,
    name: a.name,
    roles: [a.role],
    password: a.password,
  }));
  const own = demoOf(spec)?.people;
  return own ? own(spec, people, accounts) : people;
}
