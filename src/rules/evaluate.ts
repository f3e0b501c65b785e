import { isBlank } from '../spec/blank.ts';
import { instantOfWall, wallClock } from '../spec/timeZone.ts';
import type { RuleType, Typed } from './ast.ts';

/**
 * A rule value at run time. Datetimes and dates are epoch milliseconds (dates at UTC
 * midnight), durations milliseconds, refs row ids, tags arrays (which may hold nulls, as in SQL).
 */
export type RuleValue = number | string | boolean | null | readonly (string | null)[];

/** Rows the evaluator may read beyond the rule's own row (for count/sum, `a.b`, `me.f`, roles). */
export interface DataContext {
  rows(entity: string): readonly Record<string, unknown>[];
  get(entity: string, id: string): Record<string, unknown> | null;
  profile(userId: string): Record<string, unknown> | null;
  /**
   * The roles another user holds (directly granted). Optional: without it, and for users it
   * does not know (`null`), users other than `ctx.user` hold no roles.
   */
  roles?(userId: string): readonly string[] | null;
}

export interface EvalContext {
  row: Record<string, unknown> | null;
  user: { id: string; roles: readonly string[] } | null;
  now: Date;
  /**
   * Each role → itself and every role it inherits (the model's closure: `roleClosureOf(spec)` in
   * src/model/roleClosure.ts). The caller passes it: the rule language sits below the model and
   * does not walk inheritance itself.
   */
  roleClosure: ReadonlyMap<string, readonly string[]>;
  data?: DataContext;
}

const DAY_MS = 86_400_000;
const DURATION_MS = { days: DAY_MS, hours: 3_600_000, minutes: 60_000 } as const;

function utcMidnight(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
}

/** Brings a stored value into its rule-value form; anything unreadable counts as empty (null). */
export function normaliseValue(v: unknown, type: RuleType): RuleValue {
  if (v === null || v === undefined) return null;
  switch (type.kind) {
    case 'boolean':
      return typeof v === 'boolean' ? v : null;
    case 'number':
    case 'duration': {
      const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
      return Number.isFinite(n) ? n : null;
    }
    case 'text':
    case 'enum':
    case 'ref':
      return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;
    case 'datetime':
    case 'date': {
      let ms: number;
      if (v instanceof Date) ms = v.getTime();
      else if (typeof v === 'number') ms = v;
      else if (typeof v === 'string') ms = Date.parse(v);
      else return null;
      if (!Number.isFinite(ms)) return null;
      return type.kind === 'date' ? utcMidnight(ms) : ms;
    }
    case 'tags':
      return Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : null)) : null;
    case 'null':
      return null;
  }
}

type Tri = boolean | null;

const and3 = (a: Tri, b: Tri): Tri =>
  a === false || b === false ? false : a === null || b === null ? null : true;
const or3 = (a: Tri, b: Tri): Tri =>
  a === true || b === true ? true : a === null || b === null ? null : false;
const not3 = (a: Tri): Tri => (a === null ? null : !a);

function asTri(v: RuleValue): Tri {
  return typeof v === 'boolean' ? v : null;
}

/** SQL `=`: unknown with a null operand; arrays equal element-wise (nulls equal, as Postgres arrays). */
function eq(a: RuleValue, b: RuleValue): Tri {
  if (a === null || b === null) return null;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return false;
    return a.length === b.length && a.every((x, i) => x === b[i]);
  }
  return a === b;
}

function order(op: '<' | '<=' | '>' | '>=', a: RuleValue, b: RuleValue): Tri {
  if (typeof a !== 'number' || typeof b !== 'number') return null;
  switch (op) {
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
  }
}

/** Role names `held` grants: each held role's closure (a role the closure does not know grants itself). */
export function effectiveRoles(
  closure: ReadonlyMap<string, readonly string[]>,
  held: readonly string[],
): Set<string> {
  return new Set(held.flatMap((r) => closure.get(r) ?? [r]));
}

interface Env {
  ctx: EvalContext;
  /** The counted row inside count/sum. */
  inner: Record<string, unknown> | null;
  /** In a count nested in a count (a relationship role on a counted row): the outer counted row. */
  enclosing?: Record<string, unknown> | null;
}

function readField(node: Extract<Typed, { kind: 'field' }>, env: Env): RuleValue {
  const row = node.scope === 'inner' ? env.inner : env.ctx.row;
  if (!row) return null;
  const [a, b] = node.path;
  if (b === undefined) return normaliseValue(row[a], node.type);
  const id = row[a];
  if ((typeof id !== 'string' && typeof id !== 'number') || !node.via) return null;
  const target = env.ctx.data?.get(node.via, String(id)) ?? null;
  return target ? normaliseValue(target[b], node.type) : null;
}

