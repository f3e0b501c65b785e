import { describe, expect, it } from 'vitest';
import { resolve } from '../model/resolve.ts';
import { fixtureSpec as spec } from './testing/fixtureSpec.ts';
import { modelWithRules } from './testing/modelWithRules.ts';
import { whereFilters } from './whereFilters.ts';

const user = { id: 'u1', roles: ['agent'] };
const now = new Date('2026-01-10T12:00:00Z');

describe('whereFilters', () => {
  it('turns simple conjuncts into filters', () => {
    expect(
      whereFilters(
        modelWithRules(spec, 'ticket', 'assignee = me and status in (open, solved)'),
        'ticket',
        'assignee = me and status in (open, solved)',
        user,
        now,
      ),
    ).toEqual({
      filters: [
        { field: 'assignee', op: 'eq', value: 'u1' },
        { field: 'status', op: 'in', value: ['open', 'solved'] },
      ],
      residual: [],
    });
  });
  it('handles emptiness, flipped comparisons and constants', () => {
    const r = whereFilters(
      modelWithRules(spec, 'ticket', 'body is empty and maxBudget > budget and status != closed'),
      'ticket',
      'body is empty and maxBudget > budget and status != closed',
      user,
      now,
    );
    expect(r.filters).toEqual([
      { field: 'body', op: 'isNull' },
      { field: 'budget', op: 'lt', value: 1000 },
      { field: 'status', op: 'neq', value: 'closed' },
    ]);
  });
  it('evaluates time arithmetic into ISO timestamps', () => {
    const r = whereFilters(
      modelWithRules(spec, 'ticket', 'createdAt < now - days(2)'),
      'ticket',
      'createdAt < now - days(2)',
      user,
      now,
    );
    expect(r.filters).toEqual([{ field: 'createdAt', op: 'lt', value: '2026-01-08T12:00:00.000Z' }]);
  });
  it('leaves what it cannot express as residual', () => {
    const r = whereFilters(
      modelWithRules(spec, 'ticket', 'status = open and (assignee = me or priority = high)'),
      'ticket',
      'status = open and (assignee = me or priority = high)',
      user,
      now,
    );
    expect(r.filters).toEqual([{ field: 'status', op: 'eq', value: 'open' }]);
    expect(r.residual).toHaveLength(1);
  });
  it('sends the loosest bound every branch of an `or` sets, and keeps the `or` as residual', () => {
    const rule =
      'status = open and ((priority = high and createdAt < now - hours(4)) or (priority = low and createdAt <= now - hours(24)) or (createdAt < now - hours(1) and budget > 5))';
    const r = whereFilters(modelWithRules(spec, 'ticket', rule), 'ticket', rule, user, now);
    expect(r.filters).toEqual([
      { field: 'status', op: 'eq', value: 'open' },
      { field: 'createdAt', op: 'lt', value: '2026-01-10T11:00:00.000Z' },
    ]);
    expect(r.residual).toHaveLength(1);
  });
  it('sends no bound when some branch of an `or` leaves the field free', () => {
    const rule = 'createdAt < now - hours(4) or priority = high';
    expect(whereFilters(modelWithRules(spec, 'ticket', rule), 'ticket', rule, user, now).filters).toEqual([]);
  });
  it('no rule, no filters', () => {
    expect(whereFilters(resolve(spec), 'ticket', undefined, user)).toEqual({ filters: [], residual: [] });
  });
});
