import type { AppSpec } from '../../../src/spec/types.ts';

/**
 * A lending library whose loans become overdue by themselves at the start of the day after their
 * due date, in the library's time zone (Europe/Berlin): the transition `overdue` happens by time
 * (`after`), as the system, with no role to run it. Members may return a loan early or late.
 */
export const loanSpec: AppSpec = {
  purpose: { name: 'Lending library', summary: 'Books lent to members.', users: ['members', 'librarians'] },
  screens: {
    loans: { route: '/loans', kind: 'list', title: 'Loans', entity: 'loan', nav: ['member', 'librarian'] },
    loan: { route: '/loans/:id', kind: 'detail', title: 'Loan', entity: 'loan' },
    newLoan: {
      route: '/loans/new',
      kind: 'form',
      title: 'New loan',
      entity: 'loan',
      fields: ['title', 'dueDate'],
    },
    members: { route: '/members', kind: 'list', title: 'Members', entity: 'member', nav: ['librarian'] },
  },
  entities: {
    member: {
      label: 'Member',
      profile: true,
      title: 'name',
      fields: { name: { type: 'text', required: true } },
    },
    loan: {
      label: 'Loan',
      title: 'title',
      fields: {
        title: { type: 'text', required: true },
        dueDate: { type: 'date', required: true, label: 'Due date' },
        status: { type: 'status', required: true },
        borrower: { type: 'user', owner: true },
        overdueSince: { type: 'datetime' },
      },
    },
  },
  states: {
    loan: {
      field: 'status',
      initial: 'on_loan',
      states: { on_loan: { label: 'On loan' }, overdue: {}, returned: { final: true } },
      transitions: {
        overdue: {
          from: ['on_loan'],
          to: 'overdue',
          roles: [],
          after: 'startOfDay(dueDate + days(1))',
          // `now` is the job's clock: the moment the loan was seen overdue.
          set: { overdueSince: 'now' },
        },
        give_back: { label: 'Return', from: ['on_loan', 'overdue'], to: 'returned', roles: ['member'] },
      },
    },
  },
  validation: {},
  roles: {
    roles: {
      member: { label: 'Member', signup: true },
      librarian: { label: 'Librarian', inherits: ['member'] },
    },
    permissions: {
      member: { loan: { read: 'borrower = me', create: true }, member: { read: true } },
      librarian: { loan: { read: true } },
    },
  },
  calls: { declared: {} },
  errors: {},
  constants: { libraryZone: { type: 'timezone', value: 'Europe/Berlin', label: 'Time zone' } },
};
