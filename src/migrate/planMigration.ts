import type { AppModel } from '../model/appModel.ts';
import { modelOf, type SpecOrModel } from '../model/modelOf.ts';
import { migrationOf } from '../sql/compileMigration.ts';
import { doBlock, quoteIdent, quoteLiteral, sqlComment, unquoteIdent } from '../sql/quote.ts';
import type { Target } from '../sql/specModel.ts';
import type { Invariant } from './invariants.ts';
import { type LockModel, lockModel, type SchemaSql } from './lockModel.ts';
import type { ColumnShape, ConstraintShape, TableShape } from './schemaModel.ts';

export interface PlanOptions {
  /** Drop fields, entities and history that the spec no longer has (their data is lost). */
  allowDestructive?: boolean;
  /**
   * Existing rows that break a new or tightened rule: `refuse` (default) stops the migration and
   * lists them; `keep` adds the CHECK `NOT VALID` (new writes are checked, those rows stay as they
   * are until someone fixes them) and validates it when no row breaks it.
   */
  violations?: 'refuse' | 'keep';
  /** The schema-defining SQL of the current spec (default: the migration alone). */
  sqlOf?: SchemaSql;
  /** Where the migration runs; must be the lock's (default: the lock's). */
  target?: Target;
}

/** Why the planner will not write a migration. */
export interface PlanRefusal {
  code: 'STATE_WITHOUT_MAPPING' | 'NO_CAST' | 'DESTRUCTIVE' | 'TARGET_CHANGED';
  message: string;
}

/** Data a migration would delete (needs `allowDestructive`). */
export interface Loss {
  kind: 'table' | 'column';
  table: string;
  column?: string;
  /** In the spec's words: `field ticket.rating`, `entity savedReply`, `history of ticket`. */
  what: string;
  /** Counts what would be lost (rows, or non-empty values), on the database before the migration. */
  countSql: string;
}

export interface MigrationPlan {
  /** One line per change, in the spec's words, for the CLI and the migration's header. */
  changes: string[];
  losses: Loss[];
  refused: PlanRefusal[];
  /** The migration (also written when refused, for inspection; never applied then). */
  sql: string;
  /** Whether anything but re-creating the behaviour changes (no change at all: `changes` is empty). */
  empty: boolean;
}

/** `public.ticket` → `ticket` (unquoted). */
function bare(qualified: string): string {
  const name = qualified.slice(qualified.indexOf('.') + 1);
  return unquoteIdent(name);
}

function schemaOf(qualified: string): string {
  return qualified.slice(0, qualified.indexOf('.'));
}

/** SQL types between which `using c::type` exists for every stored value or fails loudly per row. */
function castable(from: string, to: string): boolean {
  if (from === to || to === 'text') return true;
  const numeric = ['integer', 'bigint', 'numeric'];
  if (numeric.includes(from) && numeric.includes(to)) return true;
  if (from === 'text') return to !== 'text[]' && to !== 'bytea';
  if ((from === 'date' && to === 'timestamptz') || (from === 'timestamptz' && to === 'date')) return true;
  return from === 'integer' && to === 'boolean';
}

function sameColumn(a: ColumnShape, b: ColumnShape): boolean {
  return a.type === b.type && a.notNull === b.notNull && a.default === b.default;
}

/** The expression a CHECK holds on; rows break it when it is false (not when it is null). */
function checkExpr(def: string): string | undefined {
  const m = /^check \((.*)\)$/s.exec(def);
  return m?.[1];
}

function uniqueColumns(def: string): string | undefined {
  return /^unique \((.*)\)$/s.exec(def)?.[1];
}

interface TablePair {
  old: string;
  now: string;
  /** column now → column before */
  columns: Map<string, string>;
  entity?: string;
}

/** What the planner collects, phase by phase, before it writes the migration. */
interface PlanState {
  locked: LockModel;
  current: LockModel;
  model: AppModel;
  mode: 'refuse' | 'keep';
  changes: string[];
  losses: Loss[];
  refused: PlanRefusal[];
  pairs: TablePair[];
  /** Tables of the lock that a current table continues. */
  matchedOld: Set<string>;
  dropBehaviour: string[];
  dropStructure: string[];
  reshape: string[];
  destroy: string[];
  guards: string[];
  constrain: string[];
}

