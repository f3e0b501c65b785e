import { isRelationRole, relationPath, relationRuleText, roleRelation } from '../spec/relationRoles.ts';
import { suggest } from '../spec/suggest.ts';
import { appTimeZone } from '../spec/temporal.ts';
import { isTimeZoneName } from '../spec/timeZone.ts';
import type { AppSpec } from '../spec/types.ts';
import { type Expr, type RuleType, type Span, type Typed, ZONED_FUNCTIONS } from './ast.ts';
import { constantRuleType, fieldNames, fieldRuleType, profileEntity } from './fieldType.ts';
import { parseRule } from './parse.ts';
import { type RuleError, ruleError } from './ruleError.ts';
import { parseDateText, parseDatetimeText, parseDurationText, TEMPORAL_CONSTANT_FORMS } from './temporal.ts';

/**
 * Where a rule is used. `entity` is the row the rule is about (null only for rules with no
 * row at all); `expect` is `'boolean'` (default) for conditions, `'value'` for transition
 * `set` expressions (`me`, `now`, `null`, a constant...).
 */
export interface RuleScope {
  entity: string | null;
  expect?: 'boolean' | 'value';
}

export type CheckResult = { ok: true; expr: Expr; typed: Typed } | { ok: false; errors: RuleError[] };

const BOOLEAN: RuleType = { kind: 'boolean' };
const NUMBER: RuleType = { kind: 'number' };
const TEXT: RuleType = { kind: 'text' };
const DATETIME: RuleType = { kind: 'datetime' };
const DURATION: RuleType = { kind: 'duration' };

/** Words for a type in messages: "a number", "a date", "a value of (open, closed)". */
export function typeName(t: RuleType): string {
  switch (t.kind) {
    case 'boolean':
      return 'true/false';
    case 'number':
      return 'a number';
    case 'text':
      return 'text';
    case 'datetime':
      return 'a date and time';
    case 'date':
      return 'a date';
    case 'duration':
      return 'a duration';
    case 'enum':
      return `one of (${t.values.join(', ')})`;
    case 'ref':
      return `a reference to ${t.entity || 'a row'}`;
    case 'tags':
      return 'a list of tags';
    case 'null':
      return 'null';
  }
}

/** Types that `=`/`!=`/`in` may compare. */
export function comparable(a: RuleType, b: RuleType): boolean {
  if (a.kind === 'null' || b.kind === 'null') return false;
  const textual = (t: RuleType) => t.kind === 'text' || t.kind === 'enum';
  const temporal = (t: RuleType) => t.kind === 'date' || t.kind === 'datetime';
  if (textual(a) && textual(b)) return true;
  if (temporal(a) && temporal(b)) return true;
  if (a.kind === 'ref' && b.kind === 'ref') return a.entity === b.entity;
  return a.kind === b.kind;
}

/** Types that `<`, `<=`, `>`, `>=` may order (never text: collations differ). */
export function orderable(a: RuleType, b: RuleType): boolean {
  const temporal = (t: RuleType) => t.kind === 'date' || t.kind === 'datetime';
  if (temporal(a) && temporal(b)) return true;
  return a.kind === b.kind && (a.kind === 'number' || a.kind === 'duration');
}

/** The result type of arithmetic, or undefined when the operands do not combine. */
export function arithmeticType(op: '+' | '-' | '*' | '/', a: RuleType, b: RuleType): RuleType | undefined {
  const k = `${a.kind}${op}${b.kind}`;
  switch (k) {
    case 'number+number':
    case 'number-number':
    case 'number*number':
    case 'number/number':
      return NUMBER;
    case 'datetime+duration':
    case 'duration+datetime':
    case 'datetime-duration':
    case 'date+duration':
    case 'duration+date':
    case 'date-duration':
      return DATETIME;
    case 'duration+duration':
    case 'duration-duration':
    case 'duration*number':
    case 'number*duration':
    case 'duration/number':
    case 'datetime-datetime':
    case 'datetime-date':
    case 'date-datetime':
      return DURATION;
    // As in Postgres: the difference of two dates is a whole number of days.
    case 'date-date':
    // How many times one duration fits in another (`(end - start) / hours(1)`).
    case 'duration/duration':
      return NUMBER;
    default:
      return undefined;
  }
}

