import type { AppSpec } from '../../../src/spec/types.ts';

/**
 * Computed values that read referenced rows (issue 32, item 5): a project's currency is its
 * organisation's, a time entry's currency is its project's (a chain) and its amount is its hours
 * times the project's rate, rounded to that currency. Managers change organisations' currencies
 * and projects' rates but may not read or update time entries; clerks see only their own.
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
      },
    },
    timeEntry: {
      label: 'Time entry',
      plural: 'Time entries',
      fields: {
        project: { type: 'ref', ref: 'project', onDelete: 'set null' },
        hours: { type: 'number', required: true },
        currency: { type: 'text', computed: 'project.currency' },
        amount: { type: 'money', currencyField: 'currency', computed: 'hours * project.rate' },
        author: { type: 'user', owner: true },
      },
    },
  },
  states: {},
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
