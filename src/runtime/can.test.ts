import { describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { resolve } from '../model/resolve.ts';
import { can, updatableFields } from './can.ts';
import { offersFlag } from './offersFlag.ts';
import { fixtureSpec as spec } from './testing/fixtureSpec.ts';

const alice = { id: 'alice', roles: ['customer'] };
const agent = { id: 'agent1', roles: ['agent'] };
const admin = { id: 'root', roles: ['admin'] };
const mine = { id: 't1', requester: 'alice', status: 'open', title: 'x' };
const theirs = { ...mine, requester: 'bob' };

describe('can', () => {
  it('applies row rules to the row', () => {
    expect(can(resolve(spec), alice, 'ticket', 'read', mine).ok).toBe(true);
    expect(can(resolve(spec), alice, 'ticket', 'read', theirs)).toMatchObject({ ok: false, why: 'rule' });
  });
  it('gives the benefit of the doubt without a row', () => {
    expect(can(resolve(spec), alice, 'ticket', 'read').ok).toBe(true);
  });
  it('uses inherited roles', () => {
    expect(can(resolve(spec), agent, 'ticket', 'read', theirs).ok).toBe(true);
    expect(can(resolve(spec), agent, 'comment', 'create').ok).toBe(true);
    expect(can(resolve(spec), admin, 'ticket', 'delete', theirs).ok).toBe(true);
  });
  it('refuses when no role grants the action', () => {
    expect(can(resolve(spec), alice, 'ticket', 'delete', mine)).toMatchObject({ ok: false, why: 'role' });
    expect(can(resolve(spec), agent, 'ticket', 'delete', mine)).toMatchObject({ ok: false, why: 'role' });
    expect(can(resolve(spec), null, 'ticket', 'read').ok).toBe(false);
  });
  it('update follows the when rule', () => {
    expect(can(resolve(spec), alice, 'ticket', 'update', mine).ok).toBe(true);
    expect(can(resolve(spec), alice, 'ticket', 'update', { ...mine, status: 'solved' }).ok).toBe(false);
  });
  it('lists updatable fields per role', () => {
    expect([...updatableFields(resolve(spec), alice, 'ticket', mine)].sort()).toEqual(['body', 'title']);
    expect([...updatableFields(resolve(spec), alice, 'ticket', theirs)]).toEqual([]);
    expect([...updatableFields(resolve(spec), agent, 'ticket', theirs)].sort()).toEqual([
      'assignee',
      'priority',
    ]);
  });
});

describe('can: creating a child row under a parent the page has', () => {
  const only = (parent: Record<string, unknown>) => ({
    get: (_e: string, id: string) => (id === parent.id ? parent : null),
    rows: () => [],
    profile: () => null,
  });
  it('reads the parent for `parent.field` rules', () => {
    const claim = { id: 'c1', submitter: 'emp', status: 'draft' };
    const emp = { id: 'emp', roles: ['employee'] };
    const boss = { id: 'boss', roles: ['manager'] };
    expect(can(resolve(expenses), emp, 'line', 'create', { claim: 'c1' }, only(claim)).ok).toBe(true);
    expect(can(resolve(expenses), boss, 'line', 'create', { claim: 'c1' }, only(claim)).ok).toBe(false);
    expect(
      can(resolve(expenses), emp, 'line', 'create', { claim: 'c1' }, only({ ...claim, status: 'paid' })).ok,
    ).toBe(false);
  });
  it('gives a draft without a field the rule reads the benefit of the doubt', () => {
    const ticket = { id: 't1', requester: 'cus' };
    const cus = { id: 'cus', roles: ['customer'] };
    expect(can(resolve(helpdesk), cus, 'attachment', 'create', { ticket: 't1' }, only(ticket)).ok).toBe(true);
    expect(
      can(resolve(helpdesk), cus, 'attachment', 'create', { ticket: 't1', internal: true }, only(ticket)).ok,
    ).toBe(false);
  });
});

describe('flags offered on a quick add (DetailScreen)', () => {
  // The spec decides who may set `internal` (customers create `internal = false` comments only);
  // there is no role heuristic in the UI any more.
  const draft = { ticket: 't1', body: 'x' };
  it('refuses a customer an internal comment and allows an agent one', () => {
    expect(offersFlag(resolve(helpdesk), alice, 'comment', 'internal')).toBe(false);
    expect(offersFlag(resolve(helpdesk), agent, 'comment', 'internal')).toBe(true);
    expect(offersFlag(resolve(helpdesk), admin, 'comment', 'internal')).toBe(true);
    expect(can(resolve(helpdesk), agent, 'comment', 'create', { ...draft, internal: true }).ok).toBe(true);
  });
});