interface Env {
  spec: AppSpec;
  errors: RuleError[];
  /** The rule's row. */
  outer: string | null;
  /** The counted entity inside count/sum, else null. */
  inner: string | null;
  /**
   * Inside the count a relationship role tested on a counted row expands to (`me is orgMember`
   * in `count(membership where ...)`): the counted row's entity, which `this` then names. Set only
   * there, so a count nests in a count only as that expansion.
   */
  enclosing?: string;
  /** Checking a relationship role's expansion on a counted row: its own count may nest once. */
  nestable?: boolean;
}

type NameExpr = Extract<Expr, { kind: 'name' }>;

const isBareName = (e: Expr): e is NameExpr => e.kind === 'name' && e.path.length === 1;

function scopeEntity(env: Env): { entity: string | null; scope: 'row' | 'inner' } {
  return env.inner !== null ? { entity: env.inner, scope: 'inner' } : { entity: env.outer, scope: 'row' };
}

function constantNames(env: Env): string[] {
  return Object.keys(env.spec.constants);
}

/** A field of the entity in scope or a constant; undefined (and no error) otherwise. */
function resolveBare(e: NameExpr, env: Env): Typed | undefined {
  const name = e.path[0] as string;
  const { entity, scope } = scopeEntity(env);
  if (entity !== null) {
    const type = fieldRuleType(env.spec, entity, name);
    if (type) return { kind: 'field', scope, entity, path: [name], type, span: e.span };
  }
  if (Object.hasOwn(env.spec.constants, name)) {
    const c = env.spec.constants[name];
    if (c) {
      // A duration constant's value is its length in milliseconds, as every duration at run time.
      const value =
        c.type === 'duration' && typeof c.value === 'string' ? (parseDurationText(c.value) ?? 0) : c.value;
      return { kind: 'const', name, value, type: constantRuleType(c.value, c.type), span: e.span };
    }
  }
  return undefined;
}

function unknownName(e: NameExpr, env: Env, values: readonly string[] = [], what = ''): null {
  const name = e.path[0] as string;
  const { entity } = scopeEntity(env);
  const fields = entity !== null ? fieldNames(env.spec, entity) : [];
  const s = suggest(name, [
    ...values,
    ...fields,
    ...constantNames(env),
    ...Object.keys(env.spec.roles.roles),
  ]);
  const kinds = entity !== null ? [`a field of ${entity}`, 'a constant'] : ['a constant'];
  if (what) kinds.push(what);
  const where = `${kinds.slice(0, -1).join(', ')} or ${kinds[kinds.length - 1]}`;
  const noRow = entity === null ? ' (this rule has no row to read fields from)' : '';
  env.errors.push(
    ruleError('rule/unknown-name', `"${name}" is not ${where}${noRow}`, e.span, s && `did you mean "${s}"?`),
  );
  return null;
}

function typeError(env: Env, message: string, span: Span, hint?: string): null {
  env.errors.push(ruleError('rule/type', message, span, hint));
  return null;
}

function scopeError(env: Env, message: string, span: Span, hint?: string): null {
  env.errors.push(ruleError('rule/scope', message, span, hint));
  return null;
}

function checkPath(e: NameExpr, env: Env): Typed | null {
  if (e.path.length === 1) return resolveBare(e, env) ?? unknownName(e, env);
  const [a, b] = e.path as readonly [string, string];
  const { entity, scope } = scopeEntity(env);
  if (entity === null) return unknownName({ ...e, path: [a] }, env);
  const refType = fieldRuleType(env.spec, entity, a);
  const aSpan = { start: e.span.start, end: e.span.start + a.length };
  if (!refType) {
    const s = suggest(a, fieldNames(env.spec, entity));
    env.errors.push(
      ruleError('rule/unknown-name', `unknown field "${a}" of ${entity}`, aSpan, s && `did you mean "${s}"?`),
    );
    return null;
  }
  if (refType.kind !== 'ref' || !env.spec.entities[refType.entity]) {
    return typeError(
      env,
      `"${a}" is ${typeName(refType)}, not a reference, so "${a}.${b}" cannot follow it`,
      e.span,
      'only ref and user fields can be followed with "."',
    );
  }
  const via = refType.entity;
  const type = fieldRuleType(env.spec, via, b);
  if (!type) {
    const s = suggest(b, fieldNames(env.spec, via));
    return scopeErrorUnknown(env, `unknown field "${b}" of ${via} (followed from "${a}")`, e.span, s);
  }
  return { kind: 'field', scope, entity, path: [a, b], via, type, span: e.span };
}