function rolesOf(subject: Typed, value: RuleValue, ctx: EvalContext): readonly string[] {
  if (subject.kind === 'me' && subject.field === undefined) return ctx.user?.roles ?? [];
  if (typeof value !== 'string') return [];
  if (ctx.user && ctx.user.id === value) return ctx.user.roles;
  return ctx.data?.roles?.(value) ?? [];
}

/** An exact decimal: `m × 10^-s`. */
interface Decimal {
  m: bigint;
  s: number;
}

/** The decimal a number prints as: what Postgres stores when it is sent as text or JSON. */
function toDecimal(x: number): Decimal {
  const [mantissa = '0', exponent] = String(x).split('e');
  const [int = '0', frac = ''] = mantissa.split('.');
  const m = BigInt(int + frac);
  const s = frac.length - (exponent === undefined ? 0 : Number(exponent));
  return s < 0 ? { m: m * 10n ** BigInt(-s), s: 0 } : { m, s };
}

function fromDecimal(d: Decimal): number {
  return d.s === 0 ? Number(d.m) : Number(`${d.m}e-${d.s}`);
}

function scaleTo(d: Decimal, s: number): bigint {
  return d.m * 10n ** BigInt(s - d.s);
}

/**
 * SQL numbers are exact decimals (`numeric`), JavaScript's binary floats: `0.1 * 3` is
 * `0.30000000000000004` here and `0.3` there. Sums, differences and products of numbers are
 * therefore computed exactly on the decimals the operands print as, then rounded once to the
 * nearest double, which is what reading the SQL result gives. Quotients: `exactDivide`.
 * A result is a double again, so a chain after a division (`a / b * b`) can still differ from
 * Postgres (which keeps the 16+ digit quotient) in the last digits.
 *
 * @example
 * exactArithmetic('*', 3, 0.3); // 0.9
 */
export function exactArithmetic(op: '+' | '-' | '*', a: number, b: number): number {
  if (!Number.isFinite(a) || !Number.isFinite(b)) return op === '+' ? a + b : op === '-' ? a - b : a * b;
  const x = toDecimal(a);
  const y = toDecimal(b);
  if (op === '*') return fromDecimal({ m: x.m * y.m, s: x.s + y.s });
  const s = Math.max(x.s, y.s);
  const m = op === '+' ? scaleTo(x, s) + scaleTo(y, s) : scaleTo(x, s) - scaleTo(y, s);
  return fromDecimal({ m, s });
}

/** Postgres' weight (base-10000 digit position) and first base-10000 digit of a non-zero decimal. */
function nbaseLead(d: Decimal): { weight: number; first: bigint } {
  const abs = d.m < 0n ? -d.m : d.m;
  const msd = abs.toString().length - d.s - 1;
  const weight = Math.floor(msd / 4);
  const shift = d.s + 4 * weight;
  const first = shift >= 0 ? abs / 10n ** BigInt(shift) : abs * 10n ** BigInt(-shift);
  return { weight, first };
}

/** The same decimal written with at least `s` decimals (Postgres keeps a numeric's scale). */
function atScale(d: Decimal, s: number): Decimal {
  return d.s >= s ? d : { m: scaleTo(d, s), s };
}

/**
 * `a / b` as Postgres divides numerics: the quotient rounded (half away from zero) to the scale
 * `select_div_scale` picks (at least 16 significant digits, at least the operands' scales), then
 * read as a double. `b` must not be zero. `minScale`: the operands' scale when the SQL side holds
 * them with at least that many decimals.
 *
 * @example
 * exactDivide(9623.2, 0.3); // 32077.333333333332 (JavaScript's 9623.2 / 0.3 is ...336)
 */
export function exactDivide(a: number, b: number, minScale = 0): number {
  if (!Number.isFinite(a) || !Number.isFinite(b)) return a / b;
  const x = atScale(toDecimal(a), minScale);
  const y = atScale(toDecimal(b), minScale);
  const lx = x.m === 0n ? { weight: 0, first: 0n } : nbaseLead(x);
  const ly = nbaseLead(y);
  const qweight = lx.weight - ly.weight - (lx.first <= ly.first ? 1 : 0);
  const rscale = Math.min(Math.max(16 - qweight * 4, x.s, y.s, 0), 1000);
  const e = rscale + y.s - x.s;
  const num = e >= 0 ? x.m * 10n ** BigInt(e) : x.m;
  const den = e >= 0 ? y.m : y.m * 10n ** BigInt(-e);
  const negative = num < 0n !== den < 0n;
  const n = num < 0n ? -num : num;
  const dd = den < 0n ? -den : den;
  const q = (2n * n + dd) / (2n * dd);
  return fromDecimal({ m: negative ? -q : q, s: rscale });
}

