import type { AppSpec } from '../../../src/spec/types.ts';

/**
 * A small purchasing app for issue 32's constructs: an order starts approved when its total is
 * under its department's approval limit, otherwise pending (`initialWhen`); an order's total is in
 * euros and its gross amount, set when a manager approves it, is rounded to the cent; a time
 * entry's amount is computed from hours and rate in the entry's own currency (`computed`, rounded
 * to that currency's minor unit); clerks file orders,
 * auditors may read orders but not departments.
 */
export const orders: AppSpec = {
  purpose: { name: 'Orders', summary: 'Purchase orders by department.', users: ['clerks'] },
  screens: {
    orders: { route: '/orders', kind: 'list', title: 'Orders', entity: 'purchase' },
    newOrder: {
      route: '/orders/new',
      kind: 'form',
      title: 'New order',
      entity: 'purchase',
      fields: ['title', 'total', 'department'],
    },
  },
  entities: {
    person: {
      label: 'Person',
      profile: true,
      title: 'name',
      fields: { name: { type: 'text', required: true } },
    },
    department: {
      label: 'Department',
      title: 'name',
      fields: {
        name: { type: 'text', required: true, unique: 'ignoreCase' },
        approvalLimit: { type: 'money' },
      },
    },
    purchase: {
      label: 'Order',
      plural: 'Orders',
      title: 'title',
      fields: {
        title: { type: 'text', required: true },
        total: { type: 'money', required: true, currency: 'orderCurrency' },
        gross: { type: 'money', currency: 'EUR' },
        department: { type: 'ref', ref: 'department', onDelete: 'set null' },
        status: { type: 'status' },
        requester: { type: 'user', owner: true },
      },
    },
    timeEntry: {
      label: 'Time entry',
      plural: 'Time entries',
      fields: {
        purchase: { type: 'ref', ref: 'purchase', onDelete: 'cascade' },
        currency: { type: 'text', required: true },
        hours: { type: 'number', required: true },
        rate: { type: 'money', required: true, currencyField: 'currency' },
        amount: { type: 'money', currencyField: 'currency', computed: 'hours * rate' },
        billed: { type: 'integer', computed: 'hours * 10' },
      },
    },
  },
  states: {
    purchase: {
      field: 'status',
      initial: 'pending',
      initialWhen: [
        { state: 'rejected', when: 'total < 0' },
        { state: 'approved', when: 'total < department.approvalLimit' },
      ],
      states: { pending: {}, approved: {}, rejected: { final: true } },
      transitions: {
        approve: {
          from: ['pending'],
          to: 'approved',
          roles: ['manager'],
          set: { gross: 'total * vatFactor' },
        },
        reject: { from: ['pending'], to: 'rejected', roles: ['manager'] },
      },
    },
  },
  validation: {},
  roles: {
    roles: {
      clerk: { label: 'Clerk', signup: true },
      auditor: { label: 'Auditor' },
      manager: { label: 'Manager', inherits: ['clerk'] },
    },
    permissions: {
      clerk: {
        person: { read: true },
        department: { read: true },
        purchase: { read: true, create: true },
        timeEntry: { read: true, create: true, update: { when: true, fields: ['hours', 'rate'] } },
      },
      auditor: {
        person: { read: true },
        purchase: { read: true, create: true },
      },
      manager: {
        department: { read: true, create: true, update: { when: true, fields: ['approvalLimit'] } },
      },
    },
  },
  calls: { declared: {} },
  errors: {},
  constants: {
    orderCurrency: { value: 'EUR', label: 'Order currency' },
    vatFactor: { value: 1.19, label: 'Gross per net' },
  },
};
