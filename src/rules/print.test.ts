import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AppSpec } from '../spec/types.ts';
import type { Expr, FunctionName } from './ast.ts';
import { describeRule } from './describe.ts';
import { ruleSpec } from './fixtures/ruleSpec.ts';
import { parseRule } from './parse.ts';
import { printRule } from './print.ts';
import { stripSpans } from './testing/stripSpans.ts';

const span = { start: 0, end: 0 };
const nameArb = fc.constantFrom('a', 'status', 'closedAt', 'x_1', 'days', 'count', 'Agent');
const fieldArb = fc.constantFrom('a', 'manager', 'in', 'is'); // after "." keywords are field names too

const exprArb: fc.Arbitrary<Expr> = fc.letrec<{ e: Expr }>((tie) => {
  const e = tie('e');
  const leaf: fc.Arbitrary<Expr> = fc.oneof(
    fc
      .oneof(
        fc.integer({ min: -1000, max: 1000 }),
        fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0)),
        fc.string({ maxLength: 6 }),
        fc.boolean(),
        fc.constant(null),
      )
      .map((value): Expr => ({ kind: 'literal', value, span })),
    fc
      .tuple(nameArb, fc.option(fieldArb, { nil: undefined }))
      .map(([a, b]): Expr => ({ kind: 'name', path: b === undefined ? [a] : [a, b], span })),
    fc
      .option(fieldArb, { nil: undefined })
      .map((field): Expr => (field ? { kind: 'me', field, span } : { kind: 'me', span })),
    fc
      .option(fieldArb, { nil: undefined })
      .map((field): Expr => (field ? { kind: 'this', field, span } : { kind: 'this', span })),
    fc.constant<Expr>({ kind: 'now', span }),
    fc.constant<Expr>({ kind: 'today', span }),
  );
  const node: fc.Arbitrary<Expr> = fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc
      .tuple(
        fc.constantFrom(
          '=',
          '!=',
          '<',
          '<=',
          '>',
          '>=',
          '+',
          '-',
          '*',
          '/',
          'and',
          'or',
          'contains' as const,
        ),
        e,
        e,
      )
      .map(([op, left, right]): Expr => ({ kind: 'binary', op, left, right, span })),
    e.map((operand): Expr => ({ kind: 'not', operand, span })),
    e.map((operand): Expr => ({ kind: 'neg', operand, span })),
    fc
      .tuple(e, fc.array(e, { minLength: 1, maxLength: 3 }), fc.boolean())
      .map(([operand, list, negated]): Expr => ({ kind: 'in', operand, list, negated, span })),
    fc.tuple(e, fc.boolean()).map(([operand, negated]): Expr => ({ kind: 'empty', operand, negated, span })),
    fc
      .tuple(e, fc.constantFrom('agent', 'admin'), fc.boolean())
      .map(([subject, role, negated]): Expr => ({ kind: 'role', subject, role, negated, span })),
    fc
      .tuple(
        fc.constantFrom<FunctionName>('days', 'hours', 'minutes', 'length', 'lower'),
        fc.array(e, { minLength: 1, maxLength: 2 }),
      )
      .map(([fn, args]): Expr => ({ kind: 'call', fn, args, span })),
    fc
      .tuple(nameArb, fc.option(e, { nil: undefined }))
      .map(
        ([entity, where]): Expr =>
          where ? { kind: 'count', entity, where, span } : { kind: 'count', entity, span },
      ),
    fc
      .tuple(nameArb, fieldArb, fc.option(e, { nil: undefined }))
      .map(
        ([entity, field, where]): Expr =>
          where ? { kind: 'sum', entity, field, where, span } : { kind: 'sum', entity, field, span },
      ),
  );
  return { e: node };
}).e;

function reparse(text: string): unknown {
  const r = parseRule(text);
  return r.ok ? stripSpans(r.expr) : r.error;
}

describe('printRule', () => {
  it('prints canonical text with minimal parentheses', () => {
    const cases: [string, string][] = [
      ['(a = 1) and ((b or c))', 'a = 1 and (b or c)'],
      ['a or (b and c)', 'a or b and c'],
      ['(a or b) or c', 'a or b or c'],
      ['a or (b or c)', 'a or (b or c)'],
      ['a - (b - c) = 0', 'a - (b - c) = 0'],
      ['(a * b) + c <> "x"', "a * b + c != 'x'"],
      ['not (a = b)', 'not a = b'],
      ['(not a) = b', '(not a) = b'],
      ['-(5) + - 3', '-(5) + -3'],
      ["x = 'it''s'".replace("''", "\\'"), "x = 'it\\'s'"],
      ['status  not in (open,pending)', 'status not in (open, pending)'],
      [
        'count( review  where proposal=this )>=minReviews',
        'count(review where proposal = this) >= minReviews',
      ],
      ['(a is empty) is not empty', '(a is empty) is not empty'],
    ];
    for (const [input, expected] of cases) {
      const r = parseRule(input);
      expect(r.ok, input).toBe(true);
      if (r.ok) expect(printRule(r.expr)).toBe(expected);
    }
  });

  it('round-trips: parseRule(printRule(e)) equals e for generated trees', () => {
    fc.assert(
      fc.property(exprArb, (e) => {
        expect(reparse(printRule(e))).toEqual(stripSpans(e));
      }),
      { numRuns: 1500 },
    );
  });
});