/**
 * Lower case one code point at a time, as Postgres' `lower` does under a UTF-8 libc/ICU locale
 * (simple case mapping): `İ` becomes `i`, not JavaScript's two-code-point `i̇`, and a final `Σ`
 * is `σ`, not the context-sensitive `ς`.
 *
 * @example
 * lowerLikePostgres('İSTANBUL'); // 'istanbul'
 */
export function lowerLikePostgres(s: string): string {
  let out = '';
  for (const ch of s) {
    const l = ch.toLowerCase();
    out += [...l].length === 1 ? l : ch === '\u0130' ? 'i' : ch;
  }
  return out;
}

/**
 * `hour`, `weekday` (ISO: 1 Monday … 7 Sunday), `startOfDay` and `date` of an instant in `zone`,
 * as Postgres reads `t at time zone zone`. A date is its calendar day in the zone: its local
 * midnight (SQL: `d::timestamp at time zone zone`).
 */
function zoned(
  fn: 'hour' | 'weekday' | 'startOfDay' | 'date',
  v: number,
  isDate: boolean,
  zone: string,
): number {
  const instant = isDate ? instantOfWall(v, zone) : v;
  const wall = new Date(wallClock(instant, zone));
  const midnight = Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate());
  switch (fn) {
    case 'hour':
      return wall.getUTCHours();
    case 'weekday':
      return wall.getUTCDay() === 0 ? 7 : wall.getUTCDay();
    case 'startOfDay':
      return instantOfWall(midnight, zone);
    case 'date':
      return midnight;
  }
}

/** A zoned reading in the node's zone: the app's, or the second argument's (unknown when it is empty). */
function zonedIn(node: Extract<Typed, { kind: 'call' }>, v: number, arg: Typed, env: Env): RuleValue {
  const zoneArg = node.args[1];
  const zone = zoneArg ? evaluate(zoneArg, env) : (node.zone ?? 'UTC');
  if (typeof zone !== 'string') return null;
  return zoned(node.fn as 'hour' | 'weekday' | 'startOfDay' | 'date', v, arg.type.kind === 'date', zone);
}

function arithmetic(node: Extract<Typed, { kind: 'binary' }>, a: RuleValue, b: RuleValue): RuleValue {
  if (typeof a !== 'number' || typeof b !== 'number') return null;
  const exact = node.left.type.kind === 'number' && node.right.type.kind === 'number';
  switch (node.op) {
    case '+':
      return exact ? exactArithmetic('+', a, b) : a + b;
    case '-':
      // Postgres: date - date is a whole number of days.
      return node.left.type.kind === 'date' && node.right.type.kind === 'date'
        ? Math.round((a - b) / DAY_MS)
        : exact
          ? exactArithmetic('-', a, b)
          : a - b;
    case '*':
      return exact ? exactArithmetic('*', a, b) : a * b;
    case '/':
      // Division by zero is empty, never an error: the SQL side divides by nullif(b, 0).
      if (b === 0) return null;
      // Duration by duration: numerics of milliseconds with six decimals (SQL: extract(epoch ...) * 1000).
      if (node.left.type.kind === 'duration' && node.right.type.kind === 'duration')
        return exactDivide(a, b, 6);
      return exact ? exactDivide(a, b) : a / b;
    default:
      return null;
  }
}

