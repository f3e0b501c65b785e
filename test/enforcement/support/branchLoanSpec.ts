import type { AppSpec } from '../../../src/spec/types.ts';
import { loanSpec } from './loanSpec.ts';

/**
 * The lending library of `loanSpec` with branches in several time zones: a loan becomes overdue
 * at the start of the day after its due date in its branch's own zone (`branch.zone`), not the
 * app's (Europe/Berlin), and a loan may only be lent in the branch's opening hours.
 */
export const branchLoanSpec: AppSpec = {
  ...loanSpec,
  entities: {
    ...loanSpec.entities,
    branch: {
      label: 'Branch',
      title: 'name',
      fields: {
        name: { type: 'text', required: true },
        zone: {
          type: 'enum',
          label: 'Time zone',
          values: ['Europe/Berlin', 'Asia/Tokyo', 'America/New_York', 'Australia/Lord_Howe'],
          required: true,
        },
      },
    },
    loan: {
      ...loanSpec.entities.loan,
      fields: {
        ...loanSpec.entities.loan?.fields,
        branch: { type: 'ref', ref: 'branch', required: true, label: 'Branch' },
      },
    } as NonNullable<AppSpec['entities']['loan']>,
  },
  states: {
    loan: {
      ...(loanSpec.states.loan as NonNullable<AppSpec['states']['loan']>),
      transitions: {
        ...loanSpec.states.loan?.transitions,
        overdue: {
          from: ['on_loan'],
          to: 'overdue',
          roles: [],
          after: 'startOfDay(date(dueDate + days(1), "UTC"), branch.zone)',
          set: { overdueSince: 'now' },
        },
      },
    },
  },
  roles: {
    ...loanSpec.roles,
    permissions: {
      member: {
        loan: { read: 'borrower = me', create: true },
        member: { read: true },
        branch: { read: true },
      },
      librarian: { loan: { read: true } },
    },
  },
};
