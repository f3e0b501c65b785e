import type { AppSpec } from '../../../src/spec/types.ts';

/**
 * Computed values that read referenced rows (issue 32, item 5): a project's currency is its
 * organisation's, a time entry's currency is its project's (a chain) and its amount is its hours
 * times the project's rate, rounded to that currency. Managers change organisations' currencies
 * and projects' rates (by hand, or doubled by the `reprice` transition) but may not read or update
 * time entries; clerks see only their own. An entry's amount is audited: its edits are history.
 */
export const billing: AppSpec = {
  purpose: { name: 'Billing', summary: 'Hours billed per project.', users: ['clerks'] },
  screens: {
    entries: { route: '/entries', kind: 'list', title: 'Entries', entity: 'timeEntry' },
  },
  entities: {
    person: {
      label: 'Person',
      profile: true,
      title: 'name',
      fields: { name: { type: 'text', required: true } },
    },
    organisation: {
      label: 'Organisation',
      title: 'name',
      fields: {
        name: { type: 'text', required: true },
        currency: { type: 'text', required: true },
      },
    },
    project: {
      label: 'Project',
      title: 'name',
      fields: {
        name: { type: 'text', required: true },
        organisation: { type: 'ref', ref: 'organisation', onDelete: 'set null' },
        currency: { type: 'text', computed: 'organisation.currency' },
        rate: { type: 'money', currencyField: 'currency' },
        note: { type: 'text' },
        status: { type: 'status' },
      },
    },
    timeEntry: {
      label: 'Time entry',
      plural: 'Time entries',
      fields: {
        project: { type: 'ref', ref: 'project', onDelete: 'set null' },
        hours: { type: 'number', required: true },
        currency: { type: 'text', computed: 'project.currency' },
        amount: {
          type: 'money',
          currencyField: 'currency',
          computed: 'hours * project.rate',
          audited: true,
        },
        author: { type: 'user', owner: true },
        status: { type: 'status' },
      },
    },
  },
  states: {
    project: {
      field: 'status',
      initial: 'active',
      states: { active: {}, repriced: {} },
      transitions: {
        reprice: { from: ['active'], to: 'repriced', roles: ['manager'], set: { rate: 'rate * 2' } },
      },
    },
    timeEntry: {
      field: 'status',
      initial: 'open',
      states: { open: {}, billed: { final: true } },
      transitions: { bill: { from: ['open'], to: 'billed', roles: ['clerk'] } },
    },
  },
  validation: {
    timeEntry: [
      { kind: 'row', rule: 'amount is empty or amount <= 10000', field: 'amount', error: 'AMOUNT_TOO_HIGH' },
    ],
  },
  roles: {
    roles: {
      clerk: { label: 'Clerk', signup: true },
      manager: { label: 'Manager' },
    },
    permissions: {
      clerk: {
        person: { read: true },
        organisation: { read: true },
        project: { read: true },
        timeEntry: {
          read: 'author = me',
          create: true,
          update: { when: 'author = me', fields: ['hours', 'project'] },
        },
      },
      manager: {
        person: { read: true },
        organisation: { read: true, update: { when: true, fields: ['currency'] } },
        project: { read: true, update: { when: true, fields: ['rate', 'note'] } },
      },
    },
  },
  calls: { declared: {} },
  errors: { AMOUNT_TOO_HIGH: { message: 'An entry may bill at most 10,000.', severity: 'error' } },
  constants: {},
};