function scopeErrorUnknown(env: Env, message: string, span: Span, s: string | undefined): null {
  env.errors.push(ruleError('rule/unknown-name', message, span, s && `did you mean "${s}"?`));
  return null;
}

/** A bare name read as a value of an enum or tag list, or an unknown-name error. */
function asValue(e: NameExpr, env: Env, type: RuleType | undefined): Typed | null {
  const name = e.path[0] as string;
  const values = type?.kind === 'enum' ? type.values : type?.kind === 'tags' ? (type.values ?? []) : [];
  if (values.includes(name)) {
    return { kind: 'literal', value: name, type: { kind: 'enum', values }, span: e.span };
  }
  const what = values.length > 0 ? `one of (${values.join(', ')})` : '';
  return unknownName(e, env, values, what);
}

/**
 * A number literal beside an enum is that value's text: enum columns store text, so
 * `minutes = 45` means `minutes = '45'` when 45 is one of the values (`values: [25, 45]`).
 * Anything else is left as it is (and refused as comparing a number with an enum).
 */
function numberAsValue(t: Typed, other: Typed): Typed {
  if (t.kind !== 'literal' || typeof t.value !== 'number' || other.type.kind !== 'enum') return t;
  const text = String(t.value);
  return other.type.values.includes(text) ? { ...t, value: text, type: other.type } : t;
}

/** Checks a string literal compared with an enum names one of its values. */
function checkEnumLiteral(env: Env, lit: Typed, other: Typed): boolean {
  if (lit.kind !== 'literal' || typeof lit.value !== 'string' || other.type.kind !== 'enum') return true;
  const values = other.type.values;
  if (values.length === 0 || values.includes(lit.value)) return true;
  const s = suggest(lit.value, values);
  typeError(
    env,
    `'${lit.value}' is not one of (${values.join(', ')})`,
    lit.span,
    s ? `did you mean '${s}'?` : undefined,
  );
  return false;
}

function nullCompare(env: Env, side: Typed, span: Span): null {
  return typeError(
    env,
    'comparing with null is never true (an empty value is unknown, not equal)',
    side.span.start === side.span.end ? span : side.span,
    'write "x is empty" or "x is not empty"',
  );
}

/** Checks operands that may be enum values written bare (`status = open`, `status in (a, b)`). */
function checkOperands(exprs: readonly Expr[], env: Env): (Typed | null)[] {
  const first: (Typed | null | 'pending')[] = exprs.map((x) =>
    isBareName(x) ? (resolveBare(x, env) ?? 'pending') : check(x, env),
  );
  const context = first.find(
    (t): t is Typed => t !== null && t !== 'pending' && (t.type.kind === 'enum' || t.type.kind === 'tags'),
  );
  // Without an enum beside them, only the first unresolved name is reported: in `statsu = open`
  // the value "open" is only unknown because "statsu" is.
  let reported = false;
  return first.map((t, i) => {
    if (t !== 'pending') return t;
    if (!context && reported) return null;
    reported = true;
    return asValue(exprs[i] as NameExpr, env, context?.type);
  });
}

function checkCompare(e: Extract<Expr, { kind: 'binary' }>, env: Env): Typed | null {
  const [l0, r0] = checkOperands([e.left, e.right], env);
  if (!l0 || !r0) return null;
  const l = numberAsValue(l0, r0);
  const r = numberAsValue(r0, l0);
  if (l.type.kind === 'null') return nullCompare(env, l, e.span);
  if (r.type.kind === 'null') return nullCompare(env, r, e.span);
  const ordering = e.op !== '=' && e.op !== '!=';
  if (ordering && !orderable(l.type, r.type)) {
    const textual =
      l.type.kind === 'text' || l.type.kind === 'enum' || r.type.kind === 'text' || r.type.kind === 'enum';
    return typeError(
      env,
      `"${e.op}" cannot order ${typeName(l.type)} and ${typeName(r.type)}`,
      e.span,
      textual
        ? 'text is never ordered (the browser and the database sort it differently); compare with = or in (...)'
        : 'ordering works on numbers, dates, times and durations of the same kind',
    );
  }
  if (!ordering && !comparable(l.type, r.type)) {
    return typeError(env, `cannot compare ${typeName(l.type)} with ${typeName(r.type)}`, e.span);
  }
  if (!checkEnumLiteral(env, l, r) || !checkEnumLiteral(env, r, l)) return null;
  return { kind: 'binary', op: e.op, left: l, right: r, type: BOOLEAN, span: e.span };
}

