import { describe, expect, it } from 'vitest';
import type { Typed } from './ast.ts';
import { checkRule, type RuleScope } from './check.ts';
import { ruleSpec } from './fixtures/ruleSpec.ts';
import type { RuleError } from './ruleError.ts';

const ticket: RuleScope = { entity: 'ticket' };

function ok(text: string, scope: RuleScope = ticket): Typed {
  const r = checkRule(ruleSpec, text, scope);
  if (!r.ok) throw new Error(`${text}: ${r.errors.map((e) => e.message).join('; ')}`);
  return r.typed;
}

function errors(text: string, scope: RuleScope = ticket): RuleError[] {
  const r = checkRule(ruleSpec, text, scope);
  if (r.ok) throw new Error(`${text} checked`);
  return r.errors;
}

describe('checkRule: names', () => {
  it('accepts the documented examples', () => {
    for (const t of [
      'requester = me',
      'status in (open, pending)',
      'closedAt > now - days(reopenWindowDays)',
      'me is agent',
      'receipt is not empty',
      'tags contains urgent',
      'amount > receiptThreshold and receipt is not empty',
    ])
      expect(ok(t).type).toEqual({ kind: 'boolean' });
    expect(ok('count(review where proposal = this) >= minReviews', { entity: 'proposal' }).type.kind).toBe(
      'boolean',
    );
    expect(ok('submitter.manager = me', { entity: 'proposal' }).type.kind).toBe('boolean');
  });

  it('resolves fields, constants, enum values and implicit columns', () => {
    const t = ok('status in (open, pending)');
    expect(t).toMatchObject({
      kind: 'in',
      operand: { kind: 'field', scope: 'row', entity: 'ticket', path: ['status'] },
      list: [
        {
          kind: 'literal',
          value: 'open',
          type: { kind: 'enum', values: ['open', 'pending', 'solved', 'closed'] },
        },
        { kind: 'literal', value: 'pending' },
      ],
    });
    expect(ok('amount > receiptThreshold')).toMatchObject({
      right: { kind: 'const', name: 'receiptThreshold', value: 50 },
    });
    expect(ok('low = priority')).toMatchObject({ left: { kind: 'literal', value: 'low' } });
    expect(ok('createdAt < now and version > 1 and id = id')).toBeTruthy();
    expect(ok('currencies contains "EUR"', { entity: null })).toBeTruthy();
  });

  it('follows one reference hop and reads the profile through me', () => {
    expect(ok('submitter.manager = me', { entity: 'proposal' })).toMatchObject({
      left: {
        kind: 'field',
        path: ['submitter', 'manager'],
        via: 'person',
        type: { kind: 'ref', entity: 'person' },
      },
      right: { kind: 'me', type: { kind: 'ref', entity: 'person' } },
    });
    expect(ok('product.price > 10')).toMatchObject({ left: { via: 'product', type: { kind: 'number' } } });
    expect(ok('me.manager = assignee')).toMatchObject({
      left: { kind: 'me', field: 'manager', profile: 'person' },
    });
  });

  it('suggests the closest name for unknown names', () => {
    expect(errors('requestr = me')).toEqual([
      {
        code: 'rule/unknown-name',
        message: '"requestr" is not a field of ticket or a constant',
        hint: 'did you mean "requester"?',
        span: { start: 0, end: 8 },
      },
    ]);
    expect(errors('status = opne')[0]).toMatchObject({
      code: 'rule/unknown-name',
      hint: 'did you mean "open"?',
      span: { start: 9, end: 13 },
    });
    expect(errors('amount > recieptThreshold')[0]?.hint).toBe('did you mean "receiptThreshold"?');
    expect(errors('me is agnet')[0]).toMatchObject({
      hint: 'did you mean "agent"?',
      span: { start: 6, end: 11 },
    });
    expect(errors('count(reviw) > 1')[0]).toMatchObject({ hint: 'did you mean "review"?' });
    expect(errors('tags contains urgnt')[0]).toMatchObject({ hint: 'did you mean "urgent"?' });
    expect(errors("status = 'opn'")[0]).toMatchObject({ code: 'rule/type', hint: "did you mean 'open'?" });
    expect(errors('zzzz = 1')[0]?.hint).toBeUndefined();
    expect(errors('status is open')[0]?.hint).toBe('"is" tests roles; to test a value write "= open"');
  });

  it('reports every error, not just the first', () => {
    expect(errors('requestr = me and statsu = open').map((e) => e.span.start)).toEqual([0, 18]);
  });
});

describe('checkRule: one hop', () => {
  it('refuses two hops', () => {
    expect(errors('submitter.manager.name = "x"', { entity: 'proposal' })[0]).toMatchObject({
      code: 'rule/scope',
    });
  });
  it('refuses following a field that is not a reference', () => {
    expect(errors('title.length = 1')[0]).toMatchObject({
      code: 'rule/type',
      message: expect.stringMatching(/not a reference/),
    });
  });
  it('reports unknown fields at the far end', () => {
    expect(errors('product.prise > 1')[0]).toMatchObject({
      code: 'rule/unknown-name',
      hint: 'did you mean "price"?',
    });
  });
});

