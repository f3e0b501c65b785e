import type { AppModel } from '../model/appModel.ts';
import type { Typed } from '../rules/ast.ts';
import { typedChildren } from '../rules/typedChildren.ts';
import { blankSql } from '../spec/blank.ts';
import { columnFor } from './columns.ts';
import { fieldSqlType } from './fieldSqlType.ts';
import { quoteIdent, quoteLiteral, quoteTextArray } from './quote.ts';

/** Where a rule is compiled: which row it reads and how the current user is found. */
export interface SqlRuleContext {
  model: AppModel;
  /**
   * SQL qualifier of the rule's row: the table name in policies (`ticket`), a record variable in
   * functions and triggers (`r`, `new`, `old`), or `''` for bare columns (CHECK constraints).
   */
  row: string;
  /** SQL expression of the current user's id; `(select auth.uid())` unless given. */
  me?: string;
  /** SQL expression of the clock (`now`, and `today` from it); `now()` unless given (a job's `p_now`). */
  now?: string;
  /**
   * In a read policy on an entity: a `count`/`sum` over one of `entities` (the entity itself and
   * those whose read policies read back into it), a hop through a reference to one (`parent.owner`)
   * or `me.field` when the profile entity is one would re-enter the policy ("infinite recursion
   * detected in policy"). Such a node (outside any other count) is handed to `helper`, which
   * returns the SQL of a call to a security-definer function computing it.
   */
  selfRead?: {
    entities: ReadonlySet<string>;
    helper(node: Typed): string;
    /**
     * A relationship role's `count(E where f = this.g and …) >= 1` whose other conditions do not
     * read the row: given the SQL of `select f from E … where …` and f's type, the call of a
     * security-definer function returning those values (`this.g in (select <call>)`, run once per
     * statement instead of `helper`'s once per row).
     */
    setHelper?(select: string, returns: string): string;
  };
  /**
   * Entities the caller can never read (no role has a read permission, so no SELECT grant): in a
   * policy they are seen as empty (count 0, sum 0, a hop or `me.field` null), as RLS would show them,
   * instead of failing with "permission denied".
   */
  unseen?: ReadonlySet<string>;
  /**
   * Restricts the rows a `count` counts (emitCountVisibility.ts): given the counted entity and the
   * alias of its rows, a condition ANDed to the count's `where`; `where`, the count's own
   * condition when the query applies it as it stands (the filter may rely on it).
   */
  countFilter?: (entity: string, alias: string, where?: Typed) => string | undefined;
  /** `countFilter` restricts sums too: a message parameter shows only what the caller may read. */
  filterSums?: boolean;
  /**
   * Restricts the row a hop (`link.owner`, `me.field`) reads, as `countFilter` the rows a count
   * counts: given the target entity and the hop's alias, a condition on that row (a hop to a row it
   * fails reads null, as RLS shows it); `undefined` for no restriction.
   */
  hopFilter?: (entity: string, alias: string) => string | undefined;
  /** Appended to every alias this compile makes, so a rule compiled inside another's subquery never shadows its aliases. */
  aliasSuffix?: string;
}

/** The SQL of the current user's id, wrapped so Postgres evaluates it once per statement. */
export const ME_SQL = '(select auth.uid())';

/** The SQL of `today`: the current date in UTC, as the browser evaluator computes it. */
export const TODAY_SQL = "(now() at time zone 'utc')::date";

const SECONDS: Record<'days' | 'hours' | 'minutes', number> = { days: 86400, hours: 3600, minutes: 60 };

interface State {
  ctx: SqlRuleContext;
  /** Aliases of the rows counted by enclosing `count`/`sum`, innermost last. */
  inner: string[];
  /** Next alias number; one counter per compiled rule keeps aliases deterministic and distinct. */
  next: { n: number };
}

/**
 * Compiles a checked rule (or value expression) to a Postgres expression. The result has SQL's
 * three-valued meaning, which is the reference the TypeScript evaluator follows.
 *
 * @example
 * // requester = me, in a policy on ticket
 * compileRuleSql(typed, { model, row: 'ticket' }); // (ticket.requester = (select auth.uid()))
 */
