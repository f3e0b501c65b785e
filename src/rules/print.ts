import type { Expr } from './ast.ts';
import { KEYWORDS } from './lex.ts';

export { describeRule } from './describe.ts';

/**
 * Binding strength of each grammar level; a child printed where a higher level is
 * required gets parentheses. Mirrors the grammar in docs/rule-language.md.
 */
const OR = 1;
const AND = 2;
const NOT = 3;
const COMPARE = 4;
const SUM = 5;
const PRODUCT = 6;
const UNARY = 7;
const PRIMARY = 8;

function level(e: Expr): number {
  switch (e.kind) {
    case 'binary':
      if (e.op === 'or') return OR;
      if (e.op === 'and') return AND;
      if (e.op === '+' || e.op === '-') return SUM;
      if (e.op === '*' || e.op === '/') return PRODUCT;
      return COMPARE;
    case 'not':
      return NOT;
    case 'in':
    case 'empty':
    case 'role':
      return COMPARE;
    case 'neg':
      return UNARY;
    case 'literal':
      return typeof e.value === 'number' && (e.value < 0 || Object.is(e.value, -0)) ? UNARY : PRIMARY;
    default:
      return PRIMARY;
  }
}

function quote(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function number(n: number): string {
  if (Object.is(n, -0)) return '-0';
  // Non-finite numbers have no syntax; print something that reads as the nearest legal rule.
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'null' : n > 0 ? '1e999' : '-1e999';
  return String(n);
}

function at(e: Expr, min: number): string {
  const s = print(e);
  return level(e) < min ? `(${s})` : s;
}

function print(e: Expr): string {
  switch (e.kind) {
    case 'literal':
      if (e.value === null) return 'null';
      if (typeof e.value === 'boolean') return e.value ? 'true' : 'false';
      if (typeof e.value === 'number') return number(e.value);
      return quote(e.value);
    case 'name':
      return e.path.join('.');
    case 'me':
      return e.field === undefined ? 'me' : `me.${e.field}`;
    case 'this':
      return e.field === undefined ? 'this' : `this.${e.field}`;
    case 'now':
      return 'now';
    case 'today':
      return 'today';
    case 'binary': {
      const l = level(e);
      if (l === OR || l === AND || l === SUM || l === PRODUCT) {
        // Left-associative: the right operand needs a strictly tighter level.
        return `${at(e.left, l)} ${e.op} ${at(e.right, l + 1)}`;
      }
      return `${at(e.left, SUM)} ${e.op} ${at(e.right, SUM)}`;
    }
    case 'not':
      return `not ${at(e.operand, NOT)}`;
    case 'neg': {
      // `-5` would read back as a negative literal, so a negated number keeps its parentheses.
      const operand =
        e.operand.kind === 'literal' && typeof e.operand.value === 'number' ? PRIMARY + 1 : UNARY;
      return `-${at(e.operand, operand)}`;
    }
    case 'in':
      return `${at(e.operand, SUM)} ${e.negated ? 'not in' : 'in'} (${e.list.map((x) => at(x, SUM)).join(', ')})`;
    case 'empty':
      return `${at(e.operand, SUM)} is ${e.negated ? 'not ' : ''}empty`;
    case 'role':
      return `${at(e.subject, SUM)} is ${e.negated ? 'not ' : ''}${e.role}`;
    case 'call':
      return `${e.fn}(${e.args.map(print).join(', ')})`;
    case 'count':
      return `count(${e.entity}${e.where ? ` where ${print(e.where)}` : ''})`;
    case 'sum':
      return `sum(${e.entity}.${e.field}${e.where ? ` where ${print(e.where)}` : ''})`;
  }
}

/**
 * Prints a rule in canonical form: single spaces, single-quoted strings, `!=`, and only the
 * parentheses the grammar needs. `parseRule(printRule(e))` gives back `e` (spans aside) for
 * every tree whose names are not keywords.
 *
 * @example
 * printRule(parseRule('(a = 1) and ((b or c))').expr) // 'a = 1 and (b or c)'
 */
export function printRule(expr: Expr): string {
  return print(expr);
}

/** True when `name` can be printed as a bare name (not a keyword, legal characters). */
export function isPrintableName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !KEYWORDS.has(name);
}
