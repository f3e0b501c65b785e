import { describe, expect, it } from 'vitest';
import { checkedRule } from '../model/checkedRule.ts';
import { resolve } from '../model/resolve.ts';
import type { RuleType, Typed } from '../rules/ast.ts';
import { blankSql } from '../spec/blank.ts';
import { compileRuleSql } from './compileRuleSql.ts';
import { mini } from './fixtures/mini.ts';
import { quoteIdent, quoteLiteral } from './quote.ts';
import { ruleSql } from './typedRule.ts';

const span = { start: 0, end: 0 };
const T = (kind: 'boolean' | 'number' | 'text' | 'datetime' | 'date' | 'duration'): RuleType => ({ kind });
const lit = (value: number | string | boolean | null, type: RuleType = T('text')): Typed => ({
  kind: 'literal',
  value,
  type,
  span,
});
const field = (name: string, type: RuleType = T('text')): Typed => ({
  kind: 'field',
  scope: 'row',
  entity: 'ticket',
  path: [name],
  type,
  span,
});
const bin = (
  op: Extract<Typed, { kind: 'binary' }>['op'],
  left: Typed,
  right: Typed,
  type = T('boolean'),
): Typed => ({
  kind: 'binary',
  op,
  left,
  right,
  type,
  span,
});
const ctx = { model: resolve(mini), row: 'ticket' };

describe('quoting', () => {
  it('doubles quotes in hostile literals so they stay one literal', () => {
    expect(quoteLiteral("x'); drop table t; --")).toBe("'x''); drop table t; --'");
    expect(compileRuleSql(bin('=', field('title'), lit("x'); drop table t; --")), ctx)).toBe(
      "(ticket.title = 'x''); drop table t; --')",
    );
  });
  it('quotes identifiers that are not plain or are reserved', () => {
    expect(quoteIdent('ticket')).toBe('ticket');
    expect(quoteIdent('user')).toBe('"user"');
    expect(quoteIdent('Weird"Name')).toBe('"Weird""Name"');
  });
  it('parenthesises negative numbers and refuses NUL and non-finite values', () => {
    expect(compileRuleSql(bin('-', lit(1, T('number')), lit(-1, T('number')), T('number')), ctx)).toBe(
      '((1)::numeric - (-1))',
    );
    expect(() => quoteLiteral('a\0b')).toThrow();
    expect(() => quoteLiteral(Number.NaN)).toThrow();
  });
});

