import { humanize } from '../spec/humanize.ts';
import { profileEntity } from '../spec/profileEntity.ts';
import type { AppSpec } from '../spec/types.ts';
import type { Expr } from './ast.ts';

/**
 * What the words of a rule read of its app: entities (fields and labels), constants, state labels
 * and role labels. A specification is one; the document builds one from the resolved model.
 */
export interface DescribeScope {
  entities: AppSpec['entities'];
  constants: Readonly<Record<string, Pick<AppSpec['constants'][string], 'label' | 'type'>>>;
  states: AppSpec['states'];
  roles: { roles: Readonly<Record<string, { label: string }>> };
}

interface Ctx {
  spec: DescribeScope | undefined;
  /** The rule's entity, if known. */
  entity: string | undefined;
  /** The counted entity inside count/sum. */
  inner: string | undefined;
}

/** `closedAt` → `closed at`, `reopen_window` → `reopen window`: the one `humanize`, in running text. */
export function humanizeWords(name: string): string {
  return humanize(name).toLowerCase();
}

/** Lower-cases the first letter of a label unless it starts an acronym ("Requester" → "requester", "VAT" stays). */
function lowerFirst(s: string): string {
  return /^[A-Z][a-z]/.test(s) || /^[A-Z]$/.test(s) ? s[0]?.toLowerCase() + s.slice(1) : s;
}

function entityOf(c: Ctx, field: string): string | undefined {
  const scoped = c.inner ?? c.entity;
  if (scoped) return scoped;
  if (!c.spec) return undefined;
  return Object.keys(c.spec.entities).find((e) => Object.hasOwn(c.spec?.entities[e]?.fields ?? {}, field));
}

function fieldSpec(c: Ctx, entity: string | undefined, field: string) {
  if (!entity || !c.spec) return undefined;
  const fields = c.spec.entities[entity]?.fields;
  return fields && Object.hasOwn(fields, field) ? fields[field] : undefined;
}

function fieldLabel(c: Ctx, entity: string | undefined, field: string): string {
  const f = fieldSpec(c, entity, field);
  return f?.label ? lowerFirst(f.label) : humanizeWords(field);
}

function isConstant(c: Ctx, name: string): boolean {
  return (
    !!c.spec && Object.hasOwn(c.spec.constants, name) && fieldSpec(c, entityOf(c, name), name) === undefined
  );
}

function entityWords(c: Ctx, entity: string, plural: boolean): string {
  const e = c.spec?.entities[entity];
  if (!e) return humanizeWords(entity) + (plural ? 's' : '');
  return lowerFirst(plural ? (e.plural ?? `${e.label}s`) : e.label);
}

function isTemporal(e: Expr, c: Ctx): boolean {
  switch (e.kind) {
    case 'now':
    case 'today':
      return true;
    case 'call':
      return ['days', 'hours', 'minutes', 'date', 'datetime'].includes(e.fn);
    case 'binary':
      return (e.op === '+' || e.op === '-') && (isTemporal(e.left, c) || isTemporal(e.right, c));
    case 'neg':
      return isTemporal(e.operand, c);
    case 'name': {
      const [a, b] = e.path as readonly [string, string | undefined];
      if (b === undefined && c.spec?.constants[a]?.type !== undefined) return true;
      const entity = entityOf(c, a);
      let f = fieldSpec(c, entity, a);
      if (b !== undefined) f = f?.ref ? fieldSpec(c, f.ref, b) : undefined;
      if (f) return f.type === 'date' || f.type === 'datetime';
      return /(At|Date|On)$/.test(b ?? a);
    }
    case 'me':
    case 'this':
      return e.field !== undefined && /(At|Date|On)$/.test(e.field);
    default:
      return false;
  }
}

/** The spec of the field a name expression reads (`stage`, `ticket.priority`), if any. */
function fieldOfName(c: Ctx, e: Expr): { entity: string | undefined; field: string } | undefined {
  if (e.kind === 'this' && e.field !== undefined) return { entity: c.entity, field: e.field };
  if (e.kind !== 'name') return undefined;
  const [a, b] = e.path as readonly [string, string | undefined];
  const entity = entityOf(c, a);
  if (b === undefined) return fieldSpec(c, entity, a) ? { entity, field: a } : undefined;
  const f = fieldSpec(c, entity, a);
  const target = f?.ref ?? (f?.type === 'user' ? profileOf(c) : undefined);
  return fieldSpec(c, target, b) ? { entity: target, field: b } : undefined;
}

/**
 * A value compared with an enum, tags or status field, by the label the spec gives it
 * (`stage = 'on hold'` → "stage is Waiting on the board"): the words the forms and badges show.
 * Undefined when the value has no label of its own (it is then printed as before).
 */
