import { describe, expect, it } from 'vitest';
import type { Expr } from './ast.ts';
import { lex } from './lex.ts';
import { MAX_RULE_DEPTH, MAX_RULE_LENGTH, parseRule } from './parse.ts';
import { stripSpans } from './testing/stripSpans.ts';

function tree(text: string): unknown {
  const r = parseRule(text);
  if (!r.ok) throw new Error(`${text}: ${r.error.message}`);
  return stripSpans(r.expr);
}

function error(text: string) {
  const r = parseRule(text);
  if (r.ok) throw new Error(`${text} parsed`);
  return r.error;
}

const n = (...path: string[]) => ({ kind: 'name', path });
const lit = (value: number | string | boolean | null) => ({ kind: 'literal', value });
const bin = (op: string, left: unknown, right: unknown) => ({ kind: 'binary', op, left, right });

describe('lex', () => {
  it('reads numbers, strings with escapes, two-character operators and <>', () => {
    const r = lex(`1.5e3 'it\\'s' "a\\\\b" <> <= >= != x.y`);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.tokens.map((t) => [t.kind, t.text])).toEqual([
      ['number', '1.5e3'],
      ['string', "it's"],
      ['string', 'a\\b'],
      ['op', '!='],
      ['op', '<='],
      ['op', '>='],
      ['op', '!='],
      ['name', 'x'],
      ['op', '.'],
      ['name', 'y'],
      ['eof', ''],
    ]);
    expect(r.tokens[0]?.value).toBe(1500);
  });

  it('reports bad characters and unterminated strings with positions', () => {
    expect(lex('a & b')).toMatchObject({
      ok: false,
      error: { code: 'rule/syntax', span: { start: 2, end: 3 }, hint: 'write "and"' },
    });
    expect(lex("a = 'x")).toMatchObject({
      ok: false,
      error: { message: 'unterminated string', span: { start: 4, end: 6 } },
    });
    expect(lex('3abc')).toMatchObject({ ok: false, error: { span: { start: 0, end: 2 } } });
  });
});

describe('parseRule: the documented examples', () => {
  it('parses requester = me', () => {
    expect(tree('requester = me')).toEqual(bin('=', n('requester'), { kind: 'me' }));
  });
  it('parses status in (open, pending)', () => {
    expect(tree('status in (open, pending)')).toEqual({
      kind: 'in',
      operand: n('status'),
      list: [n('open'), n('pending')],
      negated: false,
    });
  });
  it('parses closedAt > now - days(reopenWindowDays)', () => {
    expect(tree('closedAt > now - days(reopenWindowDays)')).toEqual(
      bin(
        '>',
        n('closedAt'),
        bin('-', { kind: 'now' }, { kind: 'call', fn: 'days', args: [n('reopenWindowDays')] }),
      ),
    );
  });
  it('parses count(review where proposal = this) >= minReviews', () => {
    expect(tree('count(review where proposal = this) >= minReviews')).toEqual(
      bin(
        '>=',
        { kind: 'count', entity: 'review', where: bin('=', n('proposal'), { kind: 'this' }) },
        n('minReviews'),
      ),
    );
  });
  it('parses one-hop names, roles, empty tests and contains', () => {
    expect(tree('submitter.manager = me')).toEqual(bin('=', n('submitter', 'manager'), { kind: 'me' }));
    expect(tree('me is agent')).toEqual({
      kind: 'role',
      subject: { kind: 'me' },
      role: 'agent',
      negated: false,
    });
    expect(tree('assignee is not admin')).toEqual({
      kind: 'role',
      subject: n('assignee'),
      role: 'admin',
      negated: true,
    });
    expect(tree('receipt is not empty')).toEqual({ kind: 'empty', operand: n('receipt'), negated: true });
    expect(tree('receipt is empty')).toEqual({ kind: 'empty', operand: n('receipt'), negated: false });
    expect(tree('tags contains urgent')).toEqual(bin('contains', n('tags'), n('urgent')));
    expect(tree('amount > receiptThreshold and receipt is not empty')).toEqual(
      bin('and', bin('>', n('amount'), n('receiptThreshold')), {
        kind: 'empty',
        operand: n('receipt'),
        negated: true,
      }),
    );
  });
});

describe('parseRule: every construct', () => {
  it('parses literals', () => {
    expect(tree('x = 12.5')).toEqual(bin('=', n('x'), lit(12.5)));
    expect(tree(`x = 'a b'`)).toEqual(bin('=', n('x'), lit('a b')));
    expect(tree('x = "q"')).toEqual(bin('=', n('x'), lit('q')));
    expect(tree('true')).toEqual(lit(true));
    expect(tree('false or null')).toEqual(bin('or', lit(false), lit(null)));
    expect(tree('-5')).toEqual(lit(-5));
    expect(tree('-(5)')).toEqual({ kind: 'neg', operand: lit(5) });
    expect(tree('--x')).toEqual({ kind: 'neg', operand: { kind: 'neg', operand: n('x') } });
  });
  it('parses me/this/now/today with fields', () => {
    expect(tree('me.manager')).toEqual({ kind: 'me', field: 'manager' });
    expect(tree('this.owner')).toEqual({ kind: 'this', field: 'owner' });
    expect(tree('now')).toEqual({ kind: 'now' });
    expect(tree('today')).toEqual({ kind: 'today' });
  });
  it('parses every comparison operator, <> as !=', () => {
    for (const op of ['=', '!=', '<', '<=', '>', '>='])
      expect(tree(`a ${op} b`)).toEqual(bin(op, n('a'), n('b')));
    expect(tree('a <> b')).toEqual(bin('!=', n('a'), n('b')));
  });
  it('parses not in, functions, sum with where, count without where', () => {
    expect(tree('p not in (low)')).toEqual({ kind: 'in', operand: n('p'), list: [n('low')], negated: true });
    expect(tree('length(lower(title)) > 3')).toEqual(
      bin(
        '>',
        { kind: 'call', fn: 'length', args: [{ kind: 'call', fn: 'lower', args: [n('title')] }] },
        lit(3),
      ),
    );
    expect(tree('hours(2) < minutes(200)')).toEqual(
      bin(
        '<',
        { kind: 'call', fn: 'hours', args: [lit(2)] },
        { kind: 'call', fn: 'minutes', args: [lit(200)] },
      ),
    );
    expect(tree('sum(line.amount where claim = this) > 0')).toEqual(
      bin(
        '>',
        { kind: 'sum', entity: 'line', field: 'amount', where: bin('=', n('claim'), { kind: 'this' }) },
        lit(0),
      ),
    );
    expect(tree('count(comment) = 0')).toEqual(bin('=', { kind: 'count', entity: 'comment' }, lit(0)));
  });
  it('treats function names as names when no parenthesis follows', () => {
    expect(tree('days = 3')).toEqual(bin('=', n('days'), lit(3)));
  });
});

