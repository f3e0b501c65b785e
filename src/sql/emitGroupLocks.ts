import type { CheckedRule } from '../model/checkedRule.ts';
import type { AppModel } from '../model/index.ts';
import type { Typed } from '../rules/ast.ts';
import { typedChildren } from '../rules/typedChildren.ts';
import { compileRuleSql, type SqlRuleContext } from './compileRuleSql.ts';
import { qualified, quoteIdent, quoteLiteral } from './quote.ts';
import { raiseSql } from './raise.ts';
import { colSql, referenceOf, tableOf, tableRef } from './specModel.ts';
import { indent, sqlFunction, sqlTrigger } from './sqlFunction.ts';
import { typedOf } from './typedRule.ts';

/**
 * Race-free rules over other rows (docs/security.md, "Rules over other rows").
 *
 * A rule that reads other rows — `count(attachment where ticket = this.ticket) <= 20`, a claim's
 * `sum(line.amount where claim = this)`, a line's `currency = claim.currency` — is evaluated under a
 * transaction-scoped advisory lock on the *group* it reads: the counted entity plus the value of the
 * field that selects the group (`attachment.ticket = <id>`). Every writer of a row of that entity
 * takes the same lock (for the row's old and new group) in a BEFORE trigger, so readers and writers
 * of one group are serialised and the reader's next statement (a fresh READ COMMITTED snapshot)
 * sees every committed write. Advisory rather than parent row locks: a row lock on the parent
 * (`for update`) conflicts with the `key share` lock every foreign-key check takes, which turns two
 * concurrent child inserts into a deadlock; advisory locks are taken before any row lock, in one
 * order, by every party. The losers wait and then fail with the rule's own catalogue code.
 */

/** A counted group: rows of `entity` whose `field` equals some value (`''`: every row of `entity`). */
export interface Group {
  entity: string;
  field: string;
}

/** `C.f = <outer>` (either side) inside a count/sum filter: the field and the outer expression. */
function groupEquality(where: Typed | undefined): { field: string; outer: Typed } | undefined {
  if (!where) return undefined;
  if (where.kind === 'binary' && where.op === 'and') {
    return groupEquality(where.left) ?? groupEquality(where.right);
  }
  if (where.kind !== 'binary' || where.op !== '=') return undefined;
  const inner = (t: Typed) => t.kind === 'field' && t.scope === 'inner' && t.path.length === 1;
  const outerOnly = (t: Typed): boolean =>
    !(t.kind === 'field' && t.scope === 'inner') &&
    t.kind !== 'count' &&
    t.kind !== 'sum' &&
    typedChildren(t).every(outerOnly);
  for (const [a, b] of [
    [where.left, where.right],
    [where.right, where.left],
  ] as const) {
    if (inner(a) && a.kind === 'field' && outerOnly(b)) return { field: a.path[0], outer: b };
  }
  return undefined;
}

/** Every count/sum of a rule: its group and the outer expression naming the group's value. */
function countsOf(t: Typed, out: { group: Group; outer?: Typed }[] = []): { group: Group; outer?: Typed }[] {
  if (t.kind === 'count' || t.kind === 'sum') {
    const eq = groupEquality(t.where);
    out.push(
      eq
        ? { group: { entity: t.entity, field: eq.field }, outer: eq.outer }
        : { group: { entity: t.entity, field: '' } },
    );
    // Nested counts read inner rows; their groups are found but their values need the inner row.
    return out;
  }
  for (const c of typedChildren(t)) countsOf(c, out);
  return out;
}

/**
 * The rules of a model that may read other rows, checked: row rules (and their `when`), each
 * transition's `guard` and `set` expressions, and the permissions of writes.
 */
function rulesOf(model: AppModel): CheckedRule[] {
  const out: CheckedRule[] = [];
  for (const t of model.tables.values())
    for (const r of t.rules) if (r.kind === 'row') out.push(r.rule, ...(r.when ? [r.when] : []));
  for (const tr of model.transitions) {
    const guard = tr.guardRules.find((g) => g.rule.path.endsWith('.guard'));
    if (guard) out.push(guard.rule);
    for (const s of tr.setRules) out.push(s.rule);
  }
  for (const p of model.policies) if (p.rule && p.action !== 'read') out.push(p.rule);
  return out;
}