describe('compileRuleSql', () => {
  it('qualifies row fields with the given row alias, or leaves them bare', () => {
    const t = bin('=', field('solvedAt', T('datetime')), { kind: 'now', type: T('datetime'), span });
    expect(compileRuleSql(t, ctx)).toBe('(ticket.solved_at = now())');
    expect(compileRuleSql(t, { model: resolve(mini), row: 'r' })).toBe('(r.solved_at = now())');
    expect(compileRuleSql(t, { model: resolve(mini), row: '' })).toBe('(solved_at = now())');
  });
  it('compiles me, me.field, one hop, today and durations', () => {
    const me: Typed = { kind: 'me', type: { kind: 'ref', entity: 'person' }, span };
    expect(compileRuleSql(bin('=', field('requester'), me), ctx)).toBe(
      '(ticket.requester = (select auth.uid()))',
    );
    const meName: Typed = { kind: 'me', field: 'name', profile: 'person', type: T('text'), span };
    expect(compileRuleSql(meName, ctx)).toBe(
      '(select _me1.name from public.person _me1 where _me1.id = (select auth.uid()))',
    );
    const hop: Typed = {
      kind: 'field',
      scope: 'row',
      entity: 'comment',
      path: ['ticket', 'requester'],
      via: 'ticket',
      type: T('text'),
      span,
    };
    expect(compileRuleSql(hop, { model: resolve(mini), row: 'comment' })).toBe(
      '(select _h1.requester from public.ticket _h1 where _h1.id = comment.ticket)',
    );
    expect(compileRuleSql({ kind: 'today', type: T('date'), span }, ctx)).toBe(
      "(now() at time zone 'utc')::date",
    );
    const days: Typed = {
      kind: 'call',
      fn: 'days',
      args: [lit(2.5, T('number'))],
      type: T('duration'),
      span,
    };
    expect(compileRuleSql(days, ctx)).toBe("((2.5)::double precision * interval '86400 seconds')");
  });
  it('keeps numbers numeric, divides durations as intervals and meets dates as UTC midnights', () => {
    // integer columns must not overflow where numeric (and the evaluator) counts on
    expect(compileRuleSql(bin('+', field('n', T('number')), lit(1, T('number')), T('number')), ctx)).toBe(
      '((ticket.n)::numeric + 1)',
    );
    const twoDays: Typed = {
      kind: 'call',
      fn: 'days',
      args: [lit(2, T('number'))],
      type: T('duration'),
      span,
    };
    expect(compileRuleSql(bin('/', twoDays, lit(2, T('number')), T('duration')), ctx)).toBe(
      "((((2)::double precision * interval '86400 seconds')) / nullif((2)::double precision, 0))",
    );
    // date vs timestamptz would use the session's midnight; date + interval a zone-less timestamp
    expect(
      compileRuleSql(bin('<', field('d', T('date')), { kind: 'now', type: T('datetime'), span }), ctx),
    ).toBe("(((ticket.d)::timestamp at time zone 'utc') < now())");
    expect(compileRuleSql(bin('+', field('d', T('date')), twoDays, T('datetime')), ctx)).toBe(
      "(((ticket.d)::timestamp at time zone 'utc') + ((2)::double precision * interval '86400 seconds'))",
    );
    expect(
      compileRuleSql(bin('<=', field('d', T('date')), { kind: 'today', type: T('date'), span }), ctx),
    ).toBe("(ticket.d <= (now() at time zone 'utc')::date)");
  });
  it('compiles roles, in, empty, contains, division and length', () => {
    const role: Typed = {
      kind: 'role',
      subject: field('assignee'),
      role: 'agent',
      negated: true,
      type: T('boolean'),
      span,
    };
    expect(compileRuleSql(role, ctx)).toBe("(not app.has_role(ticket.assignee, 'agent'))");
    const inList: Typed = {
      kind: 'in',
      operand: field('status'),
      list: [lit('open'), lit('pending')],
      negated: false,
      type: T('boolean'),
      span,
    };
    expect(compileRuleSql(inList, ctx)).toBe("(ticket.status in ('open', 'pending'))");
    expect(compileRuleSql({ ...inList, list: [] }, ctx)).toBe('false');
    const empty: Typed = { kind: 'empty', operand: field('body'), negated: false, type: T('boolean'), span };
    // Blank text is empty: trimmed of the characters JavaScript's trim removes (src/spec/blank.ts).
    expect(compileRuleSql(empty, ctx)).toBe(`(ticket.body is null or ${blankSql('ticket.body')})`);
    expect(blankSql('x')).toMatch(/^btrim\(x, E'(\\u[0-9a-f]{4})+'\) = ''$/);
    const tags: RuleType = { kind: 'tags' };
    expect(compileRuleSql(bin('contains', field('labels', tags), lit('vip')), ctx)).toBe(
      "('vip' = any(ticket.labels))",
    );
    expect(compileRuleSql(bin('/', lit(1, T('number')), lit(0, T('number')), T('number')), ctx)).toBe(
      '((1)::numeric / nullif((0)::numeric, 0))',
    );
    const len: Typed = { kind: 'call', fn: 'length', args: [field('labels', tags)], type: T('number'), span };
    expect(compileRuleSql(len, ctx)).toBe('cardinality(ticket.labels)');
  });
  it('compiles count and sum with `this` bound to the outer row', () => {
    const where = bin(
      '=',
      { kind: 'field', scope: 'inner', entity: 'comment', path: ['ticket'], type: T('text'), span },
      {
        kind: 'this',
        entity: 'ticket',
        type: { kind: 'ref', entity: 'ticket' },
        span,
      },
    );
    const count: Typed = { kind: 'count', entity: 'comment', where, type: T('number'), span };
    expect(compileRuleSql(count, ctx)).toBe(
      '(select count(*) from public.comment _c1 where (_c1.ticket = ticket.id))',
    );
    const sum: Typed = { kind: 'sum', entity: 'comment', field: 'weight', where, type: T('number'), span };
    expect(compileRuleSql(sum, { model: resolve(mini), row: 'new' })).toBe(
      'coalesce((select sum(_s1.weight) from public.comment _s1 where (_s1.ticket = new.id)), 0)',
    );
  });
  it('compiles constants inline, lists as text arrays', () => {
    const c: Typed = { kind: 'const', name: 'minTitle', value: 3, type: T('number'), span };
    expect(compileRuleSql(c, ctx)).toBe('3');
    const list: Typed = { kind: 'const', name: 'tags', value: ["a'b", 'c'], type: { kind: 'tags' }, span };
    expect(compileRuleSql(list, ctx)).toBe("array['a''b', 'c']::text[]");
  });
  it('compiles checked rule texts of the fixture (integration with checkRule)', () => {
    expect(ruleSql(ctx, checkedRule(mini, 'requester = me and status = open', 'ticket', 't'))).toBe(
      "((ticket.requester = (select auth.uid())) and (ticket.status = 'open'))",
    );
    expect(
      ruleSql(
        { model: resolve(mini), row: 'new' },
        checkedRule(mini, 'count(comment where ticket = this.ticket) < maxComments', 'comment', 't'),
      ),
    ).toBe('((select count(*) from public.comment _c1 where (_c1.ticket = new.ticket)) < 50)');
  });
});