export function compileRuleSql(typed: Typed, ctx: SqlRuleContext): string {
  return expr(typed, { ctx, inner: [], next: { n: 0 } });
}

function col(s: State, entity: string, qualifier: string, field: string): string {
  const c = quoteIdent(columnFor(s.ctx.model, entity, field));
  return qualifier === '' ? c : `${qualifier}.${c}`;
}

function alias(s: State, prefix: string): string {
  s.next.n += 1;
  return `${prefix}${s.next.n}${s.ctx.aliasSuffix ?? ''}`;
}

/** ` and <filter>` of a hop's row, or nothing. */
function hopCondition(s: State, entity: string, a: string): string {
  const f = s.ctx.hopFilter?.(entity, a);
  return f === undefined ? '' : ` and ${f}`;
}

/** The entity a ref/user field points to. */
export function refTarget(model: AppModel, entity: string, field: string): string {
  const c = model.tables.get(entity)?.byField.get(field);
  if (!c) throw new Error(`compileRuleSql: unknown field ${entity}.${field}`);
  if (c.references) return c.references;
  if (c.type === 'user')
    throw new Error(`compileRuleSql: ${entity}.${field} is a user field but no entity is the profile`);
  throw new Error(`compileRuleSql: ${entity}.${field} is not a reference`);
}

/** `public.<table>` of an entity (quoted as needed). */
function tableSql(s: State, entity: string): string {
  const t = s.ctx.model.tables.get(entity);
  if (!t) throw new Error(`compileRuleSql: unknown entity ${entity}`);
  return t.ref;
}

/** A typed null of an (unseen) entity's field, as a hop to a row the caller cannot see gives. */
function nullOf(s: State, entity: string, field: string): string {
  return `(null::${fieldSqlType(s.ctx.model, entity, field)})`;
}

function meSql(s: State): string {
  return s.ctx.me ?? ME_SQL;
}

