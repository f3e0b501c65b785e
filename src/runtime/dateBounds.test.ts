import { describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { resolve } from '../model/resolve.ts';
import { dateBounds } from './dateBounds.ts';

const now = new Date('2026-06-15T12:00:00Z');
const agent = { id: 'a1', roles: ['agent'] };
const employee = { id: 'u1', roles: ['employee'] };

describe('dateBounds: a picker’s first and last day, read from the rules on the field', () => {
  it('takes a ticket’s earliest due date from DUE_IN_PAST (dueAt >= now)', () => {
    expect(dateBounds(resolve(helpdesk), 'ticket', 'dueAt', { priority: 'normal' }, agent, now)).toEqual({
      min: now.getTime(),
    });
  });

  it('takes both ends of an expense line’s date from its two rules (not in the future, not too old)', () => {
    const b = dateBounds(resolve(expenses), 'line', 'date', {}, employee, now);
    expect(new Date(b.max ?? 0).toISOString()).toBe('2026-06-15T00:00:00.000Z');
    expect(new Date(b.min ?? 0).toISOString()).toBe('2026-03-17T00:00:00.000Z');
  });

  it('reads nothing from rules that compare the field with the row (no bound to derive)', () => {
    // DUE_AFTER_TARGET reads createdAt: the row's own value, judged day by day by acceptedDay.
    const spec = {
      ...helpdesk,
      validation: { ticket: (helpdesk.validation.ticket ?? []).filter((r) => r.error !== 'DUE_IN_PAST') },
    };
    expect(dateBounds(resolve(spec), 'ticket', 'dueAt', { priority: 'urgent' }, agent, now)).toEqual({});
  });

  it('finds the bound whichever side the field is on, and leaves out a rule whose `when` does not hold', () => {
    const rule = (text: string, when?: string) => ({
      ...helpdesk,
      validation: {
        ticket: [
          {
            kind: 'row' as const,
            rule: text,
            ...(when ? { when } : {}),
            field: 'dueAt',
            error: 'DUE_IN_PAST',
          },
        ],
      },
    });
    expect(dateBounds(resolve(rule('now + days(1) < dueAt')), 'ticket', 'dueAt', {}, agent, now)).toEqual({
      min: now.getTime() + 86_400_000,
    });
    expect(
      dateBounds(
        resolve(rule('dueAt >= now', 'priority = urgent')),
        'ticket',
        'dueAt',
        { priority: 'low' },
        agent,
        now,
      ),
    ).toEqual({});
  });
});
