import { describe, expect, it } from 'vitest';
import { roleClosureOf } from '../model/roleClosure.ts';
import type { Typed } from './ast.ts';
import { checkRule, type RuleScope } from './check.ts';
import {
  type DataContext,
  type EvalContext,
  evaluateRule,
  exactArithmetic,
  exactDivide,
  holds,
  lowerLikePostgres,
} from './evaluate.ts';
import { ruleSpec } from './fixtures/ruleSpec.ts';
import { ruleReferences } from './references.ts';

function typed(text: string, scope: RuleScope = { entity: 'ticket' }): Typed {
  const r = checkRule(ruleSpec, text, scope);
  if (!r.ok) throw new Error(`${text}: ${r.errors.map((e) => e.message).join('; ')}`);
  return r.typed;
}

const now = new Date('2024-03-10T12:00:00Z');
const alice = { id: 'u-alice', roles: ['agent'] };

function ctx(row: Record<string, unknown> | null, extra: Partial<EvalContext> = {}): EvalContext {
  return { row, user: alice, now, roleClosure: roleClosureOf(ruleSpec), ...extra };
}

const value = (
  text: string,
  row: Record<string, unknown> | null,
  extra: Partial<EvalContext> = {},
  scope?: RuleScope,
) => evaluateRule(typed(text, scope ?? { entity: 'ticket', expect: 'value' }), ctx(row, extra));

describe('three-valued logic', () => {
  it('makes comparisons with empty values unknown', () => {
    expect(value('amount > 5', { amount: null })).toBe(null);
    expect(value('amount != 5', {})).toBe(null);
    expect(holds(typed('amount != 5'), ctx({ amount: null }))).toBe(false);
    expect(holds(typed('not amount > 5'), ctx({ amount: null }))).toBe(false);
  });
  it('follows Kleene tables for and/or/not', () => {
    const row = { amount: null, paid: true };
    expect(value('amount > 5 and paid', row)).toBe(null);
    expect(value('amount > 5 and not paid', row)).toBe(false);
    expect(value('amount > 5 or paid', row)).toBe(true);
    expect(value('amount > 5 or not paid', row)).toBe(null);
    expect(value('not (amount > 5)', row)).toBe(null);
    expect(value('paid and amount > 5', row)).toBe(null);
    expect(value('not paid or amount > 5', row)).toBe(null);
  });
  it('follows SQL for in / not in with empty values', () => {
    expect(value('priority in (low, high)', { priority: null })).toBe(null);
    expect(value('priority not in (low, high)', { priority: null })).toBe(null);
    expect(value('priority in (low, high)', { priority: 'high' })).toBe(true);
    expect(value('priority not in (low, high)', { priority: 'normal' })).toBe(true);
    // A list item that is empty (another field) makes a miss unknown, not false.
    expect(value('status in (open, title)', { status: 'closed', title: null })).toBe(null);
    expect(value('status in (open, title)', { status: 'open', title: null })).toBe(true);
    expect(value('status not in (open, title)', { status: 'closed', title: null })).toBe(null);
  });
  it('never makes is empty or roles unknown', () => {
    expect(value('receipt is empty', { receipt: null })).toBe(true);
    expect(value('receipt is empty', {})).toBe(true);
    expect(value('receipt is empty', { receipt: '' })).toBe(true);
    expect(value('receipt is not empty', { receipt: 'r/1.pdf' })).toBe(true);
    expect(value('tags is empty', { tags: [] })).toBe(true);
    expect(value('assignee is agent', { assignee: null })).toBe(false);
    expect(value('assignee is not agent', { assignee: null })).toBe(true);
  });
  it('evaluates contains as right = any(left)', () => {
    expect(value('tags contains urgent', { tags: ['bug', 'urgent'] })).toBe(true);
    expect(value('tags contains urgent', { tags: ['bug'] })).toBe(false);
    expect(value('tags contains urgent', { tags: ['bug', null] })).toBe(null);
    expect(value('tags contains urgent', { tags: [] })).toBe(false);
    expect(value('tags contains urgent', { tags: null })).toBe(null);
    expect(value('tags contains title', { tags: ['a'], title: null })).toBe(null);
    expect(value('tags contains title', { tags: [], title: null })).toBe(false);
  });
});