function checkBinary(e: Extract<Expr, { kind: 'binary' }>, env: Env): Typed | null {
  switch (e.op) {
    case 'and':
    case 'or': {
      const l = check(e.left, env);
      const r = check(e.right, env);
      if (!l || !r) return null;
      for (const side of [l, r]) {
        if (side.type.kind !== 'boolean') {
          return typeError(
            env,
            `"${e.op}" needs true/false on both sides; this is ${typeName(side.type)}`,
            side.span,
          );
        }
      }
      return { kind: 'binary', op: e.op, left: l, right: r, type: BOOLEAN, span: e.span };
    }
    case 'contains': {
      const l = check(e.left, env);
      if (!l) {
        if (isBareName(e.right)) resolveBare(e.right, env);
        else check(e.right, env);
        return null;
      }
      if (l.type.kind !== 'tags') {
        if (!isBareName(e.right)) check(e.right, env);
        return typeError(
          env,
          `"contains" needs a list of tags on the left; this is ${typeName(l.type)}`,
          l.span,
        );
      }
      const r = isBareName(e.right)
        ? (resolveBare(e.right, env) ?? asValue(e.right, env, l.type))
        : check(e.right, env);
      if (!r) return null;
      if (r.type.kind !== 'text' && r.type.kind !== 'enum') {
        return typeError(env, `"contains" looks for a tag (text); this is ${typeName(r.type)}`, r.span);
      }
      const values = l.type.values;
      if (
        r.kind === 'literal' &&
        typeof r.value === 'string' &&
        values &&
        values.length > 0 &&
        !values.includes(r.value)
      ) {
        const s = suggest(r.value, values);
        return typeError(
          env,
          `'${r.value}' is not one of the tags (${values.join(', ')})`,
          r.span,
          s && `did you mean '${s}'?`,
        );
      }
      return { kind: 'binary', op: 'contains', left: l, right: r, type: BOOLEAN, span: e.span };
    }
    case '+':
    case '-':
    case '*':
    case '/': {
      const l = check(e.left, env);
      const r = check(e.right, env);
      if (!l || !r) return null;
      if (l.type.kind === 'null' || r.type.kind === 'null') {
        return typeError(env, `arithmetic with null is always empty`, e.span, 'remove the null');
      }
      const type = arithmeticType(e.op, l.type, r.type);
      if (!type) {
        return typeError(
          env,
          `cannot compute ${typeName(l.type)} ${e.op} ${typeName(r.type)}`,
          e.span,
          l.type.kind === 'datetime' || r.type.kind === 'datetime' || l.type.kind === 'date'
            ? 'add or subtract durations such as days(3), hours(2), minutes(30)'
            : undefined,
        );
      }
      return { kind: 'binary', op: e.op, left: l, right: r, type, span: e.span };
    }
    default:
      return checkCompare(e, env);
  }
}

function checkRole(e: Extract<Expr, { kind: 'role' }>, env: Env): Typed | null {
  const subject = isBareName(e.subject)
    ? (resolveBare(e.subject, env) ?? unknownName(e.subject, env))
    : check(e.subject, env);
  const roles = env.spec.roles.roles;
  const roleSpan = { start: e.span.end - e.role.length, end: e.span.end };
  if (!Object.hasOwn(roles, e.role)) {
    const valueHint =
      subject?.type.kind === 'enum' && subject.type.values.includes(e.role)
        ? `"is" tests roles; to test a value write "${e.negated ? '!=' : '='} ${e.role}"`
        : undefined;
    const s = suggest(e.role, Object.keys(roles));
    env.errors.push(
      ruleError(
        'rule/unknown-name',
        `unknown role "${e.role}"`,
        roleSpan,
        valueHint ?? (s && `did you mean "${s}"?`),
      ),
    );
    return null;
  }
  if (!subject) return null;
  const profile = profileEntity(env.spec);
  if (subject.type.kind !== 'ref' || subject.type.entity !== profile) {
    return typeError(
      env,
      `only people hold roles; this is ${typeName(subject.type)}`,
      subject.span,
      'use me or a user field before "is"',
    );
  }
  if (isRelationRole(env.spec, e.role)) return checkRelationRole(e, env);
  return { kind: 'role', subject, role: e.role, negated: e.negated, type: BOOLEAN, span: e.span };
}

