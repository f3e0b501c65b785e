import { modelOf, type SpecOrModel } from '../../../model/modelOf.ts';
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
export function demoAccountPeople(app: SpecOrModel, accounts: readonly DemoAccount[]): DemoPerson[] {
  const people: DemoPerson[] = accounts.map((a) => ({
    key: a.key ?? a.role,
    email: a.email,
    name: a.name,
    roles: [a.role],
    password: a.password,
  }));
  const model = modelOf(app);
  const own = demoOf(model)?.people;
  return own ? own(model, people, accounts) : people;
}
