import type { BinaryOp, CompareOp, Expr, FunctionName, Span } from './ast.ts';
import { lex, type Token } from './lex.ts';
import { type RuleError, ruleError } from './ruleError.ts';

/** Longest rule text accepted; longer texts are refused before lexing. */
export const MAX_RULE_LENGTH = 4000;
/** Deepest nesting of parentheses, calls, `not` and unary minus accepted. */
export const MAX_RULE_DEPTH = 64;

export type ParseResult = { ok: true; expr: Expr } | { ok: false; error: RuleError };

const FUNCTIONS: ReadonlySet<string> = new Set<FunctionName>([
  'days',
  'hours',
  'minutes',
  'length',
  'lower',
  'date',
  'datetime',
  'hour',
  'weekday',
  'startOfDay',
]);
const COMPARE_OPS: ReadonlySet<string> = new Set<CompareOp>(['=', '!=', '<', '<=', '>', '>=']);

/** Internal control flow only: `parseRule` catches it and returns it as data. */
class Failure {
  constructor(readonly error: RuleError) {}
}

const join = (a: Span, b: Span): Span => ({ start: a.start, end: b.end });

function describe(t: Token): string {
  if (t.kind === 'eof') return 'the end of the rule';
  if (t.kind === 'string') return 'a string';
  if (t.kind === 'number') return `the number ${t.text}`;
  return `"${t.text}"`;
}