/** Every node of a parsed expression given one span (an expansion is reported where it was written). */
function respan(e: Expr, span: Span): Expr {
  const out = { ...e, span } as Record<string, unknown>;
  for (const [k, v] of Object.entries(e)) {
    if (k === 'span') continue;
    if (Array.isArray(v)) out[k] = v.map((x) => (isExpr(x) ? respan(x, span) : x));
    else if (isExpr(v)) out[k] = respan(v, span);
  }
  return out as Expr;
}

function isExpr(v: unknown): v is Expr {
  return typeof v === 'object' && v !== null && 'kind' in v && 'span' in v;
}

/**
 * `x is r` for a role held through a relationship (`through`): the relationship written in the rule
 * language for the rule's row (`relationRuleText`), the person `x` in place of `me`, checked in the
 * same scope. A `count(...) >= 1` it makes is marked `exists` (SQL: the person's scopes read once,
 * or an EXISTS inside another count; index-backed).
 */
function checkRelationRole(e: Extract<Expr, { kind: 'role' }>, env: Env): Typed | null {
  const relation = roleRelation(env.spec, e.role);
  if (!relation) return null;
  if (env.enclosing !== undefined)
    return scopeError(
      env,
      `"${e.role}" is held through a relationship and cannot be tested inside another role's relationship`,
      e.span,
    );
  // On a counted row (`count(membership where person = this.id and me is orgMember)`), the role
  // is held on that row: its expansion is checked in the count, its own count nested once.
  const rowEntity = env.inner ?? env.outer;
  if (rowEntity === null)
    return scopeError(env, `"${e.role}" is held on rows, and this rule has no row`, e.span);
  const path = relationPath(env.spec, e.role, rowEntity);
  if (!path.ok) return scopeError(env, path.message, e.span, path.hint);
  const parsed = parseRule(relationRuleText(relation, path.via, 'me'));
  if (!parsed.ok) return scopeError(env, `"${e.role}": ${parsed.error.message}`, e.span);
  const subject = (inCount: boolean): Expr | null => {
    const s = e.subject;
    if (s.kind === 'me') return s;
    if (s.kind === 'name' && s.path.length === 1)
      return inCount ? { kind: 'this', field: s.path[0] as string, span: s.span } : s;
    return null;
  };
  let unsupported = false;
  const swap = (x: Expr, inCount: boolean): Expr => {
    if (x.kind === 'me' && x.field === undefined) {
      const s = subject(inCount);
      if (s === null) unsupported = true;
      return s ?? x;
    }
    const out = { ...x } as Record<string, unknown>;
    const nested = inCount || x.kind === 'count';
    for (const [k, v] of Object.entries(x)) {
      if (Array.isArray(v)) out[k] = v.map((y) => (isExpr(y) ? swap(y, nested) : y));
      else if (isExpr(v)) out[k] = swap(v, nested);
    }
    return out as Expr;
  };
  const expanded = respan(swap(parsed.expr, false), e.span);
  if (unsupported)
    return scopeError(
      env,
      `"${e.role}" is held through a relationship: the person before "is" must be me, me.field or a field of the row`,
      e.subject.span,
    );
  const typed = check(expanded, env.inner === null ? env : { ...env, nestable: true });
  if (!typed) return null;
  const marked = markExists(typed);
  return e.negated ? { kind: 'not', operand: marked, type: BOOLEAN, span: e.span } : marked;
}

/** `count(...) >= 1` marked as an existence test (SQL: `exists (select 1 ...)`). */
function markExists(t: Typed): Typed {
  if (t.kind === 'binary' && t.op === '>=' && t.left.kind === 'count')
    return { ...t, left: { ...t.left, exists: true } };
  return t;
}

/** `this` / `this.field`: the outer row inside count/sum (the enclosing counted row in a role's nested count). */
function checkThis(e: Extract<Expr, { kind: 'this' }>, env: Env): Typed | null {
  if (env.inner === null) {
    return scopeError(
      env,
      '"this" means the outer row and is only allowed inside count(...) or sum(...)',
      e.span,
      e.field ? `write "${e.field}"` : undefined,
    );
  }
  // In a relationship role's count nested in a count, `this` is the enclosing counted row.
  const rowOf = env.enclosing ?? env.outer;
  const enclosing = env.enclosing !== undefined ? { enclosing: true as const } : {};
  if (rowOf === null) return scopeError(env, '"this" has no row here: the rule is not about a row', e.span);
  if (e.field === undefined)
    return {
      kind: 'this',
      entity: rowOf,
      type: { kind: 'ref', entity: rowOf },
      ...enclosing,
      span: e.span,
    };
  const type = fieldRuleType(env.spec, rowOf, e.field);
  if (!type) {
    return scopeErrorUnknown(
      env,
      `unknown field "${e.field}" of ${rowOf}`,
      e.span,
      suggest(e.field, fieldNames(env.spec, rowOf)),
    );
  }
  return { kind: 'this', field: e.field, entity: rowOf, type, ...enclosing, span: e.span };
}

