import { describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { miniSpec } from '../check/fixtures/miniSpec.ts';
import { resolve } from '../model/resolve.ts';
import { availableTransitions, humanize } from './availableTransitions.ts';
import { fixtureSpec as spec } from './testing/fixtureSpec.ts';

const alice = { id: 'alice', roles: ['customer'] };
const agent = { id: 'agent1', roles: ['agent'] };

describe('availableTransitions', () => {
  it('offers only transitions from the current state for the user roles', () => {
    const open = { status: 'open', requester: 'alice', assignee: 'agent1' };
    expect(availableTransitions(resolve(spec), alice, 'ticket', open)).toEqual([]);
    const t = availableTransitions(resolve(spec), agent, 'ticket', open);
    expect(t.map((x) => [x.name, x.allowed])).toEqual([['solve', true]]);
    expect(t[0]).toMatchObject({ to: 'solved', toLabel: 'Solved', input: ['resolution'] });
  });
  it('disables with the guard message when the guard fails', () => {
    const t = availableTransitions(resolve(spec), agent, 'ticket', { status: 'open', assignee: 'other' });
    expect(t[0]).toMatchObject({ allowed: false, reason: 'Only the assignee can solve it.' });
  });
  it('uses a generic reason without a guard error, and carries confirm', () => {
    const solved = { status: 'solved', requester: 'bob' };
    const t = availableTransitions(resolve(spec), alice, 'ticket', solved);
    expect(t.map((x) => [x.name, x.allowed, x.confirm])).toEqual([
      ['close', false, true],
      ['reopen', true, false],
    ]);
    expect(t[0]?.reason).toBe('Not possible right now.');
  });
  it('inherits transitions through roles', () => {
    expect(
      availableTransitions(resolve(spec), agent, 'ticket', { status: 'solved', requester: 'agent1' }).map(
        (x) => x.name,
      ),
    ).toEqual(['close', 'reopen']);
  });
  it('humanizes names', () => {
    expect(humanize('waitingOnCustomer')).toBe('Waiting on customer');
    expect(humanize('in_progress')).toBe('In progress');
    expect(humanize('EUR')).toBe('EUR');
  });
});

describe('availableTransitions: the row as the transition leaves it', () => {
  const fin = { id: 'fin', roles: ['finance'] };
  it('disables paying your own claim with the row rule message (paidBy != submitter)', () => {
    const own = { status: 'approved', submitter: 'fin', total: 10, currency: 'EUR', approvedBy: 'boss' };
    const pay = availableTransitions(resolve(expenses), fin, 'claim', own).find((t) => t.name === 'pay');
    expect(pay).toMatchObject({ allowed: false, reason: 'Nobody may approve or pay their own claim.' });
    const other = availableTransitions(resolve(expenses), fin, 'claim', { ...own, submitter: 'emp' });
    expect(other.find((t) => t.name === 'pay')?.allowed).toBe(true);
  });
  it('leaves rules on fields set by expressions to the server', () => {
    const agent = { id: 'a1', roles: ['agent'] };
    const solved = { status: 'solved', requester: 'c1', solvedAt: new Date().toISOString(), reopenCount: 0 };
    const t = availableTransitions(resolve(helpdesk), agent, 'ticket', solved);
    expect(t.map((x) => [x.name, x.allowed])).toEqual([
      ['reopen', true],
      ['close', true],
    ]);
    const open = { status: 'open', requester: 'c1', assignee: 'a1', reopenCount: 0, priority: 'normal' };
    expect(availableTransitions(resolve(helpdesk), agent, 'ticket', open).every((x) => x.allowed)).toBe(true);
  });
});

describe('availableTransitions with transition input', () => {
  // A transition into `solved` asks for the resolution; a row rule requires it once solved.
  const spec = miniSpec();
  spec.entities.ticket!.fields.resolution = { type: 'longtext' };
  const solve = spec.states.ticket!.transitions.solve!;
  solve.input = ['resolution'];
  delete solve.guard;
  delete solve.guardError;
  spec.errors.RESOLUTION_REQUIRED = { message: 'Say how it was solved.', severity: 'error' };
  spec.validation.ticket = [
    { kind: 'row', rule: 'resolution is not empty', when: 'status = solved', error: 'RESOLUTION_REQUIRED' },
  ];
  const agent = { id: 'a1', roles: ['agent'] };
  const option = (input?: Record<string, unknown>) =>
    availableTransitions(resolve(spec), agent, 'ticket', { status: 'open', title: 'T' }, input).find(
      (o) => o.name === 'solve',
    );

  it('does not refuse before the input exists, and checks the rule with the input given', () => {
    expect(option()?.allowed).toBe(true);
    expect(option({ resolution: '' })).toMatchObject({ allowed: false, reason: 'Say how it was solved.' });
    expect(option({ resolution: 'Rebooted' })?.allowed).toBe(true);
  });
});

describe('availableTransitions: a rule checked on change (DUE_IN_PAST) binds only transitions that write its field', () => {
  it('keeps an overdue ticket’s transitions open', () => {
    const overdue = {
      id: 't1',
      status: 'open',
      priority: 'normal',
      requester: 'alice',
      assignee: 'agent1',
      // Filed 50 hours ago, due an hour ago: within the 72-hour target (DUE_AFTER_TARGET holds).
      createdAt: new Date(Date.now() - 50 * 3_600_000).toISOString(),
      dueAt: new Date(Date.now() - 3_600_000).toISOString(),
    };
    const t = availableTransitions(resolve(helpdesk), agent, 'ticket', overdue);
    expect(t.map((x) => [x.name, x.allowed, x.reason])).toEqual([
      ['ask_customer', true, undefined],
      ['solve', true, undefined],
    ]);
  });
});
