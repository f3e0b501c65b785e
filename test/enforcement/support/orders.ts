import type { AppSpec } from '../../../src/spec/types.ts';

/**
 * A small purchasing app for issue 32's constructs: an order starts approved when its total is
 * under its department's approval limit, otherwise pending (`initialWhen`); clerks file orders,
 * auditors may read orders but not departments.
 */
export const orders: AppSpec = {
  purpose: { name: 'Orders', summary: 'Purchase orders by department.', users: ['clerks'] },
  screens: {
    orders: { route: '/orders', kind: 'list', title: 'Orders', entity: 'order' },
    newOrder: {
      route: '/orders/new',
      kind: 'form',
      title: 'New order',
      entity: 'order',
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
    order: {
      label: 'Order',
      title: 'title',
      fields: {
        title: { type: 'text', required: true },
        total: { type: 'money', required: true },
        department: { type: 'ref', ref: 'department', onDelete: 'set null' },
        status: { type: 'status' },
        requester: { type: 'user', owner: true },
      },
    },
  },
  states: {
    order: {
      field: 'status',
      initial: 'pending',
      initialWhen: [
        { state: 'rejected', when: 'total < 0' },
        { state: 'approved', when: 'total < department.approvalLimit' },
      ],
      states: { pending: {}, approved: {}, rejected: { final: true } },
      transitions: {
        approve: { from: ['pending'], to: 'approved', roles: ['manager'] },
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
        order: { read: true, create: true },
      },
      auditor: {
        person: { read: true },
        order: { read: true, create: true },
      },
      manager: {
        department: { read: true, create: true, update: { when: true, fields: ['approvalLimit'] } },
      },
    },
  },
  calls: { declared: {} },
  errors: {},
  constants: {},
};
