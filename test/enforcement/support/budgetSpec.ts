import { defineApp } from '../../../src/spec/defineApp.ts';

/**
 * A test specification of the shapes the race suite attacks beyond the reference apps: a sum over
 * children bounded by a parent field, "one per user per parent", a child rule relating its own
 * field to the parent's, and a create permission reading the parent's status.
 */
export const budgetSpec = defineApp({
  purpose: {
    name: 'Team budgets',
    summary: 'People book entries against a shared budget.',
    users: ['members'],
  },
  screens: {
    budgets: { route: '/budgets', kind: 'list', title: 'Budgets', entity: 'budget' },
  },
  entities: {
    member: {
      label: 'Member',
      profile: true,
      fields: { name: { type: 'text', required: true } },
    },
    budget: {
      label: 'Budget',
      title: 'name',
      fields: {
        name: { type: 'text', required: true },
        cap: { type: 'number', required: true },
        unit: { type: 'enum', values: ['hours', 'euros'], default: 'hours', required: true },
        status: { type: 'status' },
        owner: { type: 'user', owner: true },
      },
    },
    entry: {
      label: 'Entry',
      fields: {
        budget: { type: 'ref', ref: 'budget', required: true, onDelete: 'cascade' },
        author: { type: 'user', owner: true },
        amount: { type: 'number', required: true },
        unit: { type: 'enum', values: ['hours', 'euros'], default: 'hours', required: true },
      },
    },
  },
  states: {
    budget: {
      field: 'status',
      initial: 'open',
      states: { open: {}, closed: { final: true } },
      transitions: {
        close: { from: ['open'], to: 'closed', roles: ['member'], guard: 'owner = me' },
      },
    },
  },
  validation: {
    entry: [
      {
        kind: 'row',
        rule: 'sum(entry.amount where budget = this.budget) <= budget.cap',
        error: 'OVER_CAP',
      },
      {
        kind: 'row',
        rule: 'count(entry where budget = this.budget and author = me) <= 1',
        error: 'ONE_ENTRY_EACH',
      },
      { kind: 'row', rule: 'unit = budget.unit', field: 'unit', error: 'UNIT_MISMATCH' },
    ],
  },
  roles: {
    roles: { member: { label: 'Member', signup: true } },
    permissions: {
      member: {
        member: { read: true, update: { when: 'id = me', fields: ['name'] } },
        budget: {
          read: true,
          create: true,
          update: { when: 'owner = me', fields: ['name', 'cap', 'unit'] },
        },
        entry: {
          read: true,
          create: 'budget.status = open',
          update: { when: 'author = me and budget.status = open', fields: ['amount'] },
          delete: 'author = me and budget.status = open',
        },
      },
    },
  },
  calls: { declared: {} },
  errors: {
    OVER_CAP: { message: 'The budget is used up.', severity: 'error' },
    ONE_ENTRY_EACH: { message: 'One entry each.', severity: 'error' },
    UNIT_MISMATCH: { message: 'Entries use the budget unit.', severity: 'error', field: 'entry.unit' },
  },
  constants: {},
});