describe('checkRule: types', () => {
  it('requires compatible operands', () => {
    expect(errors('amount = "x"')[0]).toMatchObject({
      code: 'rule/type',
      message: 'cannot compare a number with text',
    });
    expect(errors('requester = product')[0]?.code).toBe('rule/type');
    expect(errors('priority in (low, 3)')[0]?.code).toBe('rule/type');
  });
  it('orders only numbers, dates, times and durations', () => {
    expect(ok('dueDate < now').type.kind).toBe('boolean');
    expect(ok('hours(1) < minutes(90)').type.kind).toBe('boolean');
    expect(errors('title < "m"')[0]).toMatchObject({
      code: 'rule/type',
      hint: expect.stringMatching(/never ordered/),
    });
    expect(errors('priority > low')[0]?.code).toBe('rule/type');
    expect(errors('paid > false')[0]?.code).toBe('rule/type');
  });
  it('types arithmetic on dates and durations', () => {
    expect(ok('now - days(3)', { entity: 'ticket', expect: 'value' }).type).toEqual({ kind: 'datetime' });
    expect(ok('closedAt - now', { entity: 'ticket', expect: 'value' }).type).toEqual({ kind: 'duration' });
    expect(ok('today - dueDate', { entity: 'ticket', expect: 'value' }).type).toEqual({ kind: 'number' });
    expect(ok('days(2) * 3', { entity: 'ticket', expect: 'value' }).type).toEqual({ kind: 'duration' });
    expect(errors('now + 3 > closedAt')[0]).toMatchObject({
      code: 'rule/type',
      hint: expect.stringMatching(/days/),
    });
    expect(errors('days(title) > hours(1)')[0]).toMatchObject({
      message: 'days(...) needs a number; this is text',
    });
    expect(errors('length(amount) > 1')[0]?.code).toBe('rule/type');
    expect(errors('days(1, 2) > hours(1)')[0]?.code).toBe('rule/type');
  });
  it('needs booleans for and/or/not and for the whole rule', () => {
    expect(errors('amount and paid')[0]?.code).toBe('rule/type');
    expect(errors('not amount')[0]?.code).toBe('rule/type');
    expect(errors('amount + 1')[0]).toMatchObject({
      message: 'a rule must be true or false; this is a number',
    });
    expect(ok('paid').type.kind).toBe('boolean');
  });
  it('accepts values for set expressions', () => {
    for (const t of ['me', 'now', 'null', 'reopenWindowDays', "'x'", 'today'])
      ok(t, { entity: 'ticket', expect: 'value' });
  });
  it('refuses comparisons with null, pointing to is empty', () => {
    expect(errors('assignee = null')[0]).toMatchObject({
      code: 'rule/type',
      hint: 'write "x is empty" or "x is not empty"',
    });
    expect(errors('priority in (low, null)')[0]?.code).toBe('rule/type');
  });
  it('checks contains, roles and sums', () => {
    expect(errors('title contains urgent')[0]?.code).toBe('rule/type');
    expect(errors('amount is agent')[0]).toMatchObject({
      code: 'rule/type',
      message: expect.stringMatching(/only people/),
    });
    expect(ok('assignee is not admin').type.kind).toBe('boolean');
    expect(errors('sum(review.approved) > 1', { entity: 'proposal' })[0]?.code).toBe('rule/type');
    expect(
      ok('sum(review.score where proposal = this and approved) > 3', { entity: 'proposal' }).type.kind,
    ).toBe('boolean');
    expect(errors('count(review where score) > 1', { entity: 'proposal' })[0]?.code).toBe('rule/type');
  });
});

describe('checkRule: scope', () => {
  it('allows this only inside count/sum', () => {
    expect(errors('this = id')[0]).toMatchObject({ code: 'rule/scope', span: { start: 0, end: 4 } });
    expect(
      ok('count(review where proposal = this and reviewer = this.submitter) > 0', { entity: 'proposal' }),
    ).toMatchObject({
      left: { where: { right: { right: { kind: 'this', field: 'submitter', entity: 'proposal' } } } },
    });
  });
  it('reads names inside count from the counted entity', () => {
    expect(ok('count(review where approved) > 0', { entity: 'proposal' })).toMatchObject({
      left: { where: { kind: 'field', scope: 'inner', entity: 'review', path: ['approved'] } },
    });
    expect(errors('count(review where budget > 1) > 0', { entity: 'proposal' })[0]?.code).toBe(
      'rule/unknown-name',
    );
  });
  it('refuses nested counts, fields without a row, and unknown entities', () => {
    expect(errors('count(review where count(review) > 1) > 0', { entity: 'proposal' })[0]?.code).toBe(
      'rule/scope',
    );
    expect(errors('amount > 1', { entity: null })[0]).toMatchObject({
      code: 'rule/unknown-name',
      message: expect.stringMatching(/no row/),
    });
    expect(ok('me is admin', { entity: null }).type.kind).toBe('boolean');
    expect(errors('count(review where proposal = this) > 0', { entity: null })[0]?.code).toBe('rule/scope');
    expect(errors('x = 1', { entity: 'nope' })[0]?.code).toBe('rule/scope');
  });
  it('returns syntax errors from the parser', () => {
    expect(errors('a = ')[0]?.code).toBe('rule/syntax');
  });
});
