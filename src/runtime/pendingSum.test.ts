import { describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { resolve } from '../model/resolve.ts';
import { pendingSum } from './pendingSum.ts';

describe('pendingSum', () => {
  it('finds the running sum a transition will store, while the row is before it', () => {
    expect(pendingSum(resolve(expenses), 'claim', 'total', { status: 'draft' })).toEqual({
      entity: 'line',
      field: 'amount',
      parentField: 'claim',
    });
    expect(pendingSum(resolve(expenses), 'claim', 'total', { status: 'returned' })?.entity).toBe('line');
  });

  it('leaves the stored value alone once the transition ran, and for other fields', () => {
    expect(pendingSum(resolve(expenses), 'claim', 'total', { status: 'submitted' })).toBeUndefined();
    expect(pendingSum(resolve(expenses), 'claim', 'title', { status: 'draft' })).toBeUndefined();
    expect(pendingSum(resolve(helpdesk), 'ticket', 'title', { status: 'new' })).toBeUndefined();
  });
});
