import { defineApp } from 'ninefold';

/**
 * Polls: a specification from outside the reference apps' domain, built by the browser test of
 * issue 16 (`test/e2e/anyspec.e2e.test.ts`). It uses what a first real specification needed:
 * enum values that are not names (`25 | 45` minutes, `in-review`, `on hold`) with labels, a list
 * filtered by a rule only the server can apply ("awaiting my vote"), and a transition whose input
 * a row rule requires once in the target state.
 */
export default defineApp({
  purpose: {
    name: 'Polls',
    summary:
      'Members propose meeting slots as polls and vote on them. A poll asks how long the meeting ' +
      'should be and where it stands in review; whoever closes a poll records its outcome.',
    users: ['members who propose and vote on polls'],
  },
  screens: {
    polls: {
      route: '/polls',
      kind: 'list',
      title: 'Polls',
      entity: 'poll',
      nav: ['member'],
      columns: ['title', 'minutes', 'stage', 'status'],
      filters: ['minutes', 'stage'],
      sort: 'title',
    },
    awaitingMyVote: {
      route: '/polls/awaiting',
      kind: 'list',
      title: 'Awaiting my vote',
      entity: 'poll',
      nav: ['member'],
      columns: ['title', 'minutes', 'stage'],
      sort: 'title',
      where: 'status = open and count(vote where poll = this and member = me) = 0',
    },
    poll: {
      route: '/polls/:pollId',
      kind: 'detail',
      title: 'Poll',
      entity: 'poll',
      related: ['vote.poll'],
    },
    newPoll: {
      route: '/polls/new',
      kind: 'form',
      title: 'New poll',
      entity: 'poll',
      nav: ['member'],
      fields: ['title', 'minutes', 'stage', 'rooms'],
    },
    votes: { route: '/votes', kind: 'list', title: 'My votes', entity: 'vote', nav: ['member'] },
  },
  entities: {
    member: {
      label: 'Member',
      profile: true,
      title: 'name',
      fields: { name: { type: 'text', required: true } },
    },
    poll: {
      label: 'Poll',
      title: 'title',
      fields: {
        title: { type: 'text', required: true, list: true },
        minutes: {
          type: 'enum',
          label: 'Length',
          values: [25, { value: 45, label: '45 minutes' }],
          default: 25,
          required: true,
        },
        stage: {
          type: 'enum',
          values: ['in-review', { value: 'on hold', label: 'Waiting on the board', color: 'orange' }],
        },
        // Listed tags with a label: picked and shown by the label, stored as the value.
        rooms: { type: 'tags', values: [{ value: 'big-room', label: 'The big room' }, 'annex'] },
        status: { type: 'status', required: true },
        outcome: { type: 'longtext' },
        owner: { type: 'user', owner: true },
      },
    },
    vote: {
      label: 'Vote',
      fields: {
        poll: { type: 'ref', ref: 'poll', required: true, onDelete: 'cascade' },
        member: { type: 'user', owner: true },
      },
    },
  },
  states: {
    poll: {
      field: 'status',
      initial: 'open',
      states: { open: {}, closed: { final: true } },
      transitions: {
        close: { label: 'Close poll', from: ['open'], to: 'closed', roles: ['member'], input: ['outcome'] },
      },
    },
  },
  validation: {
    poll: [{ kind: 'row', rule: 'outcome is not empty', when: 'status = closed', error: 'OUTCOME_REQUIRED' }],
  },
  roles: {
    roles: { member: { label: 'Member', signup: true } },
    permissions: {
      member: {
        member: { read: true },
        poll: { read: true, create: true },
        vote: { read: 'member = me', create: true },
      },
    },
  },
  calls: { declared: {} },
  errors: {
    OUTCOME_REQUIRED: { message: 'Say what the poll decided before closing it.', severity: 'error' },
  },
  constants: {},
});