function evaluate(node: Typed, env: Env): RuleValue {
  const { ctx } = env;
  switch (node.kind) {
    case 'literal':
      // date("...")/datetime("...") literals hold their text; at run time they are milliseconds.
      return node.type.kind === 'date' || node.type.kind === 'datetime'
        ? normaliseValue(node.value, node.type)
        : node.value;
    case 'const':
      return normaliseValue(node.value, node.type);
    case 'field':
      return readField(node, env);
    case 'me': {
      if (!ctx.user) return null;
      if (node.field === undefined) return ctx.user.id;
      const p = ctx.data?.profile(ctx.user.id) ?? null;
      return p ? normaliseValue(p[node.field], node.type) : null;
    }
    case 'this': {
      const row = node.enclosing ? (env.enclosing ?? null) : ctx.row;
      if (!row) return null;
      return normaliseValue(row[node.field ?? 'id'], node.type);
    }
    case 'now':
      return ctx.now.getTime();
    case 'today':
      return utcMidnight(ctx.now.getTime());
    case 'not':
      return not3(asTri(evaluate(node.operand, env)));
    case 'neg': {
      const v = evaluate(node.operand, env);
      return typeof v === 'number' ? -v : null;
    }
    case 'binary':
      return evaluateBinary(node, env);
    case 'in': {
      // SQL: x in (a, b) is x = a or x = b, under Kleene logic.
      // A list constant stands for its items (SQL expands it), so an empty one makes the list
      // empty: false for every operand, even an empty one (`not in`: true).
      const items = node.list.flatMap((i): RuleValue[] =>
        i.kind === 'const' && Array.isArray(i.value) ? i.value : [evaluate(i, env)],
      );
      if (items.length === 0) return node.negated;
      const v = evaluate(node.operand, env);
      let result: Tri = false;
      for (const item of items) {
        result = or3(result, eq(v, item));
        if (result === true) break;
      }
      return node.negated ? not3(result) : result;
    }
    case 'empty': {
      const v = evaluate(node.operand, env);
      // Blank text ('', or white space only) is empty on text only, as the SQL side (the trimmed
      // comparison is emitted for text operands alone).
      const empty =
        v === null ||
        (typeof v === 'string' && node.operand.type.kind === 'text' && isBlank(v)) ||
        (Array.isArray(v) && v.length === 0);
      return node.negated ? !empty : empty;
    }
    case 'role': {
      const v = evaluate(node.subject, env);
      const holds =
        v !== null && effectiveRoles(ctx.roleClosure, rolesOf(node.subject, v, ctx)).has(node.role);
      return node.negated ? !holds : holds;
    }
    case 'call': {
      const arg = node.args[0];
      const v = arg ? evaluate(arg, env) : null;
      if (v === null) return null;
      switch (node.fn) {
        case 'days':
        case 'hours':
        case 'minutes':
          return typeof v === 'number' ? v * DURATION_MS[node.fn] : null;
        case 'length':
          // Code points, as Postgres char_length.
          return typeof v === 'string' ? [...v].length : null;
        case 'lower':
          return typeof v === 'string' ? lowerLikePostgres(v) : null;
        case 'hour':
        case 'weekday':
        case 'startOfDay':
        case 'date':
          return typeof v === 'number' && arg ? zonedIn(node, v, arg, env) : null;
      }
      return null;
    }
    case 'count':
    case 'sum':
      return evaluateAggregate(node, env);
  }
}

/** `and`/`or` (short-circuit under Kleene logic), comparisons, `contains` and arithmetic. */
function evaluateBinary(node: Extract<Typed, { kind: 'binary' }>, env: Env): RuleValue {
  if (node.op === 'and') {
    const l = asTri(evaluate(node.left, env));
    return l === false ? false : and3(l, asTri(evaluate(node.right, env)));
  }
  if (node.op === 'or') {
    const l = asTri(evaluate(node.left, env));
    return l === true ? true : or3(l, asTri(evaluate(node.right, env)));
  }
  const l = evaluate(node.left, env);
  const r = evaluate(node.right, env);
  switch (node.op) {
    case '=':
      return eq(l, r);
    case '!=':
      return not3(eq(l, r));
    case '<':
    case '<=':
    case '>':
    case '>=':
      return order(node.op, l, r);
    case 'contains': {
      // SQL: right = any(left).
      if (!Array.isArray(l)) return null;
      if (l.length === 0) return false;
      if (r === null) return null;
      let result: Tri = false;
      for (const x of l) result = or3(result, eq(x, r));
      return result;
    }
    default:
      return arithmetic(node, l, r);
  }
}

/** `count(...)` and `sum(...)` over the rows the data context holds (none without one: unknown). */
function evaluateAggregate(node: Extract<Typed, { kind: 'count' | 'sum' }>, env: Env): RuleValue {
  const { ctx } = env;
  if (!ctx.data) return null;
  let count = 0;
  // Added exactly, as SQL sum() over numeric does.
  let total: Decimal = { m: 0n, s: 0 };
  for (const row of ctx.data.rows(node.entity)) {
    if (node.where && evaluate(node.where, { ctx, inner: row, enclosing: env.inner }) !== true) continue;
    count++;
    if (node.kind === 'sum') {
      const v = normaliseValue(row[node.field], { kind: 'number' });
      if (typeof v === 'number') {
        const d = toDecimal(v);
        const scale = Math.max(total.s, d.s);
        total = { m: scaleTo(total, scale) + scaleTo(d, scale), s: scale };
      }
    }
  }
  return node.kind === 'count' ? count : fromDecimal(total);
}

/**
 * Evaluates a checked rule with SQL semantics (three-valued logic: `null` is unknown).
 * `count`/`sum` and `a.b` read `ctx.data`; without it they are unknown (null).
 *
 * @example
 * evaluateRule(checked.typed, { row: { status: 'open' }, user: null, now: new Date(), roleClosure: roleClosureOf(spec) }) // true
 */
export function evaluateRule(typed: Typed, ctx: EvalContext): RuleValue {
  return evaluate(typed, { ctx, inner: null });
}

/**
 * Whether a rule holds: true only when it evaluates to true (unknown does not hold, as in SQL
 * `WHERE`/RLS `USING`).
 *
 * @example
 * holds(checkRule(spec, 'requester = me', { entity: 'ticket' }).typed, ctx) // false when the row has no requester
 */
export function holds(typed: Typed, ctx: EvalContext): boolean {
  return evaluateRule(typed, ctx) === true;
}