describe('values', () => {
  it('treats numbers (also numeric strings) with numeric division; division by zero is empty', () => {
    expect(value('amount / 4', { amount: '10.00' })).toBe(2.5);
    expect(value('amount / 0', { amount: 3 })).toBe(null);
    expect(value('-amount * 2', { amount: 3 })).toBe(-6);
    expect(value('amount - hours', { amount: 3, hours: null })).toBe(null);
  });
  it('counts code points and lower-cases text', () => {
    expect(value('length(title)', { title: 'né😀' })).toBe(3);
    expect(value('lower(title)', { title: 'ÀBC' })).toBe('àbc');
    expect(value('length(title)', { title: null })).toBe(null);
  });
  it('normalises datetimes from strings and Dates, dates to UTC midnight', () => {
    expect(value('closedAt > now - days(reopenWindowDays)', { closedAt: '2024-03-05T00:00:00Z' })).toBe(true);
    expect(
      value('closedAt > now - days(reopenWindowDays)', { closedAt: new Date('2024-03-01T00:00:00Z') }),
    ).toBe(false);
    expect(value('closedAt > now - hours(12)', { closedAt: '2024-03-10T00:00:00.000Z' })).toBe(false);
    expect(value('closedAt >= now - hours(12)', { closedAt: '2024-03-10T00:00:00+00:00' })).toBe(true);
    expect(value('today', {})).toBe(Date.UTC(2024, 2, 10));
    expect(value('dueDate = today', { dueDate: '2024-03-10' })).toBe(true);
    expect(value('dueDate < now', { dueDate: '2024-03-10' })).toBe(true);
    expect(value('today - dueDate', { dueDate: '2024-03-01' })).toBe(9);
    expect(value('closedAt - now', { closedAt: '2024-03-10T13:00:00Z' })).toBe(3_600_000);
    expect(value('closedAt > now', { closedAt: 'not a date' })).toBe(null);
    expect(value('minutes(2)', {})).toBe(120_000);
  });
  it('reads constants, me and now', () => {
    expect(value('reopenWindowDays', {})).toBe(7);
    expect(value('me', {})).toBe('u-alice');
    expect(value('me', {}, { user: null })).toBe(null);
    expect(value('requester = me', { requester: 'u-alice' })).toBe(true);
    expect(value('requester = me', { requester: 'u-bob' })).toBe(false);
    expect(value('requester = me', { requester: 'u-alice' }, { user: null })).toBe(null);
  });
});

describe('roles', () => {
  it('grants a role to users holding it or a role inheriting it, transitively', () => {
    const rule = typed('me is customer', { entity: null });
    expect(holds(rule, ctx(null, { user: { id: 'u', roles: ['admin'] } }))).toBe(true);
    expect(holds(rule, ctx(null, { user: { id: 'u', roles: ['customer'] } }))).toBe(true);
    expect(holds(rule, ctx(null, { user: { id: 'u', roles: ['auditor'] } }))).toBe(false);
    expect(
      holds(typed('me is admin', { entity: null }), ctx(null, { user: { id: 'u', roles: ['agent'] } })),
    ).toBe(false);
    expect(holds(rule, ctx(null, { user: null }))).toBe(false);
    expect(holds(typed('me is not admin', { entity: null }), ctx(null, { user: null }))).toBe(true);
  });
  it('looks up other users through data.roles; unknown users hold no roles', () => {
    const data: DataContext = {
      rows: () => [],
      get: () => null,
      profile: () => null,
      roles: (id) => (id === 'u-bob' ? ['admin'] : null),
    };
    const rule = typed('assignee is agent');
    expect(holds(rule, ctx({ assignee: 'u-bob' }, { data }))).toBe(true);
    expect(holds(rule, ctx({ assignee: 'u-carol' }, { data }))).toBe(false);
    expect(holds(rule, ctx({ assignee: 'u-bob' }))).toBe(false);
    expect(holds(rule, ctx({ assignee: 'u-alice' }))).toBe(true);
  });
});