/** Hops a rule reads through (`claim.currency` on a line reads the line's `claim`). */
export function hopsOf(t: Typed, out: Set<string> = new Set()): Set<string> {
  if (t.kind === 'count' || t.kind === 'sum') return out;
  if (t.kind === 'field' && t.scope === 'row' && t.path.length === 2) out.add(t.path[0]);
  for (const c of typedChildren(t)) hopsOf(c, out);
  return out;
}

/**
 * Every group some rule reads, by entity: count/sum groups, and for a rule that reads its parent
 * through a reference, the parent's children group (`line.claim`): a parent change re-checks them.
 */
export function lockedGroups(model: AppModel): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const add = (g: Group) => {
    const s = out.get(g.entity) ?? new Set<string>();
    s.add(g.field);
    out.set(g.entity, s);
  };
  for (const r of rulesOf(model)) {
    const typed = typedOf(r);
    const entity = r.entity as string;
    for (const c of countsOf(typed)) add(c.group);
    for (const hop of hopsOf(typed)) if (referenceOf(model, entity, hop)) add({ entity, field: hop });
  }
  return out;
}

/**
 * Depth of an entity in the reference graph (roots 0): locks are always taken ancestors first
 * (a claim's `line.claim` group before a line's `receipt.line` group), so no two parties can
 * wait for each other's groups in opposite orders.
 */
export function entityRank(model: AppModel, entity: string, seen: Set<string> = new Set()): number {
  if (seen.has(entity)) return 0;
  seen.add(entity);
  let r = 0;
  for (const ref of model.tables.get(entity)?.references ?? []) {
    const p = ref.target;
    if (p !== entity) r = Math.max(r, entityRank(model, p, new Set(seen)) + 1);
  }
  return r;
}

/** The sort key of a group's lock: whole-entity groups first, then by the referenced entity's depth. */
function groupOrder(model: AppModel, g: Group): string {
  if (g.field === '') return `0000:${g.entity}`;
  const parent = referenceOf(model, g.entity, g.field);
  const rank = parent ? entityRank(model, parent) + 1 : 999;
  return `${String(rank).padStart(4, '0')}:${g.entity}.${g.field}`;
}

/** Lock statements in the one global order (see `entityRank`), duplicates removed. */
export function ordered(model: AppModel, locks: { group: Group; sql: string }[]): string[] {
  const seen = new Set<string>();
  return locks
    .map((l) => ({ k: groupOrder(model, l.group), sql: l.sql }))
    .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0))
    .map((l) => l.sql)
    .filter((x) => !seen.has(x) && seen.add(x) !== undefined);
}

/** The SQL value naming a whole-entity group (a count without a group field, or a nested one). */
const WHOLE_ENTITY = "'*'";

/**
 * The SQL statement taking the lock of one group value (`value` an SQL expression; an empty value,
 * a null reference, belongs to no group and takes no lock). `shared`: the writers' mode for a group
 * no rule of their own entity counts (see `writerMode`).
 */
export function lockSql(g: Group, value: string, shared = false): string {
  const key = quoteLiteral(`${g.entity}.${g.field}`);
  return `perform app.${shared ? 'lock_group_shared' : 'lock_group'}(${key}, (${value})::text);`;
}

/**
 * Lock statements for every count/sum a rule reads, evaluated on the rule's row. Groups whose
 * value cannot be computed from the row (nested counts) lock the whole counted entity.
 */
export function ruleLocks(typed: Typed, ctx: SqlRuleContext): { group: Group; sql: string }[] {
  return countsOf(typed).map((c) => ({
    group: c.group,
    sql:
      c.group.field === '' || !c.outer
        ? lockSql(c.group, WHOLE_ENTITY)
        : lockSql(c.group, compileRuleSql(c.outer, ctx)),
  }));
}

/** Lock statements for the rules given, on row variable `row`. */
export function locksForRules(
  model: AppModel,
  rules: readonly CheckedRule[],
  row: string,
): { group: Group; sql: string }[] {
  return rules.flatMap((r) => ruleLocks(typedOf(r), { model, row }));
}

/** Groups of other entities selected by a reference to `parent` (`line.claim` for `claim`). */
export function childGroups(model: AppModel, parent: string, groups: Map<string, Set<string>>): Group[] {
  const out: Group[] = [];
  for (const [entity, fields] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    for (const field of [...fields].sort()) {
      if (referenceOf(model, entity, field) === parent) out.push({ entity, field });
    }
  }
  return out;
}

