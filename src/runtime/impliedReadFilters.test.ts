import { describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { resolve } from '../model/resolve.ts';
import { impliedReadFilters } from './impliedReadFilters.ts';

describe('impliedReadFilters', () => {
  it('sends requester = me for a customer, whose every ticket read rule requires it', () => {
    expect(impliedReadFilters(resolve(helpdesk), 'ticket', { id: 'u1', roles: ['customer'] })).toEqual([
      { field: 'requester', op: 'eq', value: 'u1' },
    ]);
  });

  it('sends nothing when a role held (directly or inherited) reads every row', () => {
    expect(impliedReadFilters(resolve(helpdesk), 'ticket', { id: 'u1', roles: ['agent'] })).toEqual([]);
    expect(impliedReadFilters(resolve(helpdesk), 'ticket', { id: 'u1', roles: ['admin'] })).toEqual([]);
  });

  it('sends nothing when the read rules do not share a `field = me` conjunct', () => {
    // A manager reads their own claims and their reports' claims: no single field is implied.
    expect(impliedReadFilters(resolve(expenses), 'claim', { id: 'u1', roles: ['manager'] })).toEqual([]);
    expect(impliedReadFilters(resolve(helpdesk), 'ticket', null)).toEqual([]);
  });
});