describe('related rows', () => {
  const people: Record<string, Record<string, unknown>> = {
    'u-alice': { id: 'u-alice', name: 'Alice', manager: null },
    'u-bob': { id: 'u-bob', name: 'Bob', manager: 'u-alice' },
  };
  const reviews = [
    { id: 'r1', proposal: 'p1', score: 3, approved: true },
    { id: 'r2', proposal: 'p1', score: null, approved: true },
    { id: 'r3', proposal: 'p1', score: 4, approved: null },
    { id: 'r4', proposal: 'p2', score: 5, approved: true },
  ];
  const data: DataContext = {
    rows: (e) => (e === 'review' ? reviews : []),
    get: (e, id) => (e === 'person' ? (people[id] ?? null) : null),
    profile: (id) => people[id] ?? null,
  };
  const p1 = { id: 'p1', submitter: 'u-bob' };
  const proposal: RuleScope = { entity: 'proposal', expect: 'value' };

  it('counts rows where the condition holds (unknown does not count)', () => {
    expect(value('count(review where proposal = this)', p1, { data }, proposal)).toBe(3);
    expect(value('count(review where proposal = this and approved)', p1, { data }, proposal)).toBe(2);
    expect(value('count(review)', p1, { data }, proposal)).toBe(4);
    expect(
      holds(
        typed('count(review where proposal = this) >= minReviews', { entity: 'proposal' }),
        ctx(p1, { data }),
      ),
    ).toBe(true);
    expect(value('count(review)', p1, {}, proposal)).toBe(null);
  });
  it('sums non-null values, 0 when nothing matches', () => {
    expect(value('sum(review.score where proposal = this)', p1, { data }, proposal)).toBe(7);
    expect(value('sum(review.score where proposal = this)', { id: 'p9' }, { data }, proposal)).toBe(0);
  });
  it('follows one hop and reads the profile', () => {
    expect(value('submitter.manager = me', p1, { data }, proposal)).toBe(true);
    expect(value('submitter.manager = me', { id: 'p3', submitter: 'u-alice' }, { data }, proposal)).toBe(
      null,
    );
    expect(value('submitter.manager = me', p1, {}, proposal)).toBe(null);
    expect(value('me.name', null, { data, user: { id: 'u-bob', roles: [] } }, proposal)).toBe('Bob');
  });
});

describe('ruleReferences', () => {
  it('lists fields, constants, roles and entities read', () => {
    expect(
      ruleReferences(typed('count(review where proposal = this) >= minReviews', { entity: 'proposal' })),
    ).toEqual({
      fields: ['review.proposal'],
      constants: ['minReviews'],
      roles: [],
      entities: ['review'],
    });
    expect(
      ruleReferences(
        typed('submitter.manager is admin or me.name = title or sum(review.score) > 0', {
          entity: 'proposal',
        }),
      ),
    ).toEqual({
      fields: ['person.manager', 'person.name', 'proposal.submitter', 'proposal.title', 'review.score'],
      constants: [],
      roles: ['admin'],
      entities: ['person', 'review'],
    });
  });
});

describe('agreement with the SQL side (found by test/agreement)', () => {
  it('computes +, -, * and sum exactly on decimals, and / as Postgres rounds numerics', () => {
    expect(value('amount * hours', { amount: 3, hours: 0.3 })).toBe(0.9);
    expect(value('amount + hours', { amount: 0.1, hours: 0.2 })).toBe(0.3);
    expect(value('amount - hours', { amount: 1095.7, hours: 0.1 })).toBe(1095.6);
    expect(value('amount / hours', { amount: 9623.2, hours: 0.3 })).toBe(32077.333333333332);
    expect(value('amount / hours', { amount: 1, hours: 3 })).toBe(0.3333333333333333);
    expect(value('amount / hours', { amount: -7, hours: 2 })).toBe(-3.5);
    expect(exactArithmetic('*', 1e21, 3)).toBe(3e21);
    expect(exactDivide(2, 3)).toBe(0.6666666666666666);
  });
  it('treats only text as empty when it is the empty string', () => {
    expect(value('priority is empty', { priority: '' })).toBe(false);
    expect(value('title is empty', { title: '' })).toBe(true);
  });
  it('lower-cases one code point at a time, as Postgres lower', () => {
    expect(lowerLikePostgres('İSTANBUL')).toBe('istanbul');
    expect(lowerLikePostgres('ΟΔΟΣ')).toBe('οδοσ');
    expect(value('lower(title)', { title: 'İx' })).toBe('ix');
  });
  it('expands a list constant inside in; an empty one is false even for an empty operand', () => {
    const r = typed("title in ('x')");
    if (r.kind !== 'in') throw new Error('expected in');
    const list = (v: readonly string[]): Typed[] => [
      { kind: 'const', name: 'c', value: v, type: { kind: 'tags' }, span: r.span },
    ];
    const inList = (v: readonly string[], negated = false): Typed => ({ ...r, list: list(v), negated });
    expect(evaluateRule(inList(['EUR', 'USD']), ctx({ title: 'USD' }))).toBe(true);
    expect(evaluateRule(inList([]), ctx({ title: null }))).toBe(false);
    expect(evaluateRule(inList([], true), ctx({ title: null }))).toBe(true);
  });
});
