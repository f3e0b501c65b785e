import { tableName } from '../naming.ts';
import type { Typed } from '../rules/ast.ts';
import { typedChildren } from '../rules/typedChildren.ts';
import type { AppSpec } from '../spec/types.ts';
import { columnFor } from './columns.ts';
import { compileRuleSql, type SqlRuleContext } from './compileRuleSql.ts';
import { quoteIdent, quoteLiteral } from './quote.ts';
import { grantsFor, referencedEntity, tableRef } from './specModel.ts';
import { indent, sqlFunction, sqlTrigger } from './sqlFunction.ts';
import { typedRule } from './typedRule.ts';

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

/** The rule texts of a spec that may read other rows, with the entity they are written on. */
interface RuleText {
  entity: string;
  text: string;
  where: string;
  expect?: 'boolean' | 'value';
}

function rulesOf(spec: AppSpec): RuleText[] {
  const out: RuleText[] = [];
  for (const [entity, rules] of Object.entries(spec.validation)) {
    rules.forEach((r, i) => {
      if (r.kind !== 'row') return;
      out.push({ entity, text: r.rule, where: `validation.${entity}.${i}.rule` });
      if (r.when !== undefined) out.push({ entity, text: r.when, where: `validation.${entity}.${i}.when` });
    });
  }
  for (const [entity, st] of Object.entries(spec.states)) {
    for (const [name, tr] of Object.entries(st.transitions)) {
      if (tr.guard !== undefined)
        out.push({ entity, text: tr.guard, where: `states.${entity}.transitions.${name}.guard` });
      for (const [field, text] of Object.entries(tr.set ?? {}))
        out.push({
          entity,
          text,
          where: `states.${entity}.transitions.${name}.set.${field}`,
          expect: 'value',
        });
    }
  }
  for (const g of Object.keys(spec.entities).flatMap((e) => grantsFor(spec, e).map((x) => ({ e, x })))) {
    if (g.x.when !== true && g.x.action !== 'read')
      out.push({ entity: g.e, text: g.x.when, where: `roles.permissions.${g.x.role}.${g.e}.${g.x.action}` });
  }
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
export function lockedGroups(spec: AppSpec): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const add = (g: Group) => {
    const s = out.get(g.entity) ?? new Set<string>();
    s.add(g.field);
    out.set(g.entity, s);
  };
  for (const r of rulesOf(spec)) {
    const typed = typedRule(spec, r.text, r.entity, r.where, r.expect);
    for (const c of countsOf(typed)) add(c.group);
    for (const hop of hopsOf(typed)) {
      if (referencedEntity(spec, spec.entities[r.entity]?.fields[hop] ?? { type: 'text' }))
        add({ entity: r.entity, field: hop });
    }
  }
  return out;
}

/**
 * Depth of an entity in the reference graph (roots 0): locks are always taken ancestors first
 * (a claim's `line.claim` group before a line's `receipt.line` group), so no two parties can
 * wait for each other's groups in opposite orders.
 */
export function entityRank(spec: AppSpec, entity: string, seen: Set<string> = new Set()): number {
  if (seen.has(entity)) return 0;
  seen.add(entity);
  let r = 0;
  for (const f of Object.values(spec.entities[entity]?.fields ?? {})) {
    const p = referencedEntity(spec, f);
    if (p && p !== entity) r = Math.max(r, entityRank(spec, p, new Set(seen)) + 1);
  }
  return r;
}

/** The sort key of a group's lock: whole-entity groups first, then by the referenced entity's depth. */
function groupOrder(spec: AppSpec, g: Group): string {
  if (g.field === '') return `0000:${g.entity}`;
  const f = spec.entities[g.entity]?.fields[g.field];
  const parent = f ? referencedEntity(spec, f) : undefined;
  const rank = parent ? entityRank(spec, parent) + 1 : 999;
  return `${String(rank).padStart(4, '0')}:${g.entity}.${g.field}`;
}

/** Lock statements in the one global order (see `entityRank`), duplicates removed. */
export function ordered(spec: AppSpec, locks: { group: Group; sql: string }[]): string[] {
  const seen = new Set<string>();
  return locks
    .map((l) => ({ k: groupOrder(spec, l.group), sql: l.sql }))
    .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0))
    .map((l) => l.sql)
    .filter((x) => !seen.has(x) && seen.add(x) !== undefined);
}

/** The SQL statement taking the lock of one group value (`value` an SQL expression or null). */
export function lockSql(g: Group, value: string | undefined): string {
  const key = quoteLiteral(`${g.entity}.${g.field}`);
  return `perform app.lock_group(${key}, ${value === undefined ? 'null' : `(${value})::text`});`;
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
        ? lockSql(c.group, undefined)
        : lockSql(c.group, compileRuleSql(c.outer, ctx)),
  }));
}