/**
 * Plans the migration from a locked (deployed) model to a specification: pure, no database.
 * Data-bearing objects are altered one by one (renames, added and dropped columns, type changes,
 * state mappings, constraints); behaviour (functions, triggers, policies, grants) is dropped and
 * created again from the current migration, which runs last, so the result equals a fresh
 * migration of the spec. Rows that would break a new rule, a new UNIQUE or a new NOT NULL are
 * counted in one guard before anything is constrained, and the migration stops listing them
 * (`MIGRATION_REFUSED`, detail = JSON list) unless `violations: 'keep'` applies to them.
 *
 * @example
 * const plan = planMigration(parseLock(lockText), spec, { allowDestructive: false });
 * if (plan.refused.length === 0) write(plan.sql);
 */
export function planMigration(locked: LockModel, app: SpecOrModel, options: PlanOptions = {}): MigrationPlan {
  const model = modelOf(app);
  const target = options.target ?? locked.target;
  const sqlOf = options.sqlOf;
  const current = lockModel(model, target, sqlOf);
  const currentSql = (sqlOf ?? migrationOf)(model, target);
  const st: PlanState = {
    locked,
    current,
    model,
    mode: options.violations ?? 'refuse',
    changes: [],
    losses: [],
    refused: [],
    pairs: [],
    matchedOld: new Set(),
    dropBehaviour: [],
    dropStructure: [],
    reshape: [],
    destroy: [],
    guards: [],
    constrain: [],
  };
  for (const [entity, now] of Object.entries(current.entities)) pairEntity(st, entity, now);
  pairOtherTables(st);
  const removedTables = Object.keys(locked.schema.tables).filter((t) => !st.matchedOld.has(t));
  lostTables(st);
  dropBehaviour(st);
  dropChangedIndexes(st);
  for (const p of st.pairs) alterTable(st, p);
  checkInvariants(st);
  if (removedTables.length > 0) st.destroy.push(`drop table if exists ${removedTables.join(', ')};`);
  if (st.losses.length > 0 && !options.allowDestructive)
    st.refused.push({
      code: 'DESTRUCTIVE',
      message: `this change deletes data: ${st.losses.map((l) => l.what).join(', ')}. Run again with --allow-destructive if that is what you want`,
    });
  for (const l of st.losses) st.changes.push(`drop ${l.what}`);
  if (locked.target !== target)
    st.refused.push({ code: 'TARGET_CHANGED', message: `the lock is for ${locked.target}, not ${target}` });
  const { changes, losses, refused } = st;
  const sql = migrationText(st, target, currentSql);
  return { changes, losses, refused, sql: `${sql}\n`, empty: changes.length === 0 };
}

/** Which table (and columns) of the lock a current entity's table is; its renames and states. */
function pairEntity(st: PlanState, entity: string, now: LockModel['entities'][string]): void {
  const { locked, model, changes } = st;
  const from = model.tables.get(entity)?.spec.renamedFrom;
  const oldName = locked.entities[entity] ? entity : from && locked.entities[from] ? from : undefined;
  if (oldName === undefined) {
    changes.push(`new entity ${entity}`);
    return;
  }
  const old = locked.entities[oldName];
  if (!old) return;
  if (oldName !== entity) changes.push(`entity ${oldName} renamed to ${entity}`);
  const columns = new Map<string, string>();
  for (const [field, column] of Object.entries(now.fields)) {
    const renamed = model.tables.get(entity)?.spec.fields[field]?.renamedFrom;
    const oldField =
      old.fields[field] !== undefined ? field : renamed && old.fields[renamed] ? renamed : undefined;
    const oldColumn = oldField ? old.fields[oldField] : undefined;
    if (oldColumn !== undefined) {
      columns.set(column, oldColumn);
      if (oldField !== field) changes.push(`field ${entity}.${oldField} renamed to ${field}`);
    }
  }
  st.pairs.push({ old: old.table, now: now.table, columns, entity });
  st.matchedOld.add(old.table);
  if (old.history && now.history) {
    st.pairs.push({ old: old.history, now: now.history, columns: new Map() });
    st.matchedOld.add(old.history);
  }
  // States: removed ones need a mapping for their rows.
  if (old.states && now.states) {
    const gone = old.states.values.filter((s) => !now.states?.values.includes(s));
    const added = now.states.values.filter((s) => !old.states?.values.includes(s));
    for (const s of added) changes.push(`new state ${entity}.${s}`);
    for (const s of gone) {
      const to = model.machines.get(entity)?.spec.removedStates?.[s];
      if (to === undefined)
        st.refused.push({
          code: 'STATE_WITHOUT_MAPPING',
          message: `state ${entity}.${s} was removed: say where its rows go with states.${entity}.removedStates.${s} = '<state>'`,
        });
      else changes.push(`state ${entity}.${s} removed, its rows move to ${to}`);
    }
  }
}