function checkAggregate(e: Extract<Expr, { kind: 'count' | 'sum' }>, env: Env): Typed | null {
  const entitySpan = {
    start: e.span.start + e.kind.length + 1,
    end: e.span.start + e.kind.length + 1 + e.entity.length,
  };
  if (env.inner !== null && env.nestable !== true) {
    return scopeError(
      env,
      `${e.kind}(...) cannot be nested inside another count or sum`,
      e.span,
      'split the rule in two',
    );
  }
  if (!Object.hasOwn(env.spec.entities, e.entity)) {
    const s = suggest(e.entity, Object.keys(env.spec.entities));
    env.errors.push(
      ruleError('rule/unknown-name', `unknown entity "${e.entity}"`, entitySpan, s && `did you mean "${s}"?`),
    );
    return null;
  }
  const inner: Env =
    env.inner !== null
      ? { ...env, inner: e.entity, enclosing: env.inner, nestable: false }
      : { ...env, inner: e.entity };
  let where: Typed | null | undefined;
  if (e.where) {
    where = check(e.where, inner);
    if (where && where.type.kind !== 'boolean') {
      where = typeError(
        env,
        `the condition after "where" must be true/false; this is ${typeName(where.type)}`,
        where.span,
      );
    }
    if (!where) return null;
  }
  if (e.kind === 'count') {
    return where
      ? { kind: 'count', entity: e.entity, where, type: NUMBER, span: e.span }
      : { kind: 'count', entity: e.entity, type: NUMBER, span: e.span };
  }
  const ft = fieldRuleType(env.spec, e.entity, e.field);
  if (!ft) {
    const s = suggest(e.field, fieldNames(env.spec, e.entity));
    return scopeErrorUnknown(env, `unknown field "${e.field}" of ${e.entity}`, e.span, s);
  }
  if (ft.kind !== 'number') {
    return typeError(env, `sum(...) adds numbers; ${e.entity}.${e.field} is ${typeName(ft)}`, e.span);
  }
  return where
    ? { kind: 'sum', entity: e.entity, field: e.field, where, type: NUMBER, span: e.span }
    : { kind: 'sum', entity: e.entity, field: e.field, type: NUMBER, span: e.span };
}

function checkCall(e: Extract<Expr, { kind: 'call' }>, env: Env): Typed | null {
  const literalArg = e.args.length === 1 && e.args[0]?.kind === 'literal';
  if (e.fn === 'datetime' || (e.fn === 'date' && literalArg)) return checkTemporalLiteral(e, e.fn, env);
  if (ZONED_FUNCTIONS.has(e.fn)) return checkZoned(e, env);
  const args = e.args.map((a) => check(a, env));
  if (args.length !== 1) {
    return typeError(env, `${e.fn}(...) takes exactly one argument, not ${args.length}`, e.span);
  }
  const a = args[0];
  if (!a) return null;
  if (e.fn === 'days' || e.fn === 'hours' || e.fn === 'minutes') {
    if (a.type.kind !== 'number')
      return typeError(env, `${e.fn}(...) needs a number; this is ${typeName(a.type)}`, a.span);
    return { kind: 'call', fn: e.fn, args: [a], type: DURATION, span: e.span };
  }
  if (a.type.kind !== 'text' && a.type.kind !== 'enum') {
    return typeError(env, `${e.fn}(...) needs text; this is ${typeName(a.type)}`, a.span);
  }
  return { kind: 'call', fn: e.fn, args: [a], type: e.fn === 'length' ? NUMBER : TEXT, span: e.span };
}

const ZONED_TYPES: Record<string, RuleType> = {
  hour: NUMBER,
  weekday: NUMBER,
  startOfDay: DATETIME,
  date: { kind: 'date' },
};

/**
 * `hour(t)`, `weekday(t)`, `startOfDay(t)`, `date(t)`: wall-clock readings of a date or time in
 * the app's time zone (its `timezone` constant, UTC without one), which the typed node carries.
 * A second argument names the zone instead, read from the row (`hour(t, organisation.timeZone)`).
 */