describe('parseRule: precedence', () => {
  it('binds and tighter than or, not tighter than and, comparison tighter than not', () => {
    expect(tree('a or b and c')).toEqual(bin('or', n('a'), bin('and', n('b'), n('c'))));
    expect(tree('not a and b')).toEqual(bin('and', { kind: 'not', operand: n('a') }, n('b')));
    expect(tree('not a = b')).toEqual({ kind: 'not', operand: bin('=', n('a'), n('b')) });
    expect(tree('not not a')).toEqual({ kind: 'not', operand: { kind: 'not', operand: n('a') } });
  });
  it('binds * tighter than +, unary minus tightest; arithmetic is left-associative', () => {
    expect(tree('a + b * c = d')).toEqual(bin('=', bin('+', n('a'), bin('*', n('b'), n('c'))), n('d')));
    expect(tree('a - b - c')).toEqual(bin('-', bin('-', n('a'), n('b')), n('c')));
    expect(tree('a / b / c')).toEqual(bin('/', bin('/', n('a'), n('b')), n('c')));
    expect(tree('-a * b')).toEqual(bin('*', { kind: 'neg', operand: n('a') }, n('b')));
    expect(tree('a or b or c')).toEqual(bin('or', bin('or', n('a'), n('b')), n('c')));
  });
  it('lets parentheses override', () => {
    expect(tree('(a or b) and c')).toEqual(bin('and', bin('or', n('a'), n('b')), n('c')));
    expect(tree('a * (b + c)')).toEqual(bin('*', n('a'), bin('+', n('b'), n('c'))));
  });
});

describe('parseRule: errors with spans', () => {
  it('positions unexpected tokens', () => {
    expect(error('a = ')).toMatchObject({ code: 'rule/syntax', span: { start: 4, end: 4 } });
    expect(error('a = = b')).toMatchObject({ span: { start: 4, end: 5 } });
    expect(error('a = b c')).toMatchObject({ message: 'unexpected "c"', span: { start: 6, end: 7 } });
    expect(error('(a = b')).toMatchObject({ span: { start: 6, end: 6 } });
    expect(error('a = b)')).toMatchObject({ span: { start: 5, end: 6 }, hint: 'remove it or add a "("' });
  });
  it('refuses chained comparisons', () => {
    expect(error('a < b < c').message).toMatch(/cannot be compared again/);
  });
  it('explains is null and unknown functions', () => {
    expect(error('a is null')).toMatchObject({ hint: 'write "is empty"', span: { start: 2, end: 9 } });
    expect(error('a is not null')).toMatchObject({ hint: 'write "is not empty"' });
    expect(error('foo(1) = 2')).toMatchObject({
      message: 'unknown function "foo"',
      span: { start: 0, end: 3 },
    });
    expect(error('x is 3')).toMatchObject({ span: { start: 5, end: 6 } });
  });
  it('refuses more than one hop with a clear scope error', () => {
    expect(error('a.b.c = 1')).toMatchObject({ code: 'rule/scope', span: { start: 0, end: 5 } });
    expect(error('me.a.b = 1')).toMatchObject({ code: 'rule/scope' });
  });
  it('refuses empty, too long and too deep rules', () => {
    expect(error('   ')).toMatchObject({ message: 'the rule is empty' });
    expect(error(`a = ${'1'.repeat(MAX_RULE_LENGTH)}`)).toMatchObject({ span: { start: MAX_RULE_LENGTH } });
    const deep = `${'('.repeat(MAX_RULE_DEPTH + 1)}a${')'.repeat(MAX_RULE_DEPTH + 1)}`;
    expect(error(deep).message).toMatch(/nested too deeply/);
    expect(parseRule(`${'('.repeat(MAX_RULE_DEPTH)}a${')'.repeat(MAX_RULE_DEPTH)}`).ok).toBe(true);
    expect(error(`${'not '.repeat(MAX_RULE_DEPTH + 1)}a`).message).toMatch(/nested too deeply/);
    expect(error(`${'-'.repeat(MAX_RULE_DEPTH + 1)}a`).message).toMatch(/nested too deeply/);
  });
  it('keeps spans of nodes on the source text', () => {
    const r = parseRule('x = 1 and me is agent');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const e = r.expr as Extract<Expr, { kind: 'binary' }>;
    expect(e.span).toEqual({ start: 0, end: 21 });
    expect(e.right.span).toEqual({ start: 10, end: 21 });
    expect(e.left.span).toEqual({ start: 0, end: 5 });
  });
});