/** Tables that are not entities (app.user_roles) keep their name; implicit columns match by name. */
function pairOtherTables(st: PlanState): void {
  const oldTables = st.locked.schema.tables;
  const newTables = st.current.schema.tables;
  for (const t of Object.keys(newTables)) {
    if (oldTables[t] && !st.matchedOld.has(t) && !st.pairs.some((p) => p.now === t)) {
      st.pairs.push({ old: t, now: t, columns: new Map() });
      st.matchedOld.add(t);
    }
  }
  // Implicit columns (id, created_at, file columns…) match by name.
  for (const p of st.pairs) {
    const o = oldTables[p.old];
    for (const c of Object.keys(newTables[p.now]?.columns ?? {}))
      if (!p.columns.has(c) && o?.columns[c] && ![...p.columns.values()].includes(c)) p.columns.set(c, c);
  }
}

/** Entities (and histories) of the lock that no current table continues: their rows are lost. */
function lostTables(st: PlanState): void {
  const count = (table: string) => `select count(*)::bigint as n from ${table}`;
  for (const [name, old] of Object.entries(st.locked.entities)) {
    if (st.matchedOld.has(old.table)) {
      if (old.history && !st.matchedOld.has(old.history)) {
        st.losses.push({
          kind: 'table',
          table: old.history,
          what: `history of ${name} (its states were removed)`,
          countSql: count(old.history),
        });
      }
      continue;
    }
    st.losses.push({ kind: 'table', table: old.table, what: `entity ${name}`, countSql: count(old.table) });
    if (old.history)
      st.losses.push({
        kind: 'table',
        table: old.history,
        what: `history of ${name}`,
        countSql: count(old.history),
      });
  }
}

/** Phase 1: the locked model's policies, triggers, functions and realtime publication go. */
function dropBehaviour(st: PlanState): void {
  const b = st.locked.schema.behaviour;
  const out = st.dropBehaviour;
  // First: a masking view depends on its read functions, and its screen filters on its row type
  // (dropped with it; the spec below creates all three again).
  for (const v of b.views ?? []) out.push(`drop view if exists ${v} cascade;`);
  for (const [name, table] of b.policies) out.push(`drop policy if exists ${name} on ${table};`);
  for (const [name, table] of b.triggers) out.push(`drop trigger if exists ${name} on ${table};`);
  for (const fn of b.functions) out.push(`drop function if exists ${fn};`);
  for (const t of st.locked.schema.publication)
    if (!st.current.schema.publication.includes(st.pairs.find((p) => p.old === t)?.now ?? ''))
      out.push(
        doBlock(
          ` begin if exists (select 1 from pg_catalog.pg_publication_tables where pubname = 'supabase_realtime' and schemaname = ${quoteLiteral(schemaOf(t))} and tablename = ${quoteLiteral(bare(t))}) then alter publication supabase_realtime drop table ${t}; end if; end `,
        ),
      );
}

/** Indexes whose name or definition changed (a renamed table renames nothing but the table). */
function dropChangedIndexes(st: PlanState): void {
  const renamedTable = new Map(st.pairs.map((p) => [p.old, p.now]));
  for (const [name, idx] of Object.entries(st.locked.schema.indexes)) {
    if (!st.matchedOld.has(idx.table)) continue;
    const now = st.current.schema.indexes[name];
    if (now && now.sql === idx.sql && renamedTable.get(idx.table) === idx.table) continue;
    st.dropStructure.push(`drop index if exists ${quoteIdent(schemaOf(idx.table))}.${quoteIdent(name)};`);
  }
}