function expr(t: Typed, s: State): string {
  switch (t.kind) {
    case 'literal':
      return literal(t.value, t.type.kind);
    case 'const':
      return Array.isArray(t.value)
        ? quoteTextArray(t.value)
        : literal(t.value as string | number | boolean, t.type.kind);
    case 'field': {
      const qualifier = t.scope === 'inner' ? s.inner[s.inner.length - 1] : s.ctx.row;
      if (qualifier === undefined) throw new Error('compileRuleSql: inner field outside count/sum');
      const [first, second] = t.path;
      if (second === undefined) return col(s, t.entity, qualifier, first);
      const target = t.via ?? refTarget(s.ctx.model, t.entity, first);
      if (s.ctx.unseen?.has(target)) return nullOf(s, target, second);
      if (s.ctx.selfRead?.entities.has(target) && s.inner.length === 0) return s.ctx.selfRead.helper(t);
      const h = alias(s, '_h');
      return `(select ${col(s, target, h, second)} from ${tableSql(s, target)} ${h} where ${h}.id = ${col(s, t.entity, qualifier, first)}${hopCondition(s, target, h)})`;
    }
    case 'me': {
      if (t.field === undefined) return meSql(s);
      const profile = t.profile ?? s.ctx.model.profile;
      if (!profile) throw new Error('compileRuleSql: me.field needs a profile entity');
      if (s.ctx.unseen?.has(profile)) return nullOf(s, profile, t.field);
      if (s.ctx.selfRead?.entities.has(profile) && s.inner.length === 0) return s.ctx.selfRead.helper(t);
      const p = alias(s, '_me');
      return `(select ${col(s, profile, p, t.field)} from ${tableSql(s, profile)} ${p} where ${p}.id = ${meSql(s)}${hopCondition(s, profile, p)})`;
    }
    case 'now':
      return s.ctx.now ?? 'now()';
    case 'today':
      return s.ctx.now === undefined ? TODAY_SQL : `(${s.ctx.now} at time zone 'utc')::date`;
    case 'this': {
      const qualifier = t.enclosing ? s.inner[s.inner.length - 2] : s.ctx.row;
      if (qualifier === undefined) throw new Error('compileRuleSql: enclosing row outside a nested count');
      return col(s, t.entity, qualifier, t.field ?? 'id');
    }
    case 'binary':
      return binary(t, s);
    case 'not':
      return `(not ${expr(t.operand, s)})`;
    case 'neg':
      return isNumber(t.operand) ? `(- (${expr(t.operand, s)})::numeric)` : `(- ${expr(t.operand, s)})`;
    case 'in': {
      const mixed = mixesDateAndInstant(t.operand, ...t.list);
      const items = t.list.flatMap((i) =>
        i.kind === 'const' && Array.isArray(i.value)
          ? i.value.map((v: string) => quoteLiteral(v))
          : [mixed ? utcInstant(expr(i, s), i) : expr(i, s)],
      );
      const operand = mixed ? utcInstant(expr(t.operand, s), t.operand) : expr(t.operand, s);
      // An empty list is false (not in: true) for every operand, as the evaluator does.
      if (items.length === 0) return t.negated ? 'true' : 'false';
      return `(${operand} ${t.negated ? 'not in' : 'in'} (${items.join(', ')}))`;
    }
    case 'empty': {
      const o = expr(t.operand, s);
      const k = t.operand.type.kind;
      const isEmpty =
        k === 'tags'
          ? `(${o} is null or cardinality(${o}) = 0)`
          : k === 'text'
            ? `(${o} is null or ${blankSql(o)})`
            : `(${o} is null)`;
      return t.negated ? `(not ${isEmpty})` : isEmpty;
    }
    case 'role': {
      const held = `app.has_role(${expr(t.subject, s)}, ${quoteLiteral(t.role)})`;
      return t.negated ? `(not ${held})` : held;
    }
    case 'call':
      return call(t, s);
    case 'count': {
      if (s.ctx.unseen?.has(t.entity)) return '(0)::bigint';
      if (s.ctx.selfRead?.entities.has(t.entity) && s.inner.length === 0) return s.ctx.selfRead.helper(t);
      return `(select count(*) ${countFrom(t, s)})`;
    }
    case 'sum': {
      if (s.ctx.unseen?.has(t.entity)) return '(0)::numeric';
      if (s.ctx.selfRead?.entities.has(t.entity) && s.inner.length === 0) return s.ctx.selfRead.helper(t);
      const a = alias(s, '_s');
      const conds = t.where ? [expr(t.where, { ...s, inner: [...s.inner, a] })] : [];
      const filter = s.ctx.filterSums ? s.ctx.countFilter?.(t.entity, a) : undefined;
      if (filter !== undefined) conds.push(filter);
      const where =
        conds.length === 0
          ? ''
          : ` where ${conds.map((c) => (conds.length > 1 ? `(${c})` : c)).join(' and ')}`;
      return `coalesce((select sum(${col(s, t.entity, a, t.field)}) from ${tableSql(s, t.entity)} ${a}${where}), 0)`;
    }
  }
}

/**
 * A field of the first row a `count` counts other than the row in `ctx.row` (by id): the row that
 * made a rule fail, for a message parameter ("That room is taken from {start} to {end}").
 *
 * @example
 * firstCountedSql(count, 'start', { model, row: 'new', countFilter });
 * // (select _c1."start" from public.booking _c1 where (...) and ... and _c1.id is distinct from new.id order by _c1.id limit 1)
 */
export function firstCountedSql(
  t: Extract<Typed, { kind: 'count' }>,
  field: string,
  ctx: SqlRuleContext,
): string {
  const s: State = { ctx, inner: [], next: { n: 0 } };
  const a = alias(s, '_c');
  const conds = t.where ? [`(${expr(t.where, { ...s, inner: [a] })})`] : [];
  const filter = ctx.countFilter?.(t.entity, a);
  if (filter !== undefined) conds.push(filter);
  conds.push(`${a}.id is distinct from ${ctx.row}.id`);
  return `(select ${col(s, t.entity, a, field)} from ${tableSql(s, t.entity)} ${a} where ${conds.join(' and ')} order by ${a}.id limit 1)`;
}

/** `from <table> <alias> where ...` of a count, with the count filter when there is one. */
function countFrom(t: Extract<Typed, { kind: 'count' }>, s: State): string {
  const a = alias(s, '_c');
  const cond = t.where ? expr(t.where, { ...s, inner: [...s.inner, a] }) : undefined;
  const filter = s.ctx.countFilter?.(t.entity, a, t.where);
  const where =
    cond !== undefined && filter !== undefined
      ? ` where (${cond}) and ${filter}`
      : cond !== undefined || filter !== undefined
        ? ` where ${cond ?? filter}`
        : '';
  return `from ${tableSql(s, t.entity)} ${a}${where}`;
}

