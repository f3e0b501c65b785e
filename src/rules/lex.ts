import { KEYWORDS } from '../spec/reservedNames.ts';
import type { Span } from './ast.ts';
import { type RuleError, ruleError } from './ruleError.ts';

// The keywords are spelled in the specification layer (a name there may not be one); the lexer
// reads them from there.
export { KEYWORDS };

export type TokenKind = 'number' | 'string' | 'name' | 'keyword' | 'op' | 'eof';

export interface Token {
  kind: TokenKind;
  /** The token's text; for strings the unescaped contents; `<>` is normalised to `!=`. */
  text: string;
  /** For numbers. */
  value?: number;
  span: Span;
}

const SINGLE_OPS = new Set(['=', '<', '>', '+', '-', '*', '/', '(', ')', ',', '.']);

function isNameStart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

function isNamePart(c: string): boolean {
  return isNameStart(c) || isDigit(c);
}

/**
 * Splits rule text into tokens. Never throws: the first bad character or unterminated
 * string becomes a positioned `rule/syntax` error.
 *
 * @example
 * lex('a >= 2') // { ok: true, tokens: [name a, op >=, number 2, eof] }
 */
export function lex(text: string): { ok: true; tokens: Token[] } | { ok: false; error: RuleError } {
  const tokens: Token[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i] as string;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    const start = i;
    if (isDigit(c)) {
      while (isDigit(text[i])) i++;
      if (text[i] === '.' && isDigit(text[i + 1])) {
        i++;
        while (isDigit(text[i])) i++;
      }
      if (text[i] === 'e' || text[i] === 'E') {
        const save = i;
        i++;
        if (text[i] === '+' || text[i] === '-') i++;
        if (isDigit(text[i])) {
          while (isDigit(text[i])) i++;
        } else {
          i = save;
        }
      }
      if (i < n && isNameStart(text[i] as string)) {
        return {
          ok: false,
          error: ruleError('rule/syntax', `a number cannot run into a name: "${text.slice(start, i + 1)}"`, {
            start,
            end: i + 1,
          }),
        };
      }
      const raw = text.slice(start, i);
      const value = Number(raw);
      if (!Number.isFinite(value)) {
        return {
          ok: false,
          error: ruleError('rule/syntax', `number out of range: ${raw}`, { start, end: i }),
        };
      }
      tokens.push({ kind: 'number', text: raw, value, span: { start, end: i } });
      continue;
    }
    if (isNameStart(c)) {
      while (i < n && isNamePart(text[i] as string)) i++;
      const word = text.slice(start, i);
      tokens.push({ kind: KEYWORDS.has(word) ? 'keyword' : 'name', text: word, span: { start, end: i } });
      continue;
    }
    if (c === "'" || c === '"') {
      i++;
      let out = '';
      let closed = false;
      while (i < n) {
        const d = text[i] as string;
        if (d === c) {
          closed = true;
          i++;
          break;
        }
        if (d === '\\' && i + 1 < n) {
          const e = text[i + 1] as string;
          out += e === 'n' ? '\n' : e === 't' ? '\t' : e;
          i += 2;
          continue;
        }
        out += d;
        i++;
      }
      if (!closed) {
        return {
          ok: false,
          error: ruleError('rule/syntax', 'unterminated string', { start, end: n }, `close it with ${c}`),
        };
      }
      tokens.push({ kind: 'string', text: out, span: { start, end: i } });
      continue;
    }
    const two = text.slice(i, i + 2);
    if (two === '!=' || two === '<>' || two === '<=' || two === '>=') {
      tokens.push({ kind: 'op', text: two === '<>' ? '!=' : two, span: { start, end: i + 2 } });
      i += 2;
      continue;
    }
    if (SINGLE_OPS.has(c)) {
      tokens.push({ kind: 'op', text: c, span: { start, end: i + 1 } });
      i++;
      continue;
    }
    const cp = text.codePointAt(i) ?? 0;
    const ch = String.fromCodePoint(cp);
    return {
      ok: false,
      error: ruleError(
        'rule/syntax',
        `unexpected character "${ch}"`,
        { start, end: i + ch.length },
        c === '!' ? 'write "not" or "!="' : c === '&' ? 'write "and"' : c === '|' ? 'write "or"' : undefined,
      ),
    };
  }
  tokens.push({ kind: 'eof', text: '', span: { start: n, end: n } });
  return { ok: true, tokens };
}