/** One table the lock and the spec both have: constraints, rename, columns, removed states. */
function alterTable(st: PlanState, p: TablePair): void {
  const o = st.locked.schema.tables[p.old] as TableShape;
  const n = st.current.schema.tables[p.now] as TableShape;
  const label = p.entity ?? bare(p.now);
  const kept = new Set<string>();
  // Constraints: kept when name and definition are the same, otherwise dropped and added again.
  for (const [name, c] of Object.entries(o.constraints)) {
    if (p.old === p.now && n.constraints[name]?.def === c.def) {
      kept.add(name);
      continue;
    }
    st.dropStructure.push(`alter table ${p.old} drop constraint if exists ${quoteIdent(name)};`);
  }
  if (p.old !== p.now) {
    st.reshape.push(`alter table ${p.old} rename to ${quoteIdent(bare(p.now))};`);
    // Names Postgres chose (`<table>_pkey`, `<table>_<column>_not_null`, `<table>_id_fkey`) follow
    // the table, as a fresh migration would name them.
    st.reshape.push(renameAutoNames(p.now, `${bare(p.old)}_`, `${bare(p.now)}_`));
  }
  for (const [col, shape] of Object.entries(n.columns)) {
    const was = p.columns.get(col);
    const field = fieldOfColumn(st.current, p.entity, col);
    const what = field ? `field ${label}.${field}` : `column ${bare(p.now)}.${col}`;
    if (was === undefined) addColumn(st, p.now, col, shape, what);
    else alterColumn(st, p.now, col, was, o.columns[was] as ColumnShape, shape, what);
  }
  dropColumns(st, p, o, label);
  if (p.entity) moveRemovedStates(st, p, p.entity);
  // New and changed CHECK / UNIQUE constraints of an existing table: the current migration's
  // `create table if not exists` does not touch the table, so they are added here, after the guard.
  for (const [name, c] of Object.entries(n.constraints)) {
    if (kept.has(name) || c.source !== 'inline') continue;
    addConstraint(p.now, name, c, label, st.mode, st.guards, st.constrain, st.changes);
  }
}

/**
 * A new column gets its default on every existing row; without one it is empty, so NOT NULL waits
 * for the guard (existing rows would have no value).
 */
function addColumn(st: PlanState, table: string, col: string, shape: ColumnShape, what: string): void {
  st.changes.push(`new ${what}`);
  st.reshape.push(
    `alter table ${table} add column ${quoteIdent(col)} ${shape.type}${shape.default !== undefined ? ` default ${shape.default}` : ''}${shape.notNull && shape.default !== undefined ? ' not null' : ''};`,
  );
  if (shape.notNull && shape.default === undefined) {
    st.guards.push(
      notNullGuard(table, col, `${what} is required and has no default: existing rows would have no value`),
    );
    st.constrain.push(`alter table ${table} alter column ${quoteIdent(col)} set not null;`);
  }
}

/** A column the lock has (maybe under another name): rename, retype, default, NOT NULL. */
function alterColumn(
  st: PlanState,
  table: string,
  col: string,
  was: string,
  before: ColumnShape,
  shape: ColumnShape,
  what: string,
): void {
  const c = quoteIdent(col);
  if (was !== col) st.reshape.push(`alter table ${table} rename column ${quoteIdent(was)} to ${c};`);
  if (sameColumn(before, shape)) return;
  if (before.type !== shape.type) {
    if (!castable(before.type, shape.type)) {
      st.refused.push({
        code: 'NO_CAST',
        message: `${what} changes from ${before.type} to ${shape.type}, which has no cast: add a new field and copy the data by hand`,
      });
      return;
    }
    st.changes.push(`${what} changes type from ${before.type} to ${shape.type}`);
    if (before.default !== undefined) st.reshape.push(`alter table ${table} alter column ${c} drop default;`);
    st.reshape.push(`alter table ${table} alter column ${c} type ${shape.type} using ${c}::${shape.type};`);
  }
  if (before.default !== shape.default || before.type !== shape.type) {
    if (shape.default !== undefined)
      st.reshape.push(`alter table ${table} alter column ${c} set default ${shape.default};`);
    else if (before.type === shape.type)
      st.reshape.push(`alter table ${table} alter column ${c} drop default;`);
  }
  if (before.notNull && !shape.notNull) {
    st.changes.push(`${what} becomes optional`);
    st.reshape.push(`alter table ${table} alter column ${c} drop not null;`);
  } else if (!before.notNull && shape.notNull) {
    st.changes.push(`${what} becomes required`);
    st.guards.push(notNullGuard(table, col, `${what} becomes required: existing rows have no value`));
    st.constrain.push(`alter table ${table} alter column ${c} set not null;`);
  }
}