/**
 * A relationship role's `count(...) >= 1` as `exists (select 1 ...)`: the same truth (a count is
 * never null), and Postgres can stop at the first row or join it (index-backed at any size).
 */
function existsSql(t: Extract<Typed, { kind: 'binary' }>, s: State): string | undefined {
  const c = t.left;
  if (t.op !== '>=' || c.kind !== 'count' || c.exists !== true) return undefined;
  if (t.right.kind !== 'literal' || t.right.value !== 1) return undefined;
  if (s.ctx.unseen?.has(c.entity)) return 'false';
  if (s.ctx.selfRead?.entities.has(c.entity) && s.inner.length === 0) return selfReadSetSql(c, s);
  return keyedSetSql(c, s) ?? `(exists (select 1 ${countFrom(c, s)}))`;
}

/**
 * A relationship role's `count(E where f = this.g and <conditions not reading the row>) >= 1` as
 * `this.g in (select f from E where f is not null and ...)`: the same truth, the set (the scopes
 * the person holds the role on: their memberships, the projects they lead) read once per statement.
 * As a correlated EXISTS Postgres ran it as a hashed subplan too, but costed it as a subquery per
 * row, so under row-level security it preferred intersecting a second, unselective index to reading
 * the one that holds the person's rows (a member's open tasks at 1,000,000: 12 ms against 0.7).
 */
function keyedSetSql(c: Extract<Typed, { kind: 'count' }>, s: State): string | undefined {
  const k = c.where === undefined || s.inner.length > 0 ? undefined : keyedCount(c.where);
  if (!k || k.rest.some(hasEnclosing)) return undefined;
  return keyedInSql(c, k, s, c.where);
}

/**
 * `coalesce((this.g in (select f from E where f is not null and ...)), false)`, the count filter
 * (asked with `filterWhere`) on the counted rows: never unknown, the set read once per statement.
 */
function keyedInSql(
  c: Extract<Typed, { kind: 'count' }>,
  k: { field: string; key: Typed; rest: Typed[] },
  s: State,
  filterWhere: Typed | undefined,
): string {
  const filter = (a: string) => s.ctx.countFilter?.(c.entity, a, filterWhere);
  return `coalesce((${expr(k.key, s)} in (${keyedSelect(c, k, s, filter)})), false)`;
}

/**
 * In a read policy that must read `c`'s entity without RLS (`selfRead`): `count(E where f = this.g
 * and <conditions not reading the row>) >= 1` as `this.g in (select <definer function>())`, the
 * values of f once per statement (a hashed subplan), where a helper per row ran a function call on
 * every row (a member's organisation list, 700 rows: 4.4 ms against the owner's 0.5). Undefined
 * (the per-row helper) for any other shape.
 */
function selfReadSetSql(c: Extract<Typed, { kind: 'count' }>, s: State): string | undefined {
  const setHelper = s.ctx.selfRead?.setHelper;
  const k = c.where === undefined ? undefined : keyedCount(c.where);
  if (!setHelper || !k || k.rest.some(hasEnclosing)) return undefined;
  const call = setHelper(keyedSelect(c, k, s), fieldSqlType(s.ctx.model, c.entity, k.field));
  return `coalesce((${expr(k.key, s)} in (select ${call})), false)`;
}

/** A count condition's conjunct `f = this.g` and the others, when those read nothing of the rule's row. */
function keyedCount(where: Typed): { field: string; key: Typed; rest: Typed[] } | undefined {
  const parts = conjuncts(where);
  const i = parts.findIndex(
    (p) =>
      p.kind === 'binary' &&
      p.op === '=' &&
      p.left.kind === 'field' &&
      p.left.scope === 'inner' &&
      p.left.path.length === 1 &&
      p.right.kind === 'this' &&
      p.right.enclosing !== true,
  );
  const eq = parts[i];
  if (eq?.kind !== 'binary' || eq.left.kind !== 'field') return undefined;
  const rest = parts.filter((_, j) => j !== i);
  if (rest.some(readsRuleRow)) return undefined;
  return { field: eq.left.path[0] as string, key: eq.right, rest };
}