class Parser {
  private pos = 0;
  private depth = 0;
  constructor(private readonly tokens: readonly Token[]) {}

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)] as Token;
  }
  private next(): Token {
    const t = this.peek();
    if (t.kind !== 'eof') this.pos++;
    return t;
  }
  private isOp(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === 'op' && t.text === text;
  }
  private isKw(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === 'keyword' && t.text === text;
  }
  private fail(message: string, span: Span, hint?: string): never {
    throw new Failure(ruleError('rule/syntax', message, span, hint));
  }
  private expectOp(text: string, what: string): Token {
    const t = this.peek();
    if (t.kind === 'op' && t.text === text) return this.next();
    return this.fail(`expected "${text}" ${what}, found ${describe(t)}`, t.span);
  }
  private enter(span: Span): void {
    this.depth++;
    if (this.depth > MAX_RULE_DEPTH) {
      throw new Failure(
        ruleError(
          'rule/syntax',
          `rule nested too deeply (more than ${MAX_RULE_DEPTH} levels)`,
          span,
          'split it into simpler rules',
        ),
      );
    }
  }
  private leave(): void {
    this.depth--;
  }

  parseRule(): Expr {
    const expr = this.parseOr();
    const t = this.peek();
    if (t.kind !== 'eof') {
      const hint = t.kind === 'op' && t.text === '=' ? 'write "=" once to compare' : undefined;
      const after =
        t.kind === 'op' && COMPARE_OPS.has(t.text)
          ? `a comparison cannot be compared again: unexpected ${describe(t)}`
          : `unexpected ${describe(t)}`;
      this.fail(
        after,
        t.span,
        hint ?? (t.kind === 'op' && t.text === ')' ? 'remove it or add a "("' : undefined),
      );
    }
    return expr;
  }

  private parseOr(): Expr {
    let left = this.parseAnd();
    while (this.isKw('or')) {
      this.next();
      const right = this.parseAnd();
      left = { kind: 'binary', op: 'or', left, right, span: join(left.span, right.span) };
    }
    return left;
  }

  private parseAnd(): Expr {
    let left = this.parseNot();
    while (this.isKw('and')) {
      this.next();
      const right = this.parseNot();
      left = { kind: 'binary', op: 'and', left, right, span: join(left.span, right.span) };
    }
    return left;
  }

  private parseNot(): Expr {
    if (this.isKw('not')) {
      const t = this.next();
      this.enter(t.span);
      const operand = this.parseNot();
      this.leave();
      return { kind: 'not', operand, span: join(t.span, operand.span) };
    }
    return this.parseCompare();
  }

  private parseCompare(): Expr {
    const left = this.parseSum();
    const t = this.peek();
    if (t.kind === 'op' && COMPARE_OPS.has(t.text)) {
      this.next();
      const right = this.parseSum();
      return { kind: 'binary', op: t.text as CompareOp, left, right, span: join(left.span, right.span) };
    }
    if (this.isKw('in') || (this.isKw('not') && this.isKw('in', 1))) {
      const negated = this.isKw('not');
      if (negated) this.next();
      this.next();
      this.expectOp('(', 'to start the list after "in"');
      const list: Expr[] = [this.parseSum()];
      while (this.isOp(',')) {
        this.next();
        list.push(this.parseSum());
      }
      const close = this.expectOp(')', 'to close the list after "in"');
      return { kind: 'in', operand: left, list, negated, span: join(left.span, close.span) };
    }
    if (this.isKw('is')) {
      const is = this.next();
      let negated = false;
      if (this.isKw('not')) {
        this.next();
        negated = true;
      }
      const w = this.next();
      if (w.kind === 'keyword' && w.text === 'empty') {
        return { kind: 'empty', operand: left, negated, span: join(left.span, w.span) };
      }
      if (w.kind === 'name') {
        return { kind: 'role', subject: left, role: w.text, negated, span: join(left.span, w.span) };
      }
      if (w.kind === 'keyword' && w.text === 'null') {
        this.fail(
          '"is null" is written "is empty"',
          join(is.span, w.span),
          `write "is ${negated ? 'not ' : ''}empty"`,
        );
      }
      this.fail(`expected "empty" or a role after "is", found ${describe(w)}`, w.span);
    }
    if (this.isKw('contains')) {
      this.next();
      const right = this.parseSum();
      return { kind: 'binary', op: 'contains', left, right, span: join(left.span, right.span) };
    }
    return left;
  }

  private parseSum(): Expr {
    let left = this.parseProduct();
    while (this.isOp('+') || this.isOp('-')) {
      const op = this.next().text as BinaryOp;
      const right = this.parseProduct();
      left = { kind: 'binary', op, left, right, span: join(left.span, right.span) };
    }
    return left;
  }

  private parseProduct(): Expr {
    let left = this.parseUnary();
    while (this.isOp('*') || this.isOp('/')) {
      const op = this.next().text as BinaryOp;
      const right = this.parseUnary();
      left = { kind: 'binary', op, left, right, span: join(left.span, right.span) };
    }
    return left;
  }

  private parseUnary(): Expr {
    if (this.isOp('-')) {
      const minus = this.next();
      const num = this.peek();
      // `-5` is one literal so the printer's output reads back as the same tree.
      if (num.kind === 'number') {
        this.next();
        return { kind: 'literal', value: -(num.value as number), span: join(minus.span, num.span) };
      }
      this.enter(minus.span);
      const operand = this.parseUnary();
      this.leave();
      return { kind: 'neg', operand, span: join(minus.span, operand.span) };
    }
    return this.parsePrimary();
  }

  /** `.NAME` after a name, `me` or `this`; a second `.` is refused (one hop only). */
  private parseDotted(head: Token): { field?: string; span: Span } {
    if (!this.isOp('.')) return { span: head.span };
    this.next();
    const f = this.next();
    if (f.kind !== 'name' && f.kind !== 'keyword') {
      this.fail(`expected a field name after "${head.text}.", found ${describe(f)}`, f.span);
    }
    if (this.isOp('.')) {
      let end = f.span;
      const parts = [head.text, f.text];
      while (this.isOp('.')) {
        this.next();
        const g = this.next();
        end = g.span;
        parts.push(g.text);
      }
      throw new Failure(
        ruleError(
          'rule/scope',
          `"${parts.join('.')}" follows more than one reference; rules may follow only one (like "${parts[0]}.${parts[1]}")`,
          join(head.span, end),
          'store the value you need on a nearer row, or use count(...) over the related rows',
        ),
      );
    }
    return { field: f.text, span: join(head.span, f.span) };
  }

  private parsePrimary(): Expr {
    const t = this.peek();
    if (t.kind === 'number') {
      this.next();
      return { kind: 'literal', value: t.value as number, span: t.span };
    }
    if (t.kind === 'string') {
      this.next();
      return { kind: 'literal', value: t.text, span: t.span };
    }
    if (t.kind === 'keyword') {
      switch (t.text) {
        case 'true':
        case 'false':
          this.next();
          return { kind: 'literal', value: t.text === 'true', span: t.span };
        case 'null':
          this.next();
          return { kind: 'literal', value: null, span: t.span };
        case 'now':
          this.next();
          return { kind: 'now', span: t.span };
        case 'today':
          this.next();
          return { kind: 'today', span: t.span };
        case 'me':
        case 'this': {
          this.next();
          const d = this.parseDotted(t);
          const kind = t.text === 'me' ? 'me' : 'this';
          return d.field === undefined ? { kind, span: d.span } : { kind, field: d.field, span: d.span };
        }
        default:
          return this.fail(`expected a value, found ${describe(t)}`, t.span);
      }
    }
    if (t.kind === 'op' && t.text === '(') {
      this.next();
      this.enter(t.span);
      const inner = this.parseOr();
      this.leave();
      this.expectOp(')', `to close the "(" at ${t.span.start}`);
      return inner;
    }
    if (t.kind === 'name') {
      if (this.isOp('(', 1)) return this.parseCall();
      this.next();
      const d = this.parseDotted(t);
      return { kind: 'name', path: d.field === undefined ? [t.text] : [t.text, d.field], span: d.span };
    }
    return this.fail(`expected a value, found ${describe(t)}`, t.span);
  }

  private parseCall(): Expr {
    const fn = this.next();
    const open = this.next();
    this.enter(open.span);
    let result: Expr;
    if (fn.text === 'count' || fn.text === 'sum') {
      const e = this.next();
      if (e.kind !== 'name') {
        this.fail(`expected an entity name after "${fn.text}(", found ${describe(e)}`, e.span);
      }
      let field: string | undefined;
      if (fn.text === 'sum') {
        this.expectOp('.', `between the entity and the field in sum(${e.text}.field)`);
        const f = this.next();
        if (f.kind !== 'name' && f.kind !== 'keyword') {
          this.fail(`expected the field to sum after "${e.text}.", found ${describe(f)}`, f.span);
        }
        field = f.text;
      } else if (this.isOp('.')) {
        this.fail(
          'count(...) counts rows of an entity, not a field',
          this.peek().span,
          `write count(${e.text} where ...)`,
        );
      }
      let where: Expr | undefined;
      if (this.isKw('where')) {
        this.next();
        where = this.parseOr();
      }
      const close = this.expectOp(')', `to close ${fn.text}(...)`);
      const span = join(fn.span, close.span);
      if (field !== undefined) {
        result =
          where === undefined
            ? { kind: 'sum', entity: e.text, field, span }
            : { kind: 'sum', entity: e.text, field, where, span };
      } else {
        result =
          where === undefined
            ? { kind: 'count', entity: e.text, span }
            : { kind: 'count', entity: e.text, where, span };
      }
    } else if (FUNCTIONS.has(fn.text)) {
      const args: Expr[] = [this.parseOr()];
      while (this.isOp(',')) {
        this.next();
        args.push(this.parseOr());
      }
      const close = this.expectOp(')', `to close ${fn.text}(...)`);
      result = { kind: 'call', fn: fn.text as FunctionName, args, span: join(fn.span, close.span) };
    } else {
      this.fail(
        `unknown function "${fn.text}"`,
        fn.span,
        'functions are days, hours, minutes, length, lower, date, datetime, hour, weekday, startOfDay, count and sum',
      );
    }
    this.leave();
    return result;
  }
}

