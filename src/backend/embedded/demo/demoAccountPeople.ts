import type { AppSpec } from '../../../spec/types.ts';
import type { DemoAccount } from './demoAccounts.ts';
import { type DemoPerson, ref } from './demoPlan.ts';

/** The expenses departments, each with its cost centre (`CC-4100` for the first). */
export const EXPENSES_DEPARTMENTS = ['Sales', 'Engineering', 'Customer Success', 'Marketing', 'Operations'];

export const expensesCostCentre = (department: string): string =>
  `CC-${4100 + Math.max(0, EXPENSES_DEPARTMENTS.indexOf(department))}`;

/** Who the demo manager reports to: a person without a password (nobody signs in as them). */
export const EXPENSES_DIRECTOR: DemoPerson = {
  key: 'director',
  email: 'ingrid.vos@example.test',
  name: 'Ingrid Vos',
  roles: ['manager'],
  profile: { department: 'Management', costCentre: 'CC-4000', employeeNumber: 'E0100' },
};

/**
 * The demo accounts as demo people, with the profile a first visitor needs to walk every flow
 * without SQL: in expenses, the employee, finance and admin accounts report to the demo manager
 * (so each can have a claim approved by an account anyone can sign in as), and the demo manager
 * reports to a director; in helpdesk, everyone has an organisation. Both the full demo data and
 * the accounts-only seeding (`?memory`, snapshots without demo data) start from this list.
 *
 * @example
 * demoAccountPeople(expenses, demoAccounts(expenses)).find((p) => p.key === 'employee')?.profile?.manager;
 * // { $ref: 'manager' }
 */
export function demoAccountPeople(spec: AppSpec, accounts: readonly DemoAccount[]): DemoPerson[] {
  const people: DemoPerson[] = accounts.map((a) => ({
    key: a.role,
    email: a.email,
    name: a.name,
    roles: [a.role],
    password: a.password,
  }));
  const profile = Object.values(spec.entities).find((e) => e.profile);
  const has = (field: string) => profile !== undefined && Object.hasOwn(profile.fields, field);
  const roles = new Set(accounts.map((a) => a.role));
  if (spec.purpose.name === 'Expenses' && has('manager') && has('department') && has('costCentre')) {
    for (const [i, p] of people.entries()) {
      const department = p.key === 'finance' || p.key === 'admin' ? 'Operations' : 'Sales';
      const manager =
        p.key === 'manager' ? EXPENSES_DIRECTOR.key : roles.has('manager') ? 'manager' : undefined;
      p.profile = {
        department,
        costCentre: expensesCostCentre(department),
        ...(has('employeeNumber') ? { employeeNumber: `E${1000 + i}` } : {}),
        ...(manager ? { manager: ref(manager) } : {}),
      };
    }
    if (roles.has('manager')) people.push(structuredClone(EXPENSES_DIRECTOR));
  }
  if (spec.purpose.name === 'Helpdesk' && has('organisation')) {
    for (const p of people)
      p.profile = { organisation: p.key === 'customer' ? 'Demo Ltd' : 'Ninefold Support' };
  }
  return people;
}