/** Columns of the lock no current column continues: their values are lost. */
function dropColumns(st: PlanState, p: TablePair, o: TableShape, label: string): void {
  const oldColumnsUsed = new Set(p.columns.values());
  for (const col of Object.keys(o.columns)) {
    if (oldColumnsUsed.has(col)) continue;
    const field = fieldOfColumn(st.locked, entityBefore(st.locked, p.old), col);
    const what = field ? `field ${label}.${field}` : `column ${bare(p.now)}.${col}`;
    st.losses.push({
      kind: 'column',
      table: p.old,
      column: col,
      what,
      countSql: `select count(${quoteIdent(col)})::bigint as n from ${p.old}`,
    });
    st.destroy.push(`alter table ${p.now} drop column if exists ${quoteIdent(col)};`);
  }
}

/** Removed states: rows move to the mapped state before the allowed-values CHECK returns. */
function moveRemovedStates(st: PlanState, p: TablePair, entity: string): void {
  const states = st.model.machines.get(entity)?.spec;
  const old = st.locked.entities[entityBefore(st.locked, p.old) ?? ''];
  const col = st.current.entities[entity]?.fields[states?.field ?? ''];
  const moves = Object.entries(states?.removedStates ?? {}).filter(([s]) => old?.states?.values.includes(s));
  if (states && col && moves.length > 0) {
    const c = quoteIdent(col);
    st.reshape.push(
      `update ${p.now} set ${c} = case ${c} ${moves.map(([s, to]) => `when ${quoteLiteral(s)} then ${quoteLiteral(to)}`).join(' ')} else ${c} end where ${c} in (${moves.map(([s]) => quoteLiteral(s)).join(', ')});`,
    );
  }
}

/**
 * Rules enforced by triggers (counts, sums, a referenced row) that are new or changed: existing
 * rows are checked against them too (triggers check only later writes).
 */
function checkInvariants(st: PlanState): void {
  const tablesThere = new Set(st.pairs.map((p) => p.now));
  for (const inv of changedInvariants(st.locked, st.current, tablesThere)) {
    const label = st.pairs.find((p) => p.now === inv.table)?.entity ?? bare(inv.table);
    st.changes.push(`rule ${inv.name} on ${label} (new or changed): existing rows are checked`);
    if (st.mode === 'refuse') st.guards.push(invariantGuard(inv));
    else st.constrain.push(invariantNotice(inv));
  }
}

/** The one guard block: every problem counted first, then MIGRATION_REFUSED with the list. */
function guardBlock(guards: readonly string[]): string {
  if (guards.length === 0) return '';
  return [
    '-- Rows that would break a new rule, UNIQUE or NOT NULL: all counted first, then the migration',
    '-- stops with MIGRATION_REFUSED and the list (detail, JSON) before anything is constrained.',
    doBlock(
      [
        '',
        'declare',
        "  v_problems jsonb := '[]'::jsonb;",
        '  v_n bigint;',
        '  v_examples jsonb;',
        'begin',
        ...guards.map((g) => indent(g)),
        '  if jsonb_array_length(v_problems) > 0 then',
        "    raise exception using errcode = 'P0001', message = 'MIGRATION_REFUSED', detail = v_problems::text,",
        "      hint = 'fix these rows first (or, for rules, migrate with --violations keep)';",
        '  end if;',
        'end ',
      ].join('\n'),
      'guard',
    ),
  ].join('\n');
}

