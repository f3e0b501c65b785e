import type { DemoAccount } from '../../src/backend/embedded/demo/demoAccounts.ts';
import { type DemoPerson, ref } from '../../src/backend/embedded/demo/demoPlan.ts';
import { modelOf, type SpecOrModel } from '../../src/model/modelOf.ts';

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
 * The demo accounts with the profile a first visitor needs to walk every flow without SQL: the
 * employee, finance and admin accounts report to the demo manager (so each can have a claim
 * approved by an account anyone can sign in as), and the demo manager reports to a director.
 *
 * @example
 * expensesPeople(spec, people, accounts).find((p) => p.key === 'employee')?.profile?.manager; // { $ref: 'manager' }
 */
export function expensesPeople(
  app: SpecOrModel,
  people: DemoPerson[],
  accounts: readonly DemoAccount[],
): DemoPerson[] {
  const model = modelOf(app);
  const profile = model.profile === undefined ? undefined : model.tables.get(model.profile);
  const has = (field: string) => profile !== undefined && Object.hasOwn(profile.spec.fields, field);
  const roles = new Set(accounts.map((a) => a.role));
  if (!(has('manager') && has('department') && has('costCentre'))) return people;
  for (const [i, p] of people.entries()) {
    const department = p.roles.includes('finance') || p.key === 'admin' ? 'Operations' : 'Sales';
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
  return people;
}

/**
 * The demo accounts plus a second finance account: a claim above the finance threshold is
 * approved by one finance person and paid by another (separation of duties, a rule of the spec),
 * so one visitor needs both to walk a claim to payment.
 *
 * @example
 * expensesAccounts(spec, accounts).filter((a) => a.role === 'finance').length; // 2
 */
export function expensesAccounts(_app: SpecOrModel, accounts: DemoAccount[]): DemoAccount[] {
  const at = accounts.findIndex((a) => a.role === 'finance');
  const finance = accounts[at];
  if (!finance) return accounts;
  const second: DemoAccount = {
    key: 'finance2',
    role: 'finance',
    email: 'finance2@demo.test',
    password: 'demo-finance2',
    name: `${finance.name} 2`,
  };
  return [...accounts.slice(0, at + 1), second, ...accounts.slice(at + 1)];
}
