import type { AppSpec } from '../spec/types.ts';

/**
 * A tiny specification for the rule-language tests: people with managers, tickets with a
 * status, proposals with reviews, expense lines; roles with inheritance; a few constants.
 */
export const ruleSpec: AppSpec = {
  purpose: { name: 'Rules fixture', summary: 'Fixture for rule tests.', users: ['testers'] },
  screens: {},
  entities: {
    person: {
      label: 'Person',
      plural: 'People',
      profile: true,
      fields: {
        name: { type: 'text', required: true, label: 'Name' },
        manager: { type: 'user', label: 'Manager' },
        department: { type: 'text' },
        joinedOn: { type: 'date' },
      },
    },
    ticket: {
      label: 'Ticket',
      fields: {
        title: { type: 'text', required: true },
        status: { type: 'status' },
        priority: { type: 'enum', values: ['low', 'normal', 'high'] },
        requester: { type: 'user', owner: true, label: 'Requester' },
        assignee: { type: 'user' },
        tags: { type: 'tags', values: ['urgent', 'billing', 'bug'] },
        closedAt: { type: 'datetime' },
        dueDate: { type: 'date', label: 'Due date' },
        amount: { type: 'money' },
        hours: { type: 'number' },
        receipt: { type: 'file' },
        paid: { type: 'boolean' },
        product: { type: 'ref', ref: 'product' },
      },
    },
    product: {
      label: 'Product',
      fields: { name: { type: 'text' }, price: { type: 'money' }, owner: { type: 'user' } },
    },
    proposal: {
      label: 'Proposal',
      fields: {
        title: { type: 'text' },
        submitter: { type: 'user', owner: true },
        budget: { type: 'money' },
      },
    },
    review: {
      label: 'Review',
      fields: {
        proposal: { type: 'ref', ref: 'proposal' },
        reviewer: { type: 'user' },
        score: { type: 'integer' },
        approved: { type: 'boolean' },
      },
    },
  },
  states: {
    ticket: {
      field: 'status',
      initial: 'open',
      states: { open: {}, pending: {}, solved: {}, closed: { final: true } },
      transitions: {
        solve: { from: ['open', 'pending'], to: 'solved', roles: ['agent'] },
      },
    },
  },
  validation: {},
  roles: {
    roles: {
      customer: { label: 'Customer', signup: true },
      agent: { label: 'Agent', inherits: ['customer'] },
      admin: { label: 'Administrator', inherits: ['agent'] },
      auditor: { label: 'Auditor' },
    },
    permissions: {},
  },
  calls: { declared: {} },
  errors: {},
  constants: {
    reopenWindowDays: { value: 7, label: 'Reopen window (days)', unit: 'days' },
    minReviews: { value: 2, label: 'Minimum reviews', unit: 'count' },
    receiptThreshold: { value: 50, label: 'Receipt threshold', unit: 'EUR' },
    supportEmail: { value: 'help@example.com', label: 'Support email' },
    strict: { value: true, label: 'Strict mode' },
    currencies: { value: ['EUR', 'USD'], label: 'Currencies' },
  },
};
