import { describe, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { resolve } from '../model/resolve.ts';
import { bulkTransitions, hasBulkTransition } from './bulkTransitions.ts';

const agent = { id: 'a1', roles: ['agent'] };
const customer = { id: 'c1', roles: ['customer'] };

describe('bulkTransitions', () => {
  const rows = [
    { id: 't1', status: 'new', requester: 'c1' },
    { id: 't2', status: 'new', requester: 'c2' },
    { id: 't3', status: 'solved', requester: 'c2', solvedAt: new Date().toISOString() },
  ];

  it('offers what applies to some chosen rows and asks for no input, with the rows it applies to', () => {
    const names = Object.fromEntries(
      bulkTransitions(resolve(helpdesk), agent, 'ticket', rows).map((b) => [b.name, b.ids]),
    );
    expect(names.take).toEqual(['t1', 't2']);
    expect(names.close).toEqual(['t3']);
    // Triage asks for an assignee, solve and discard for a resolution: one row at a time.
    expect(names.triage).toBeUndefined();
    expect(names.discard).toBeUndefined();
  });

  it('offers only what the user may do on each row', () => {
    const names = Object.fromEntries(
      bulkTransitions(resolve(helpdesk), customer, 'ticket', rows).map((b) => [b.name, b.ids]),
    );
    expect(names.take).toBeUndefined();
    // A customer withdraws only their own ticket.
    expect(names.withdraw ?? []).toEqual(['t1']);
  });
});

describe('hasBulkTransition', () => {
  it('is true exactly when bulkTransitions offers something', () => {
    const solved = { id: 't3', status: 'solved', requester: 'c2', solvedAt: new Date().toISOString() };
    const cases = [
      [agent, [{ id: 't1', status: 'new', requester: 'c1' }]],
      [agent, [solved]],
      [customer, [{ id: 't2', status: 'new', requester: 'c2' }]],
      [customer, [{ id: 't1', status: 'new', requester: 'c1' }]],
      [agent, []],
      [null, [{ id: 't1', status: 'new', requester: 'c1' }]],
    ] as const;
    for (const [user, rows] of cases)
      expect(hasBulkTransition(resolve(helpdesk), user, 'ticket', rows)).toBe(
        bulkTransitions(resolve(helpdesk), user, 'ticket', rows).length > 0,
      );
    // Someone else's new ticket: a customer may not withdraw it, so there is nothing to choose.
    expect(
      hasBulkTransition(resolve(helpdesk), customer, 'ticket', [
        { id: 't2', status: 'new', requester: 'c2' },
      ]),
    ).toBe(false);
    expect(hasBulkTransition(resolve(helpdesk), agent, 'ticket', [solved])).toBe(true);
  });

  it('is false for an entity without states', () => {
    expect(hasBulkTransition(resolve(helpdesk), agent, 'category', [{ id: 'x', name: 'Billing' }])).toBe(
      false,
    );
  });
});