/** Lock statements a parent write (or a transition) takes for its children's groups. */
export function childLocks(
  model: AppModel,
  parent: string,
  groups: Map<string, Set<string>>,
  id: string,
): { group: Group; sql: string }[] {
  return childGroups(model, parent, groups).map((g) => ({ group: g, sql: lockSql(g, id) }));
}

/**
 * Distinct group locks one client transaction may hold (a REST request is one transaction). The
 * lock table is shared by every database of the server and sized for `max_locks_per_transaction`
 * (64 by default) per connection: a client holding more takes another's share, and enough of them
 * make unrelated writers fail with 53200 "out of shared memory" (issue 28, finding 2).
 */
export const GROUP_LOCK_LIMIT = 64;

/** The transaction-local setting listing the keys of the group locks a client transaction took. */
const HELD_SETTING = 'ninefold.group_locks';

/**
 * The advisory-lock primitives (transaction-scoped, 64-bit key from the group): `app.lock_group`
 * (exclusive) and `app.lock_group_shared`. A null value takes no lock. A client transaction is
 * refused with BATCH_TOO_LARGE before it would hold more than GROUP_LOCK_LIMIT distinct groups;
 * the keys it holds are listed in a transaction-local setting only to count them — every call
 * takes its lock (again: a lock already held costs no shared memory), so the list never decides
 * whether a lock is taken.
 */
export function emitLockFunction(): string {
  const key = `app.${quoteIdent('group_lock_key')}`;
  const held = quoteLiteral(HELD_SETTING);
  const keyFn = sqlFunction({
    name: key,
    args: 'p_group text, p_value text',
    argTypes: 'text, text',
    returns: 'bigint',
    language: 'plpgsql',
    volatility: 'volatile',
    securityDefiner: false,
    body: [
      'declare',
      '  k bigint;',
      '  held text;',
      'begin',
      '  if p_value is null then',
      '    return null;',
      '  end if;',
      "  k := pg_catalog.hashtextextended(p_group || ':' || p_value, 0);",
      // The session's client role: inside the definer triggers current_user is the owner.
      `  if pg_catalog.current_setting('role') in ('anon', 'authenticated') or session_user in ('anon', 'authenticated') then`,
      `    held := coalesce(pg_catalog.current_setting(${held}, true), '');`,
      "    if pg_catalog.strpos(held, ',' || k || ',') = 0 then",
      // ",k1,k2," lists n keys with n + 1 commas.
      `      if pg_catalog.length(held) - pg_catalog.length(pg_catalog.replace(held, ',', '')) > ${GROUP_LOCK_LIMIT} then`,
      `        ${raiseSql('BATCH_TOO_LARGE', { entity: "pg_catalog.split_part(p_group, '.', 1)", limit: String(GROUP_LOCK_LIMIT) })}`,
      '      end if;',
      `      perform pg_catalog.set_config(${held}, coalesce(nullif(held, ''), ',') || k || ',', true);`,
      '    end if;',
      '  end if;',
      '  return k;',
      'end;',
    ].join('\n'),
    executeTo: ['authenticated'],
    comment: `The advisory-lock key of one group value; counts a client transaction's groups (at most ${GROUP_LOCK_LIMIT}).`,
  });
  const lockFn = (name: string, lock: string, comment: string) =>
    sqlFunction({
      name: `app.${quoteIdent(name)}`,
      args: 'p_group text, p_value text',
      argTypes: 'text, text',
      returns: 'void',
      language: 'sql',
      volatility: 'volatile',
      securityDefiner: false,
      body: `select pg_catalog.${lock}(k) from (select ${key}(p_group, p_value) as k) x where k is not null`,
      executeTo: ['authenticated'],
      comment,
    });
  return [
    keyFn,
    lockFn(
      'lock_group',
      'pg_advisory_xact_lock',
      'Serialises the writers and readers of one group of rows until the end of the transaction.',
    ),
    lockFn(
      'lock_group_shared',
      'pg_advisory_xact_lock_shared',
      'A writer’s lock on a group its own rules do not read: writers share it, readers wait for them.',
    ),
  ].join('\n');
}