/** Lock statements for the rule texts given, on row variable `row`. */
export function locksForTexts(
  spec: AppSpec,
  entity: string,
  texts: { text: string; where: string; expect?: 'boolean' | 'value' }[],
  row: string,
): { group: Group; sql: string }[] {
  return texts.flatMap((t) => ruleLocks(typedRule(spec, t.text, entity, t.where, t.expect), { spec, row }));
}

/** Groups of other entities selected by a reference to `parent` (`line.claim` for `claim`). */
export function childGroups(spec: AppSpec, parent: string, groups: Map<string, Set<string>>): Group[] {
  const out: Group[] = [];
  for (const [entity, fields] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    for (const field of [...fields].sort()) {
      const f = spec.entities[entity]?.fields[field];
      if (f && referencedEntity(spec, f) === parent) out.push({ entity, field });
    }
  }
  return out;
}

/** Lock statements a parent write (or a transition) takes for its children's groups. */
export function childLocks(
  spec: AppSpec,
  parent: string,
  groups: Map<string, Set<string>>,
  id: string,
): { group: Group; sql: string }[] {
  return childGroups(spec, parent, groups).map((g) => ({ group: g, sql: lockSql(g, id) }));
}

/** `app.lock_group`: the one advisory-lock primitive (transaction-scoped, 64-bit key from the group). */
export function emitLockFunction(): string {
  return sqlFunction({
    name: 'app.lock_group',
    args: 'p_group text, p_value text',
    argTypes: 'text, text',
    returns: 'void',
    language: 'sql',
    volatility: 'volatile',
    securityDefiner: false,
    body: "select pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(p_group || ':' || coalesce(p_value, '*'), 0))",
    executeTo: ['authenticated'],
    comment: 'Serialises the writers and readers of one group of rows until the end of the transaction.',
  });
}

/**
 * BEFORE INSERT/UPDATE/DELETE trigger of an entity some rule counts or reads through: locks the
 * old and the new group of the written row (and the whole-entity group), in a fixed order.
 */
export function emitWriterLocks(spec: AppSpec, entity: string, groups: Map<string, Set<string>>): string {
  const fields = [...(groups.get(entity) ?? [])];
  const children = childLocks(spec, entity, groups, 'coalesce(new.id, old.id)');
  if (fields.length === 0 && children.length === 0) return '';
  const value = (c: string) =>
    `case tg_op when 'INSERT' then new.${c}::text when 'DELETE' then old.${c}::text else least(old.${c}::text, new.${c}::text) end`;
  const other = (c: string) =>
    `case when tg_op = 'UPDATE' and old.${c} is distinct from new.${c} then greatest(old.${c}::text, new.${c}::text) end`;
  const locks: { group: Group; sql: string }[] = [...children];
  for (const f of fields) {
    const g = { entity, field: f };
    if (f === '') {
      locks.push({ group: g, sql: lockSql(g, undefined) });
      continue;
    }
    const c = quoteIdent(columnFor(spec, entity, f));
    // Old and new group of a moved row, smaller first, so two writers moving rows agree on the order.
    locks.push({
      group: g,
      sql: `${lockSql(g, value(c))}\nif tg_op = 'UPDATE' and old.${c} is distinct from new.${c} then\n  ${lockSql(g, other(c))}\nend if;`,
    });
  }
  // The parent row first (the key-share lock the foreign-key check takes anyway), then the groups:
  // a parent delete holds its row lock before it locks its children's groups, so a child writer
  // holding a group lock and waiting for the parent row would deadlock with it (issue 11).
  const parentRows = fields.flatMap((f) => {
    const spec_ = spec.entities[entity]?.fields[f];
    const parent = spec_ ? referencedEntity(spec, spec_) : undefined;
    if (!parent) return [];
    const c = quoteIdent(columnFor(spec, entity, f));
    return [
      `if tg_op = 'INSERT' or (tg_op = 'UPDATE' and old.${c} is distinct from new.${c}) then\n  perform 1 from ${tableRef(parent)} p where p.id = new.${c} for key share;\nend if;`,
    ];
  });
  const fn = `app.${quoteIdent(`${tableName(entity)}__lock_groups`)}`;
  return [
    sqlFunction({
      name: fn,
      args: '',
      argTypes: '',
      returns: 'trigger',
      language: 'plpgsql',
      volatility: 'volatile',
      // Definer: locking a parent row needs no privilege or visibility the writer lacks.
      securityDefiner: parentRows.length > 0,
      body: `begin\n${indent([...parentRows, ...ordered(spec, locks)].join('\n'))}\n  if tg_op = 'DELETE' then\n    return old;\n  end if;\n  return new;\nend;`,
      executeTo: [],
      comment: `Locks the groups of ${entity} that rules read, before the write (see emitGroupLocks.ts).`,
    }),
    sqlTrigger('ninefold_05_lock_groups', 'before insert or update or delete', tableRef(entity), fn),
  ].join('\n');
}

/** Whether a rule reads rows other than its own (a parent's field, a count or a sum). */
export function readsOtherRows(t: Typed): boolean {
  return hopsOf(t).size > 0 || countsOf(t).length > 0;
}
