import type { AppSpec } from '../../spec/types.ts';

/** A small helpdesk used by the runtime's unit tests (the real one lives in examples/helpdesk). */
export const fixtureSpec: AppSpec = {
  purpose: { name: 'Mini desk', summary: 'A tiny support desk.', users: ['customers', 'agents'] },
  screens: {
    home: { route: '/', kind: 'dashboard', title: 'Home', entity: 'ticket', nav: ['customer'] },
    tickets: {
      route: '/tickets',
      kind: 'list',
      title: 'Tickets',
      entity: 'ticket',
      nav: ['customer'],
      columns: ['title', 'status', 'priority'],
      filters: ['status', 'priority'],
      sort: '-createdAt',
    },
    board: { route: '/board', kind: 'board', title: 'Board', entity: 'ticket', nav: ['agent'] },
    newTicket: {
      route: '/tickets/new',
      kind: 'form',
      title: 'New ticket',
      entity: 'ticket',
      fields: ['title', 'body', 'priority', 'budget'],
    },
    ticket: {
      route: '/tickets/:id',
      kind: 'detail',
      title: 'Ticket',
      entity: 'ticket',
      related: ['comment.ticket'],
    },
    editTicket: { route: '/tickets/:id/edit', kind: 'form', title: 'Edit ticket', entity: 'ticket' },
    admin: { route: '/admin', kind: 'admin', title: 'People', nav: ['admin'] },
  },
  entities: {
    profile: {
      label: 'Person',
      profile: true,
      title: 'name',
      fields: { name: { type: 'text', required: true } },
    },
    ticket: {
      label: 'Ticket',
      plural: 'Tickets',
      title: 'title',
      live: true,
      fields: {
        title: { type: 'text', required: true, label: 'Title', help: 'One line' },
        body: { type: 'longtext', label: 'Description' },
        priority: { type: 'enum', values: ['low', 'normal', 'high'], default: 'normal', required: true },
        status: { type: 'status', values: ['open', 'solved', 'closed'] },
        requester: { type: 'user', owner: true, label: 'Requester' },
        assignee: { type: 'user', label: 'Assignee' },
        budget: { type: 'money', label: 'Budget' },
        resolution: { type: 'longtext', label: 'Resolution' },
      },
    },
    comment: {
      label: 'Comment',
      fields: {
        ticket: { type: 'ref', ref: 'ticket', required: true },
        text: { type: 'longtext', required: true },
      },
    },
  },
  states: {
    ticket: {
      field: 'status',
      initial: 'open',
      states: {
        open: { label: 'Open' },
        solved: { label: 'Solved' },
        closed: { label: 'Closed', final: true },
      },
      transitions: {
        solve: {
          label: 'Solve',
          from: ['open'],
          to: 'solved',
          roles: ['agent'],
          guard: 'assignee = me',
          guardError: 'NOT_ASSIGNEE',
          input: ['resolution'],
        },
        close: {
          label: 'Close',
          from: ['solved'],
          to: 'closed',
          roles: ['customer'],
          guard: 'requester = me',
          confirm: true,
        },
        reopen: { label: 'Reopen', from: ['solved'], to: 'open', roles: ['customer'] },
      },
    },
  },
  validation: {
    ticket: [
      { kind: 'field', field: 'title', minLength: 'minTitle', maxLength: 80, error: 'TITLE_LENGTH' },
      { kind: 'field', field: 'budget', min: 0, max: 'maxBudget', error: 'BUDGET_RANGE' },
      { kind: 'row', rule: 'priority != high or body is not empty', field: 'body', error: 'HIGH_NEEDS_BODY' },
    ],
  },
  roles: {
    roles: {
      customer: { label: 'Customer', signup: true },
      agent: { label: 'Agent', inherits: ['customer'] },
      admin: { label: 'Admin', inherits: ['agent'] },
    },
    permissions: {
      customer: {
        ticket: {
          read: 'requester = me',
          create: true,
          update: { when: 'requester = me and status = open', fields: ['title', 'body'] },
        },
        comment: { read: true, create: true },
        profile: { read: true },
      },
      agent: {
        ticket: { read: true, update: { when: true, fields: ['priority', 'assignee'] }, delete: false },
      },
      admin: { ticket: { delete: true } },
    },
  },
  calls: { declared: {} },
  errors: {
    TITLE_LENGTH: {
      message: 'A title has {minTitle} to 80 characters.',
      severity: 'error',
      field: 'ticket.title',
    },
    BUDGET_RANGE: {
      message: 'Budget is between 0 and {maxBudget}.',
      severity: 'error',
      field: 'ticket.budget',
    },
    HIGH_NEEDS_BODY: {
      message: 'High priority tickets need a description.',
      severity: 'error',
      field: 'ticket.body',
    },
    NOT_ASSIGNEE: { message: 'Only the assignee can solve it.', severity: 'error' },
  },
  constants: {
    minTitle: { value: 5, label: 'Shortest title', unit: 'count' },
    maxBudget: { value: 1000, label: 'Largest budget', unit: 'EUR' },
  },
};
