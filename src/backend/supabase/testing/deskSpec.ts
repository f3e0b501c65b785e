import type { AppSpec } from '../../../spec/types.ts';

/** A small support desk exercising every port of the hosted adapter in its tests. */
export const deskSpec: AppSpec = {
  purpose: { name: 'Desk', summary: 'A small support desk.', users: ['customers', 'agents'] },
  screens: {
    tickets: { route: '/tickets', kind: 'list', title: 'Tickets', entity: 'ticket' },
    // A rule only the server can apply: lists name the screen, PostgREST filters on its function.
    bare: {
      route: '/tickets/bare',
      kind: 'list',
      title: 'Tickets without attachments',
      entity: 'ticket',
      where: 'count(ticketAttachment where ticket = this) = 0',
    },
  },
  entities: {
    profile: {
      label: 'Person',
      profile: true,
      fields: { name: { type: 'text', required: true }, email: { type: 'email', search: false } },
    },
    ticket: {
      label: 'Ticket',
      live: true,
      fields: {
        title: { type: 'text', required: true },
        body: { type: 'longtext' },
        internalNote: { type: 'longtext', search: false },
        status: { type: 'status' },
        priority: { type: 'enum', values: ['low', 'normal', 'high'] },
        tags: { type: 'tags', values: ['billing', 'bug'] },
        requester: { type: 'user', owner: true },
        assignedTo: { type: 'user' },
        dueAt: { type: 'datetime' },
        solvedAt: { type: 'datetime' },
        resolution: { type: 'longtext' },
      },
    },
    ticketAttachment: {
      label: 'Attachment',
      files: true,
      fields: { ticket: { type: 'ref', ref: 'ticket', required: true } },
    },
  },
  states: {
    ticket: {
      field: 'status',
      initial: 'open',
      states: { open: {}, solved: {}, closed: { final: true } },
      transitions: {
        solve: {
          from: ['open'],
          to: 'solved',
          roles: ['agent'],
          input: ['resolution'],
          set: { solvedAt: 'now' },
        },
        reopen: {
          from: ['solved'],
          to: 'open',
          roles: ['customer'],
          guard: 'solvedAt > now - reopenWindowDays days',
          guardError: 'TICKET_REOPEN_WINDOW',
        },
      },
    },
  },
  validation: {
    ticket: [{ kind: 'field', field: 'title', maxLength: 'titleMax', error: 'TITLE_TOO_LONG' }],
  },
  roles: {
    roles: {
      customer: { label: 'Customer', signup: true },
      agent: { label: 'Agent', inherits: ['customer'] },
      admin: { label: 'Admin', inherits: ['agent'] },
    },
    permissions: {
      customer: {
        ticket: { read: 'requester = me', create: true },
        ticketAttachment: { read: true, create: true },
      },
      agent: { ticket: { read: true, update: { when: true, fields: ['title', 'priority'] } } },
      admin: { profile: { read: true, update: { when: true, fields: ['name'] } }, ticket: { delete: true } },
    },
  },
  calls: {
    declared: {
      notifyRequester: {
        description: 'Mail the requester',
        method: 'POST',
        path: '/tickets/:ticketId',
        service: 'notify-email',
        payload: { ticketId: 'uuid', message: 'string', 'cc?': ['email'] },
        response: { sent: 'boolean' },
        roles: ['agent'],
        error: 'NOTIFY_FAILED',
      },
      exchangeRate: {
        description: 'Today’s rate',
        method: 'GET',
        path: '/rates/:currency',
        service: 'rates.example.com',
        payload: { currency: 'string', 'day?': 'string' },
        response: { rate: 'number' },
        roles: ['customer'],
        error: 'RATE_UNAVAILABLE',
      },
    },
  },
  errors: {
    TICKET_REOPEN_WINDOW: {
      message: 'Tickets can be reopened for {reopenWindowDays} days.',
      severity: 'error',
    },
    TITLE_TOO_LONG: { message: 'At most {titleMax} characters.', severity: 'error', field: 'ticket.title' },
    NOTIFY_FAILED: { message: 'The mail could not be sent.', severity: 'warning' },
    RATE_UNAVAILABLE: { message: 'No rate today.', severity: 'warning' },
  },
  constants: {
    reopenWindowDays: { value: 14, label: 'Reopen window', unit: 'days' },
    titleMax: { value: 120, label: 'Longest title', unit: 'count' },
  },
};