function valueLabel(c: Ctx, field: Expr, value: Expr): string | undefined {
  const target = fieldOfName(c, field);
  if (!target) return undefined;
  let raw: string | undefined;
  if (value.kind === 'literal' && (typeof value.value === 'string' || typeof value.value === 'number'))
    raw = String(value.value);
  else if (value.kind === 'name' && value.path.length === 1) {
    const [n] = value.path as readonly [string];
    if (!isConstant(c, n) && !fieldSpec(c, entityOf(c, n), n)) raw = n;
  }
  if (raw === undefined) return undefined;
  const value_ = raw;
  // A label that only spells the value out ("Done" for done) adds nothing, and an imported document
  // carries such labels explicitly: the sentence must read the same either way.
  const own = (label: string | undefined) =>
    label !== undefined && label !== humanize(value_) ? label : undefined;
  const f = fieldSpec(c, target.entity, target.field);
  if (f?.type === 'status') {
    const st = target.entity ? c.spec?.states[target.entity] : undefined;
    return own(st?.states[raw]?.label);
  }
  if (f?.type !== 'enum' && f?.type !== 'tags') return undefined;
  for (const v of f.values ?? []) if (typeof v === 'object' && String(v.value) === raw) return own(v.label);
  return undefined;
}

function list(items: readonly string[], word: string): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${word} ${items[items.length - 1]}`;
}

const COMPARE_WORDS = {
  '=': ['is', 'is'],
  '!=': ['is not', 'is not'],
  '<': ['is less than', 'is before'],
  '<=': ['is at most', 'is on or before'],
  '>': ['is more than', 'is after'],
  '>=': ['is at least', 'is on or after'],
} as const;

const ARITH_WORDS = { '+': 'plus', '-': 'minus', '*': 'times', '/': 'divided by' } as const;

function isLogic(e: Expr): boolean {
  return e.kind === 'binary' && (e.op === 'and' || e.op === 'or');
}

function isCondition(e: Expr): boolean {
  return (
    isLogic(e) ||
    e.kind === 'not' ||
    e.kind === 'in' ||
    e.kind === 'empty' ||
    e.kind === 'role' ||
    (e.kind === 'binary' && (e.op in COMPARE_WORDS || e.op === 'contains'))
  );
}

/** A value position: conditions inside get parentheses so the sentence stays unambiguous. */
function operand(e: Expr, c: Ctx, the = false): string {
  const s = words(e, c, the);
  return isCondition(e) ? `(${s})` : s;
}

const arithLevel = (e: Expr): number =>
  e.kind === 'binary' && (e.op === '+' || e.op === '-')
    ? 1
    : e.kind === 'binary' && (e.op === '*' || e.op === '/')
      ? 2
      : 3;

/** An arithmetic operand: parenthesised when it binds looser than its position needs (as the printer). */
function term(e: Expr, c: Ctx, min: number): string {
  const s = operand(e, c);
  return arithLevel(e) < min ? `(${s})` : s;
}

function words(e: Expr, c: Ctx, the = false): string {
  switch (e.kind) {
    case 'literal':
      if (e.value === null) return 'empty';
      if (typeof e.value === 'string') return `"${e.value}"`;
      return String(e.value);
    case 'name': {
      const [a, b] = e.path as readonly [string, string | undefined];
      if (b === undefined && isConstant(c, a)) return c.spec?.constants[a]?.label ?? humanizeWords(a);
      const entity = entityOf(c, a);
      const f = fieldSpec(c, entity, a);
      const label = fieldLabel(c, entity, a);
      if (b !== undefined)
        return `the ${label}'s ${fieldLabel(c, f?.ref ?? (f?.type === 'user' ? profileOf(c) : undefined), b)}`;
      const isRef = f?.type === 'ref' || f?.type === 'user';
      return isRef || the ? `the ${label}` : label;
    }
    case 'me':
      return e.field === undefined
        ? 'the current user'
        : `the current user's ${fieldLabel(c, profileOf(c), e.field)}`;
    case 'this': {
      const what = c.entity ? `this ${entityWords(c, c.entity, false)}` : 'this record';
      return e.field === undefined ? what : `${what}'s ${fieldLabel(c, c.entity, e.field)}`;
    }
    case 'now':
      return 'now';
    case 'today':
      return 'today';
    case 'not': {
      const o = e.operand;
      if (o.kind === 'name' || o.kind === 'me' || o.kind === 'this') return `not ${words(o, c)}`;
      return `it is not true that ${isLogic(o) ? `(${words(o, c)})` : words(o, c)}`;
    }
    case 'neg':
      return `minus ${term(e.operand, c, 3)}`;
    case 'binary': {
      if (e.op === 'and' || e.op === 'or') {
        const side = (x: Expr) =>
          isLogic(x) && x.kind === 'binary' && x.op !== e.op ? `(${words(x, c)})` : words(x, c);
        return `${side(e.left)} ${e.op} ${side(e.right)}`;
      }
      if (e.op === 'contains')
        return `${operand(e.left, c)} include ${valueLabel(c, e.left, e.right) ?? operand(e.right, c)}`;
      if (e.op in ARITH_WORDS) {
        const op = e.op as keyof typeof ARITH_WORDS;
        const l = arithLevel(e);
        return `${term(e.left, c, l)} ${ARITH_WORDS[op]} ${term(e.right, c, l + 1)}`;
      }
      const op = e.op as keyof typeof COMPARE_WORDS;
      const temporal = isTemporal(e.left, c) || isTemporal(e.right, c) ? 1 : 0;
      const meSide = e.left.kind === 'me' || e.right.kind === 'me';
      const left = valueLabel(c, e.right, e.left) ?? operand(e.left, c, meSide);
      const right = valueLabel(c, e.left, e.right) ?? operand(e.right, c, meSide);
      return `${left} ${COMPARE_WORDS[op][temporal]} ${right}`;
    }
    case 'in': {
      const items = e.list.map((x) => valueLabel(c, e.operand, x) ?? operand(x, c));
      if (!e.negated) return `${operand(e.operand, c)} is ${list(items, 'or')}`;
      return items.length === 1
        ? `${operand(e.operand, c)} is not ${items[0]}`
        : `${operand(e.operand, c)} is none of ${list(items, 'and')}`;
    }
    case 'empty':
      return `${operand(e.operand, c)} is ${e.negated ? 'not ' : ''}empty`;
    case 'role': {
      const label = c.spec?.roles.roles[e.role]?.label ?? e.role;
      return `${operand(e.subject, c, true)} ${e.negated ? 'does not have' : 'has'} the role ${label}`;
    }
    case 'call': {
      const args = e.args.map((a) => operand(a, c));
      const zoneArg = e.args[1];
      if (zoneArg && ZONED_WORDS[e.fn] && !(e.fn === 'date' && e.args[0]?.kind === 'literal')) {
        const zone = args[1]?.startsWith('the ') ? args[1] : `the time zone ${args[1]}`;
        return `${ZONED_WORDS[e.fn]}${args[0]} in ${zone}${e.fn === 'weekday' ? ' (1 Monday to 7 Sunday)' : ''}`;
      }
      switch (e.fn) {
        case 'days':
        case 'hours':
        case 'minutes':
          return `${args.join(', ')} ${e.fn}`;
        case 'length':
          return `the length of ${args.join(', ')}`;
        case 'lower':
          return `${args.join(', ')} in lower case`;
        case 'date':
        case 'datetime': {
          const [a] = e.args;
          if (a?.kind === 'literal' && typeof a.value === 'string') return a.value.replace('T', ' ');
          return e.fn === 'date' ? `the date of ${args.join(', ')}` : args.join(', ');
        }
        case 'hour':
          return `the hour of ${args.join(', ')}`;
        case 'weekday':
          return `the weekday of ${args.join(', ')} (1 Monday to 7 Sunday)`;
        case 'startOfDay':
          return `the start of the day of ${args.join(', ')}`;
      }
      return `${e.fn}(${args.join(', ')})`;
    }
    case 'count':
    case 'sum': {
      const inner: Ctx = { ...c, inner: e.entity };
      const where = e.where ? ` (where ${words(e.where, inner)})` : '';
      const rows = entityWords(c, e.entity, true);
      if (e.kind === 'count') return `the number of ${rows}${where}`;
      return `the total ${fieldLabel(c, e.entity, e.field)} of ${rows}${where}`;
    }
  }
}

/** How a wall-clock reading in a named zone starts, in words. */
const ZONED_WORDS: Partial<Record<string, string>> = {
  hour: 'the hour of ',
  weekday: 'the weekday of ',
  startOfDay: 'the start of the day of ',
  date: 'the date of ',
};

function profileOf(c: Ctx): string | undefined {
  if (!c.spec) return undefined;
  return profileEntity(c.spec);
}

/**
 * The rule in plain words, for documents read by non-programmers. Uses field, constant,
 * entity and role labels from the spec when given (and the rule's `entity` to pick field
 * labels); deterministic.
 *
 * @example
 * describeRule(parseRule('requester = me').expr) // 'the requester is the current user'
 * describeRule(parseRule('status in (open, pending)').expr) // 'status is open or pending'
 */
export function describeRule(expr: Expr, spec?: DescribeScope, entity?: string): string {
  return words(expr, { spec, entity, inner: undefined });
}