/** The migration's text: header with the changes, then the seven phases in order. */
function migrationText(st: PlanState, target: Target, currentSql: string): string {
  const guard = guardBlock(st.guards);
  return [
    sqlComment(
      `Ninefold migration for "${st.model.purpose.name}" (target: ${target}): from the locked model to the spec.`,
    ),
    '-- Generated by `ninefold migrate`: do not edit. Changes:',
    ...(st.changes.length > 0
      ? st.changes.map((c) => sqlComment(c, '--   '))
      : ['--   (none: functions, policies and grants are re-created)']),
    '',
    section('1. Behaviour of the locked model (re-created from the spec below)', st.dropBehaviour),
    section('2. Constraints and indexes that change', st.dropStructure),
    section('3. Tables and columns (renamed, added, retyped; removed states mapped)', st.reshape),
    section('4. Data deleted on purpose (--allow-destructive)', st.destroy),
    section('5. Existing rows against the new rules', guard ? [guard] : []),
    section('6. New rules on existing tables', st.constrain),
    section('7. The specification, as a fresh migration would create it', [currentSql.trimEnd()]),
  ]
    .filter((s) => s.length > 0)
    .join('\n\n');
}

/**
 * Renames the constraints Postgres named itself (primary key, NOT NULL on PostgreSQL 18, inline
 * foreign keys: no `__` in the name) from one prefix to another.
 */
function renameAutoNames(table: string, from: string, to: string, exact = false): string {
  const match = exact
    ? `conname = ${quoteLiteral(from)}`
    : `left(conname, ${from.length}) = ${quoteLiteral(from)}`;
  return doBlock(
    [
      '',
      'declare r record;',
      'begin',
      `  for r in select conname from pg_catalog.pg_constraint where conrelid = ${quoteLiteral(table)}::regclass`,
      `    and contype in ('p', 'n', 'f') and position('__' in conname) = 0 and ${match} loop`,
      `    execute format(${quoteLiteral(`alter table ${table} rename constraint %I to %I`)}, r.conname, ${quoteLiteral(to)} || substr(r.conname, ${from.length + 1}));`,
      '  end loop;',
      'end ',
    ].join('\n'),
  );
}

function section(title: string, lines: readonly string[]): string {
  return lines.length === 0
    ? ''
    : `${sqlComment(['='.repeat(70), title, '='.repeat(70)].join('\n'))}\n${lines.join('\n')}`;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}

function entityBefore(locked: LockModel, table: string): string | undefined {
  return Object.entries(locked.entities).find(([, e]) => e.table === table)?.[0];
}

function fieldOfColumn(model: LockModel, entity: string | undefined, column: string): string | undefined {
  if (!entity) return undefined;
  return Object.entries(model.entities[entity]?.fields ?? {}).find(([, c]) => c === column)?.[0];
}

function problem(fields: Record<string, string>): string {
  const pairs = Object.entries(fields).map(([k, v]) => `${quoteLiteral(k)}, ${v}`);
  return `v_problems := v_problems || jsonb_build_object(${pairs.join(', ')}, 'count', v_n, 'examples', v_examples);`;
}

function notNullGuard(table: string, col: string, message: string): string {
  return [
    `select count(*), coalesce(jsonb_agg(x.id) filter (where x.k <= 5), '[]'::jsonb) into v_n, v_examples`,
    `  from (select id, row_number() over (order by id) as k from ${table} where ${quoteIdent(col)} is null) x;`,
    `if v_n > 0 then ${problem({ kind: quoteLiteral('required'), table: quoteLiteral(table), column: quoteLiteral(col), message: quoteLiteral(message) })} end if;`,
  ].join('\n');
}

/**
 * Invariants of the current spec that the locked model did not have in this form, on tables
 * that exist before the current migration runs (a rule reading a table the migration creates is
 * checked from the next write on). A lock from before invariants were recorded: all of them.
 */