function checkZoned(e: Extract<Expr, { kind: 'call' }>, env: Env): Typed | null {
  const args = e.args.map((a) => check(a, env));
  if (args.length !== 1 && args.length !== 2) {
    return typeError(env, `${e.fn}(...) takes one or two arguments, not ${args.length}`, e.span);
  }
  const [a, z] = args;
  if (!a || (args.length === 2 && !z)) return null;
  if (a.type.kind !== 'datetime' && a.type.kind !== 'date') {
    return typeError(
      env,
      `${e.fn}(...) needs a date or a date and time; this is ${typeName(a.type)}`,
      a.span,
      e.fn === 'date' ? 'a literal date is written date("2027-06-30")' : undefined,
    );
  }
  const type = ZONED_TYPES[e.fn] ?? NUMBER;
  if (z) return zoneArgument(e, a, z, type, env);
  return { kind: 'call', fn: e.fn, args: [a], zone: appTimeZone(env.spec.constants), type, span: e.span };
}

/**
 * `hour(t, zone)`: the zone is a quoted zone name or an enum of IANA zone names (a field of the
 * row, or one hop), so both back ends know every zone it can hold.
 */
function zoneArgument(
  e: Extract<Expr, { kind: 'call' }>,
  a: Typed,
  z: Typed,
  type: RuleType,
  env: Env,
): Typed | null {
  if (z.kind === 'literal' && typeof z.value === 'string') {
    if (isTimeZoneName(z.value)) return { kind: 'call', fn: e.fn, args: [a, z], type, span: e.span };
    return typeError(env, `"${z.value}" is not a time zone name the engines know`, z.span, 'like "UTC"');
  }
  if (z.type.kind !== 'enum') {
    return typeError(
      env,
      `the time zone of ${e.fn}(...) must be a choice of time zone names; this is ${typeName(z.type)}`,
      z.span,
      'an enum field whose values are IANA names, like values: ["Europe/Berlin", "Asia/Tokyo"]',
    );
  }
  const bad = z.type.values.find((v) => !isTimeZoneName(v));
  if (bad !== undefined) {
    return typeError(
      env,
      `"${bad}" is not a time zone name the engines know`,
      z.span,
      'like "Europe/Berlin"',
    );
  }
  return { kind: 'call', fn: e.fn, args: [a, z], type, span: e.span };
}

/** `date("2027-06-30")`, `datetime("2027-06-30T18:00:00Z")`: a literal point in time. */
function checkTemporalLiteral(
  e: Extract<Expr, { kind: 'call' }>,
  fn: 'date' | 'datetime',
  env: Env,
): Typed | null {
  const [a] = e.args;
  const example = fn === 'date' ? 'date("2027-06-30")' : 'datetime("2027-06-30T18:00:00Z")';
  if (e.args.length !== 1 || a?.kind !== 'literal' || typeof a.value !== 'string') {
    return typeError(
      env,
      `${fn}(...) takes one quoted ${fn === 'date' ? 'date' : 'date and time'}, like ${example}`,
      e.span,
    );
  }
  const ms = fn === 'date' ? parseDateText(a.value) : parseDatetimeText(a.value);
  if (ms === null) {
    return typeError(env, `${JSON.stringify(a.value)} is not ${TEMPORAL_CONSTANT_FORMS[fn]}`, a.span);
  }
  return { kind: 'literal', value: a.value, type: { kind: fn }, span: e.span };
}

