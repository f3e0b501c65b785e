import { describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { resolve } from '../model/resolve.ts';
import { acceptedDay, acceptedValue } from './acceptedValue.ts';

const employee = { id: 'u1', roles: ['employee'] };
const agent = { id: 'a1', roles: ['agent'] };
const now = new Date('2026-06-15T12:00:00Z');

describe('acceptedValue: what a form offers, from the rules on the field', () => {
  it('offers the days an expense line may have (not in the future, not too old)', () => {
    const day = (d: string) => acceptedDay(resolve(expenses), 'line', 'date', 'date', d, {}, employee, now);
    expect(day('2026-06-15')).toBe(true);
    expect(day('2026-06-16')).toBe(false);
    expect(day('2026-04-01')).toBe(true);
    expect(day('2026-01-01')).toBe(false);
  });

  it('offers due dates up to the resolution target of the priority, for a ticket filed earlier', () => {
    const ticket = { createdAt: '2026-06-15T08:00:00Z', priority: 'urgent', status: 'new' };
    const day = (d: string) =>
      acceptedDay(resolve(helpdesk), 'ticket', 'dueAt', 'datetime', d, ticket, agent, now);
    expect(day('2026-06-15')).toBe(true);
    expect(day('2026-07-30')).toBe(false);
  });

  it('judges a reference by the rule on it when the roles are known, and leaves it to the server otherwise', () => {
    const roles = (id: string) => (id === 'agent-1' ? ['agent'] : ['customer']);
    const data = { roles, get: () => null, rows: () => null, profile: () => null } as never;
    const ok = (id: string, withData: boolean) =>
      acceptedValue(
        resolve(helpdesk),
        'ticket',
        'assignee',
        id,
        { status: 'open' },
        agent,
        withData ? data : undefined,
      );
    expect(ok('agent-1', true)).toBe(true);
    expect(ok('customer-1', true)).toBe(false);
    expect(ok('customer-1', false)).toBe(true);
  });
});