/**
 * Parses rule text into an `Expr` (names unresolved; see `checkRule`). Never throws and
 * refuses texts longer than `MAX_RULE_LENGTH` or nested deeper than `MAX_RULE_DEPTH`.
 *
 * @example
 * parseRule('status in (open, pending)')
 * // { ok: true, expr: { kind: 'in', operand: { kind: 'name', path: ['status'], ... }, ... } }
 * parseRule('a = ') // { ok: false, error: { code: 'rule/syntax', message: 'expected a value, ...', span } }
 */
export function parseRule(text: string): ParseResult {
  if (typeof text !== 'string') {
    return { ok: false, error: ruleError('rule/syntax', 'a rule must be text', { start: 0, end: 0 }) };
  }
  if (text.length > MAX_RULE_LENGTH) {
    return {
      ok: false,
      error: ruleError(
        'rule/syntax',
        `rule too long (${text.length} characters; at most ${MAX_RULE_LENGTH})`,
        { start: MAX_RULE_LENGTH, end: text.length },
        'split it into simpler rules or name parts of it as constants',
      ),
    };
  }
  const lexed = lex(text);
  if (!lexed.ok) return lexed;
  const first = lexed.tokens[0];
  if (first?.kind === 'eof') {
    return {
      ok: false,
      error: ruleError('rule/syntax', 'the rule is empty', { start: 0, end: text.length }),
    };
  }
  try {
    return { ok: true, expr: new Parser(lexed.tokens).parseRule() };
  } catch (e) {
    if (e instanceof Failure) return { ok: false, error: e.error };
    // Defensive: an internal fault must still come back as data, never escape.
    return {
      ok: false,
      error: ruleError('rule/syntax', `could not parse the rule (${String(e)})`, {
        start: 0,
        end: text.length,
      }),
    };
  }
}