function changedInvariants(locked: LockModel, current: LockModel, tables: Set<string>): Invariant[] {
  const before = locked.invariants && new Set(locked.invariants.map((v) => `${v.table}\n${v.holds}`));
  return (current.invariants ?? []).filter(
    (v) =>
      tables.has(v.table) && v.reads.every((t) => tables.has(t)) && !before?.has(`${v.table}\n${v.holds}`),
  );
}

function invariantGuard(v: Invariant): string {
  return [
    `select count(*), coalesce(jsonb_agg(x.id) filter (where x.k <= 5), '[]'::jsonb) into v_n, v_examples`,
    `  from (select r.id, row_number() over (order by r.id) as k from ${v.table} r where not (${v.holds})) x;`,
    `if v_n > 0 then ${problem({ kind: quoteLiteral('rule'), table: quoteLiteral(v.table), constraint: quoteLiteral(v.name), code: quoteLiteral(v.code), rule: quoteLiteral(v.rule) })} end if;`,
  ].join('\n');
}

/** `--violations keep`: the rows stay; the migration says how many break the rule. */
function invariantNotice(v: Invariant): string {
  // Through doBlock: the rule's SQL holds spec text (enum values), which must not end the block.
  return doBlock(
    [
      '',
      'declare v_n bigint;',
      'begin',
      `  select count(*) into v_n from ${v.table} r where not (${v.holds});`,
      `  if v_n > 0 then raise notice '%', format('%s existing rows of %s break %s: kept (new writes are checked)', v_n, ${quoteLiteral(v.table)}, ${quoteLiteral(v.name)}); end if;`,
      'end ',
    ].join('\n'),
  );
}

function addConstraint(
  table: string,
  name: string,
  c: ConstraintShape,
  label: string,
  mode: 'refuse' | 'keep',
  guards: string[],
  constrain: string[],
  changes: string[],
): void {
  const n = quoteIdent(name);
  const expr = checkExpr(c.def);
  const unique = uniqueColumns(c.def);
  if (expr !== undefined) {
    changes.push(`rule ${name} on ${label} (new or changed)`);
    const broken = `from ${table} where not (${expr})`;
    if (mode === 'refuse') {
      guards.push(
        [
          `select count(*), coalesce(jsonb_agg(x.id) filter (where x.k <= 5), '[]'::jsonb) into v_n, v_examples`,
          `  from (select id, row_number() over (order by id) as k ${broken}) x;`,
          `if v_n > 0 then ${problem({ kind: quoteLiteral('rule'), table: quoteLiteral(table), constraint: quoteLiteral(name), rule: quoteLiteral(expr) })} end if;`,
        ].join('\n'),
      );
      // NOT VALID + VALIDATE: the scan takes a lock that lets reads and writes go on meanwhile.
      constrain.push(`alter table ${table} add constraint ${n} ${c.def} not valid;`);
      constrain.push(`alter table ${table} validate constraint ${n};`);
    } else {
      constrain.push(`alter table ${table} add constraint ${n} ${c.def} not valid;`);
      constrain.push(
        doBlock(
          [
            '',
            'declare v_n bigint;',
            'begin',
            `  select count(*) into v_n ${broken};`,
            `  if v_n = 0 then alter table ${table} validate constraint ${n};`,
            `  else raise notice '%', format('%s existing rows of %s break %s: kept, not validated (new writes are checked)', v_n, ${quoteLiteral(table)}, ${quoteLiteral(name)});`,
            '  end if;',
            'end ',
          ].join('\n'),
        ),
      );
    }
    return;
  }
  if (unique !== undefined) {
    changes.push(`unique ${name} on ${label}`);
    guards.push(
      [
        `select count(*), coalesce(jsonb_agg(x.v) filter (where x.k <= 5), '[]'::jsonb) into v_n, v_examples`,
        `  from (select (${unique})::text as v, row_number() over (order by (${unique})::text) as k from ${table} where (${unique}) is not null group by ${unique} having count(*) > 1) x;`,
        `if v_n > 0 then ${problem({ kind: quoteLiteral('unique'), table: quoteLiteral(table), constraint: quoteLiteral(name) })} end if;`,
      ].join('\n'),
    );
  }
  constrain.push(`alter table ${table} add constraint ${n} ${c.def};`);
}