/** Analysis of the rules for the writers' locks, computed once per spec. */
interface LockAnalysis {
  /** `entity.field` groups that a rule written on the same entity counts or sums (its writers read them). */
  selfRead: Set<string>;
  /** Fields of `child` that rules read inside counts and sums over it, by child (`'all'`: unknown). */
  countedFields: Map<string, Set<string> | 'all'>;
  /** Fields of the parent that rules of `child` read through reference `hop`, by `child.hop`. */
  readThrough: Map<string, Set<string>>;
}

const analyses = new WeakMap<AppModel, LockAnalysis>();

/** Adds the counted rows' fields an expression inside a count/sum reads; false when a nested count hides them. */
function innerFields(t: Typed, out: Set<string>): boolean {
  if (t.kind === 'count' || t.kind === 'sum') return false;
  if (t.kind === 'field' && t.scope === 'inner') out.add(t.path[0] as string);
  return typedChildren(t).every((c) => innerFields(c, out));
}

/** Walks every count/sum of a typed rule, nested ones included. */
function everyCount(t: Typed, visit: (c: Extract<Typed, { kind: 'count' | 'sum' }>) => void): void {
  if (t.kind === 'count' || t.kind === 'sum') visit(t);
  for (const c of typedChildren(t)) everyCount(c, visit);
}

function lockAnalysis(model: AppModel): LockAnalysis {
  const known = analyses.get(model);
  if (known) return known;
  const a: LockAnalysis = { selfRead: new Set(), countedFields: new Map(), readThrough: new Map() };
  for (const r of rulesOf(model)) {
    const typed = typedOf(r);
    for (const c of countsOf(typed))
      if (c.group.entity === r.entity) a.selfRead.add(`${r.entity}.${c.group.field}`);
    everyCount(typed, (c) => {
      const before = a.countedFields.get(c.entity) ?? new Set<string>();
      if (before === 'all') return;
      const fields = new Set<string>(c.kind === 'sum' ? [c.field] : []);
      const known = !c.where || innerFields(c.where, fields);
      a.countedFields.set(c.entity, known ? new Set([...before, ...fields]) : 'all');
    });
    for (const hop of hopsOf(typed)) {
      const k = `${r.entity}.${hop}`;
      a.readThrough.set(k, fieldsThrough(typed, hop, a.readThrough.get(k) ?? new Set()));
    }
  }
  analyses.set(model, a);
  return a;
}

/** The fields of the row behind reference `hop` that a rule reads (`claim.status` → status). */
function fieldsThrough(t: Typed, hop: string, out: Set<string>): Set<string> {
  if (t.kind === 'count' || t.kind === 'sum') return out;
  if (t.kind === 'field' && t.scope === 'row' && t.path.length === 2 && t.path[0] === hop)
    out.add(t.path[1] as string);
  for (const c of typedChildren(t)) fieldsThrough(c, hop, out);
  return out;
}

/** `old.<c> is distinct from new.<c>` for every field given, joined with `or` (`false` if none). */
function anyChanged(model: AppModel, entity: string, fields: Iterable<string>): string {
  const cols = [...new Set([...fields].map((f) => colSql(model, entity, f)))].sort();
  return cols.map((c) => `old.${c} is distinct from new.${c}`).join(' or ') || 'false';
}

/**
 * A parent's locks on its children's groups (`line.claim = <its id>`): only on an update that
 * changes a field the children's rules read through the reference. An insert needs none (nothing
 * can reference an uncommitted row), nor a delete (its row lock keeps out new children, the
 * cascade locks what it removes, and locking before the cascade reached the children's rows
 * inverted the order every child writer takes: finding 28.3). Transitions lock them explicitly.
 */
function parentLocks(model: AppModel, entity: string, groups: Map<string, Set<string>>) {
  const a = lockAnalysis(model);
  return childGroups(model, entity, groups).flatMap((g) => {
    const read = a.readThrough.get(`${g.entity}.${g.field}`) ?? new Set<string>();
    if (read.size === 0) return [];
    return [
      {
        group: g,
        sql: `if tg_op = 'UPDATE' and (${anyChanged(model, entity, read)}) then\n  ${lockSql(g, 'new.id')}\nend if;`,
      },
    ];
  });
}