/** `select f from E … where f is not null and <the other conjuncts>` (and `filter`'s condition on the alias, if any). */
function keyedSelect(
  c: Extract<Typed, { kind: 'count' }>,
  k: { field: string; rest: Typed[] },
  s: State,
  filter?: (alias: string) => string | undefined,
): string {
  const a = alias(s, '_c');
  const inner = { ...s, inner: [a] };
  const f = col(s, c.entity, a, k.field);
  const conds = [`${f} is not null`, ...k.rest.map((p) => `(${expr(p, inner)})`)];
  const condition = filter?.(a);
  if (condition !== undefined) conds.push(condition);
  return `select ${f} from ${tableSql(s, c.entity)} ${a} where ${conds.join(' and ')}`;
}

/** Whether a typed rule reads the rule's own row (a `this` that is not an enclosing counted row). */
function readsRuleRow(t: Typed): boolean {
  if (t.kind === 'this') return t.enclosing !== true;
  if (t.kind === 'field' && t.scope === 'row') return true;
  return typedChildren(t).some(readsRuleRow);
}

const hasEnclosing = (t: Typed): boolean =>
  (t.kind === 'this' && t.enclosing === true) || typedChildren(t).some(hasEnclosing);

/** The top-level `and` parts of a rule. */
export function conjuncts(t: Typed): Typed[] {
  return t.kind === 'binary' && t.op === 'and' ? [...conjuncts(t.left), ...conjuncts(t.right)] : [t];
}

/**
 * `count(E where f = this.g and <role on the counted row>) >= 1` as `this.g in (select f from E
 * where f is not null and ...)`: the same truth (never unknown), but the subquery does not depend
 * on the row, so Postgres runs it once per statement (a hashed subplan) instead of once per row:
 * listing the people who share an organisation with me reads my organisations' memberships once.
 * Only for a count holding a relationship role on its counted row (other counts keep their SQL).
 */
function semiJoinSql(t: Extract<Typed, { kind: 'binary' }>, s: State): string | undefined {
  const c = t.left;
  if (t.op !== '>=' || c.kind !== 'count' || c.where === undefined || !hasEnclosing(c.where))
    return undefined;
  if (t.right.kind !== 'literal' || t.right.value !== 1 || s.inner.length > 0) return undefined;
  if (s.ctx.unseen?.has(c.entity)) return 'false';
  if (s.ctx.selfRead?.entities.has(c.entity)) return undefined;
  const k = keyedCount(c.where);
  if (!k) return undefined;
  return keyedInSql(c, k, s, undefined);
}

function literal(value: string | number | boolean | null, type: string): string {
  const l = quoteLiteral(value);
  if (value === null) return l;
  if (type === 'date' && typeof value === 'string') return `${l}::date`;
  if (type === 'datetime' && typeof value === 'string') return `${l}::timestamptz`;
  // A duration constant is held in milliseconds; SQL reads it as a fixed number of seconds.
  if (type === 'duration' && typeof value === 'number') return `(interval '${value / 1000} seconds')`;
  return l;
}

const SQL_OP: Record<string, string> = {
  '=': '=',
  '!=': '<>',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
  '+': '+',
  '-': '-',
  '*': '*',
  and: 'and',
  or: 'or',
};

const isNumber = (t: Typed): boolean => t.type.kind === 'number';