function check(e: Expr, env: Env): Typed | null {
  switch (e.kind) {
    case 'literal': {
      const v = e.value;
      const type: RuleType =
        v === null
          ? { kind: 'null' }
          : typeof v === 'number'
            ? NUMBER
            : typeof v === 'boolean'
              ? BOOLEAN
              : TEXT;
      return { kind: 'literal', value: v, type, span: e.span };
    }
    case 'name':
      return checkPath(e, env);
    case 'me': {
      const profile = profileEntity(env.spec);
      if (e.field === undefined)
        return { kind: 'me', type: { kind: 'ref', entity: profile ?? '' }, span: e.span };
      if (profile === undefined) {
        return scopeError(env, `"me.${e.field}" needs an entity marked profile: true`, e.span);
      }
      const type = fieldRuleType(env.spec, profile, e.field);
      if (!type) {
        return scopeErrorUnknown(
          env,
          `unknown field "${e.field}" of ${profile} (the current user's profile)`,
          e.span,
          suggest(e.field, fieldNames(env.spec, profile)),
        );
      }
      return { kind: 'me', field: e.field, profile, type, span: e.span };
    }
    case 'now':
      return { kind: 'now', type: DATETIME, span: e.span };
    case 'today':
      return { kind: 'today', type: { kind: 'date' }, span: e.span };
    case 'this':
      return checkThis(e, env);
    case 'binary':
      return checkBinary(e, env);
    case 'not': {
      const operand = check(e.operand, env);
      if (!operand) return null;
      if (operand.type.kind !== 'boolean')
        return typeError(env, `"not" needs true/false; this is ${typeName(operand.type)}`, operand.span);
      return { kind: 'not', operand, type: BOOLEAN, span: e.span };
    }
    case 'neg': {
      const operand = check(e.operand, env);
      if (!operand) return null;
      if (operand.type.kind !== 'number' && operand.type.kind !== 'duration') {
        return typeError(
          env,
          `"-" needs a number or a duration; this is ${typeName(operand.type)}`,
          operand.span,
        );
      }
      return { kind: 'neg', operand, type: operand.type, span: e.span };
    }
    case 'in': {
      const all = checkOperands([e.operand, ...e.list], env);
      if (all.some((t) => t === null)) return null;
      const [operand, ...raw] = all as Typed[];
      if (!operand) return null;
      const list = raw.map((item) => numberAsValue(item, operand));
      if (operand.type.kind === 'null') return nullCompare(env, operand, e.span);
      for (const item of list) {
        if (item.type.kind === 'null') return nullCompare(env, item, e.span);
        if (!comparable(operand.type, item.type)) {
          return typeError(
            env,
            `cannot compare ${typeName(operand.type)} with ${typeName(item.type)}`,
            item.span,
          );
        }
        if (!checkEnumLiteral(env, item, operand) || !checkEnumLiteral(env, operand, item)) return null;
      }
      return { kind: 'in', operand, list, negated: e.negated, type: BOOLEAN, span: e.span };
    }
    case 'empty': {
      const operand = isBareName(e.operand)
        ? (resolveBare(e.operand, env) ?? unknownName(e.operand, env))
        : check(e.operand, env);
      if (!operand) return null;
      return { kind: 'empty', operand, negated: e.negated, type: BOOLEAN, span: e.span };
    }
    case 'role':
      return checkRole(e, env);
    case 'call':
      return checkCall(e, env);
    case 'count':
    case 'sum':
      return checkAggregate(e, env);
  }
}

/**
 * Parses a rule and checks it against a specification: resolves every name (fields of the
 * row in scope, constants, enum/status values, roles, one-hop references), checks types and
 * scope, and returns the `Typed` tree — or every error found, each positioned, with a
 * "did you mean" hint for misspelt names. Never throws.
 *
 * @example
 * checkRule(spec, 'requestr = me', { entity: 'ticket' })
 * // { ok: false, errors: [{ code: 'rule/unknown-name', message: 'unknown name "requestr": ...',
 * //   hint: 'did you mean "requester"?', span: { start: 0, end: 8 } }] }
 */
export function checkRule(spec: AppSpec, text: string, scope: RuleScope): CheckResult {
  const parsed = parseRule(text);
  if (!parsed.ok) return { ok: false, errors: [parsed.error] };
  return checkExpr(spec, parsed.expr, scope);
}

/** `checkRule` for an already parsed rule. */
export function checkExpr(spec: AppSpec, expr: Expr, scope: RuleScope): CheckResult {
  const env: Env = { spec, errors: [], outer: scope.entity, inner: null };
  const all = { start: expr.span.start, end: expr.span.end };
  try {
    if (scope.entity !== null && !Object.hasOwn(spec.entities, scope.entity)) {
      return {
        ok: false,
        errors: [ruleError('rule/scope', `the rule's entity "${scope.entity}" does not exist`, all)],
      };
    }
    const typed = check(expr, env);
    if (typed && (scope.expect ?? 'boolean') === 'boolean' && typed.type.kind !== 'boolean') {
      typeError(env, `a rule must be true or false; this is ${typeName(typed.type)}`, typed.span);
    }
    if (!typed || env.errors.length > 0) {
      return {
        ok: false,
        errors: env.errors.length > 0 ? env.errors : [ruleError('rule/type', 'invalid rule', all)],
      };
    }
    return { ok: true, expr, typed };
  } catch (e) {
    return { ok: false, errors: [ruleError('rule/syntax', `could not check the rule (${String(e)})`, all)] };
  }
}