describe('describeRule', () => {
  const words = (text: string, entity?: string, withSpec = true) => {
    const r = parseRule(text);
    if (!r.ok) throw new Error(r.error.message);
    return describeRule(r.expr, withSpec ? ruleSpec : undefined, entity);
  };
  it('reads the documented examples in plain words', () => {
    expect(words('requester = me', 'ticket', false)).toBe('the requester is the current user');
    expect(words('requester = me', 'ticket')).toBe('the requester is the current user');
    expect(words('status in (open, pending)', 'ticket')).toBe('status is open or pending');
    expect(words('closedAt > now - days(reopenWindowDays)', 'ticket')).toBe(
      'closed at is after now minus Reopen window (days) days',
    );
  });
  it('uses labels from the spec and falls back to words from names', () => {
    expect(words('dueDate < today', 'ticket')).toBe('due date is before today');
    expect(words('dueDate < today', undefined, false)).toBe('due date is before today');
    expect(words('me is agent')).toBe('the current user has the role Agent');
    expect(words('assignee is not admin', 'ticket')).toBe(
      'the assignee does not have the role Administrator',
    );
    expect(words('count(review where proposal = this) >= minReviews', 'proposal')).toBe(
      'the number of reviews (where the proposal is this proposal) is at least Minimum reviews',
    );
    expect(words('submitter.manager = me', 'proposal')).toBe("the submitter's manager is the current user");
    expect(words('tags contains urgent', 'ticket')).toBe('tags include urgent');
    expect(words('priority not in (low, normal, high)', 'ticket')).toBe(
      'priority is none of low, normal and high',
    );
    expect(words('hours >= 2 * (1 + 3)', 'ticket')).toBe('hours is at least 2 times (1 plus 3)');
  });
  it('prints the labels of enum, tags and status values the spec labels (issue 16, item 2)', () => {
    const spec = {
      ...ruleSpec,
      entities: {
        ...ruleSpec.entities,
        poll: {
          label: 'Poll',
          fields: {
            minutes: { type: 'enum', values: [25, { value: 45, label: '45 minutes' }] },
            stage: {
              type: 'enum',
              values: ['in-review', { value: 'on hold', label: 'Waiting on the board' }],
            },
            rooms: { type: 'tags', values: [{ value: 'big-room', label: 'The big room' }, 'annex'] },
            status: { type: 'status' },
          },
        },
      },
      states: {
        ...ruleSpec.states,
        poll: {
          field: 'status',
          initial: 'open',
          states: { open: { label: 'Open for votes' }, closed: { final: true } },
          transitions: {},
        },
      },
    } as AppSpec;
    const say = (text: string) => {
      const r = parseRule(text);
      if (!r.ok) throw new Error(r.error.message);
      return describeRule(r.expr, spec, 'poll');
    };
    expect(say("stage = 'on hold'")).toBe('stage is Waiting on the board');
    expect(say('minutes = 45')).toBe('minutes is 45 minutes');
    expect(say("stage in ('in-review', 'on hold')")).toBe('stage is "in-review" or Waiting on the board');
    expect(say("rooms contains 'big-room'")).toBe('rooms include The big room');
    expect(say('status != open')).toBe('status is not Open for votes');
    // A value without a label of its own reads as before.
    expect(say('minutes = 25 and status = closed')).toBe('minutes is 25 and status is closed');
  });
  it('groups mixed and/or and negations', () => {
    expect(words('(a = 1 or b = 2) and not c', undefined, false)).toBe('(a is 1 or b is 2) and not c');
    expect(words('not (a = 1 and b is empty)', undefined, false)).toBe(
      'it is not true that (a is 1 and b is empty)',
    );
  });
  it('is deterministic and total over generated trees', () => {
    fc.assert(
      fc.property(exprArb, (e) => {
        const once = describeRule(e, ruleSpec, 'ticket');
        expect(typeof once).toBe('string');
        expect(describeRule(e, ruleSpec, 'ticket')).toBe(once);
      }),
      { numRuns: 300 },
    );
  });
});