function binary(t: Extract<Typed, { kind: 'binary' }>, s: State): string {
  const exists = semiJoinSql(t, s) ?? existsSql(t, s);
  if (exists !== undefined) return exists;
  const l = expr(t.left, s);
  const r = expr(t.right, s);
  if (t.op === '/' && t.left.type.kind === 'duration' && t.right.type.kind === 'duration')
    // Milliseconds as numerics (six decimals), divided as numbers are; the evaluator does the same.
    return `((extract(epoch from ${l}) * 1000) / nullif(extract(epoch from ${r}) * 1000, 0))`;
  if (t.op === '/')
    // A duration divides as an interval (interval / double precision); numbers as numeric.
    return isNumber(t.left)
      ? `((${l})::numeric / nullif((${r})::numeric, 0))`
      : `((${l}) / nullif((${r})::double precision, 0))`;
  if (t.op === 'contains') {
    return t.left.type.kind === 'tags' ? `(${r} = any(${l}))` : `(strpos(${l}, ${r}) > 0)`;
  }
  const op = SQL_OP[t.op];
  if (!op) throw new Error(`compileRuleSql: unknown operator ${t.op}`);
  // Numbers are numeric: integer columns would overflow (`reopen_count + 1` at 2^31 - 1 raises
  // "integer out of range") where the evaluator, and numeric, just count on.
  if ((t.op === '+' || t.op === '-' || t.op === '*') && isNumber(t.left) && isNumber(t.right))
    return `((${l})::numeric ${op} ${r})`;
  // A date meets an instant as its UTC midnight, whatever the session's time zone: Postgres would
  // take the session's midnight (date vs timestamptz) or make a zone-less timestamp (date + interval).
  const instant = mixesDateAndInstant(t.left, t.right) || t.right.type.kind === 'duration';
  return `(${instant ? utcInstant(l, t.left) : l} ${op} ${instant ? utcInstant(r, t.right) : r})`;
}

/** The SQL of a date as the timestamptz of its UTC midnight; other values unchanged. */
function utcInstant(sql: string, t: Typed): string {
  return t.type.kind === 'date' ? `((${sql})::timestamp at time zone 'utc')` : sql;
}

function mixesDateAndInstant(...ts: readonly Typed[]): boolean {
  return ts.some((t) => t.type.kind === 'date') && ts.some((t) => t.type.kind === 'datetime');
}

/**
 * Wall-clock readings in the app's zone: `t at time zone 'Europe/Berlin'` is the local reading of
 * an instant; a date is its calendar day there (its local midnight, `d::timestamp at time zone z`).
 */
function zoned(fn: 'hour' | 'weekday' | 'startOfDay' | 'date', a: string, arg: Typed, zone?: string): string {
  if (zone === undefined) throw new Error(`compileRuleSql: ${fn}() must have been checked (no zone)`);
  return zonedIn(fn, a, arg, quoteLiteral(zone));
}

/** The same in zone `z`, SQL text: a literal, or the row's zone (`null` zone: a null reading). */
function zonedIn(fn: 'hour' | 'weekday' | 'startOfDay' | 'date', a: string, arg: Typed, z: string): string {
  const instant = arg.type.kind === 'date' ? `((${a})::timestamp at time zone ${z})` : `(${a})`;
  const local = `(${instant} at time zone ${z})`;
  switch (fn) {
    case 'hour':
      return `(extract(hour from ${local}))::numeric`;
    case 'weekday':
      return `(extract(isodow from ${local}))::numeric`;
    case 'startOfDay':
      return `(date_trunc('day', ${local}) at time zone ${z})`;
    case 'date':
      return `(${local})::date`;
  }
}

function call(t: Extract<Typed, { kind: 'call' }>, s: State): string {
  const [first] = t.args;
  if (!first) throw new Error(`compileRuleSql: ${t.fn}() needs an argument`);
  const a = expr(first, s);
  switch (t.fn) {
    case 'days':
    case 'hours':
    case 'minutes':
      // Seconds, not calendar days: a duration is a fixed length, as in the browser (no DST shifts).
      // interval * double raises "interval out of range" past ±292,000 years, where
      // make_interval(secs => ...) silently wraps around (Postgres 15).
      return `((${a})::double precision * interval '${SECONDS[t.fn]} seconds')`;
    case 'length':
      return first.type.kind === 'tags' ? `cardinality(${a})` : `char_length(${a})`;
    case 'lower':
      return `lower(${a})`;
    case 'hour':
    case 'weekday':
    case 'startOfDay':
    case 'date':
      return t.args[1] ? zonedIn(t.fn, a, first, `(${expr(t.args[1], s)})`) : zoned(t.fn, a, first, t.zone);
    case 'datetime':
      // The checker turns date("...")/datetime("...") into typed literals.
      throw new Error(`compileRuleSql: ${t.fn}() must have been checked into a literal`);
  }
}