/**
 * A writer's locks on the groups its row belongs to (old and new group of a moved row, smaller
 * first, so two writers moving rows agree on the order). Exclusive when a rule of the entity itself
 * counts the group (two writers would each read the other's group); shared otherwise: writers of a
 * group need not wait for each other, only for a reader (a transition, a parent change re-checking
 * its children), which takes it exclusively. An update takes it only when it can change what a
 * reader reads: the group field, a field read inside a count over the entity, or always when a rule
 * of the entity reads the parent through it (that rule is checked on every update). A row removed
 * by its parent's cascade takes none: the parent is gone, no reader can come.
 */
function ownLocks(model: AppModel, entity: string, field: string) {
  const a = lockAnalysis(model);
  const g = { entity, field };
  const shared = !a.selfRead.has(`${entity}.${field}`);
  if (field === '') return { group: g, sql: lockSql(g, WHOLE_ENTITY, shared) };
  const c = colSql(model, entity, field);
  const parent = referenceOf(model, entity, field);
  const counted = a.countedFields.get(entity) ?? new Set<string>();
  const onUpdate =
    a.readThrough.has(`${entity}.${field}`) || counted === 'all'
      ? 'true'
      : anyChanged(model, entity, [field, ...counted]);
  const unlessCascaded = parent
    ? `if exists (select 1 from ${tableRef(model, parent)} p where p.id = old.${c}) then\n  ${lockSql(g, `old.${c}`, shared)}\nend if;`
    : lockSql(g, `old.${c}`, shared);
  const sql = [
    "if tg_op = 'INSERT' then",
    `  ${lockSql(g, `new.${c}`, shared)}`,
    "elsif tg_op = 'DELETE' then",
    indent(unlessCascaded),
    onUpdate === 'true' ? 'else' : `elsif ${onUpdate} then`,
    `  ${lockSql(g, `least(old.${c}::text, new.${c}::text)`, shared)}`,
    `  if old.${c} is distinct from new.${c} then`,
    `    ${lockSql(g, `greatest(old.${c}::text, new.${c}::text)`, shared)}`,
    '  end if;',
    'end if;',
  ].join('\n');
  return { group: g, sql };
}

/**
 * BEFORE INSERT/UPDATE/DELETE trigger of an entity some rule counts or reads through: locks the
 * groups of the written row that a reader may be reading, in the one global order.
 */
export function emitWriterLocks(model: AppModel, entity: string, groups: Map<string, Set<string>>): string {
  const fields = [...(groups.get(entity) ?? [])];
  const locks: { group: Group; sql: string }[] = [
    ...parentLocks(model, entity, groups),
    ...fields.map((f) => ownLocks(model, entity, f)),
  ];
  // The parent row first (the key-share lock the foreign-key check takes anyway), then the groups:
  // a parent delete holds its row lock before its cascade reaches the children, so a child writer
  // holding a group lock and waiting for the parent row would deadlock with it (issue 11).
  const parentRows = fields.flatMap((f) => {
    const parent = referenceOf(model, entity, f);
    if (!parent) return [];
    const c = colSql(model, entity, f);
    return [
      `if tg_op = 'INSERT' or (tg_op = 'UPDATE' and old.${c} is distinct from new.${c}) then\n  perform 1 from ${tableRef(model, parent)} p where p.id = new.${c} for key share;\nend if;`,
    ];
  });
  if (locks.length === 0 && parentRows.length === 0) return '';
  const fn = qualified('app', tableOf(model, entity).names.lockGroups);
  return [
    sqlFunction({
      name: fn,
      args: '',
      argTypes: '',
      returns: 'trigger',
      language: 'plpgsql',
      volatility: 'volatile',
      // Definer: locking a parent row, or seeing whether it is gone, needs no privilege or
      // visibility the writer lacks.
      securityDefiner: parentRows.length > 0,
      body: `begin\n${indent([...parentRows, ...ordered(model, locks)].join('\n'))}\n  if tg_op = 'DELETE' then\n    return old;\n  end if;\n  return new;\nend;`,
      executeTo: [],
      comment: `Locks the groups of ${entity} that rules read, before the write (see emitGroupLocks.ts).`,
    }),
    sqlTrigger('ninefold_05_lock_groups', 'before insert or update or delete', tableRef(model, entity), fn),
  ].join('\n');
}

/** Whether a rule reads rows other than its own (a parent's field, a count or a sum). */
export function readsOtherRows(t: Typed): boolean {
  return hopsOf(t).size > 0 || countsOf(t).length > 0;
}
