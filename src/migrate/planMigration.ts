import type { AppSpec } from '../spec/types.ts';
import { compileMigration } from '../sql/compileMigration.ts';
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
export function planMigration(locked: LockModel, spec: AppSpec, options: PlanOptions = {}): MigrationPlan {
  const target = options.target ?? locked.target;
  const sqlOf = options.sqlOf;
  const current = lockModel(spec, target, sqlOf);
  const currentSql = (sqlOf ?? ((s, t) => compileMigration(s, { target: t })))(spec, target);
  const mode = options.violations ?? 'refuse';
  const changes: string[] = [];
  const losses: Loss[] = [];
  const refused: PlanRefusal[] = [];
  const oldTables = locked.schema.tables;
  const newTables = current.schema.tables;

  // ---- Which table (and column) of the lock each current one is --------------------------------
  const pairs: TablePair[] = [];
  const matchedOld = new Set<string>();
  const entityRename = new Map<string, string>();
  for (const [entity, now] of Object.entries(current.entities)) {
    const from = spec.entities[entity]?.renamedFrom;
    const oldName = locked.entities[entity] ? entity : from && locked.entities[from] ? from : undefined;
    if (oldName === undefined) {
      changes.push(`new entity ${entity}`);
      continue;
    }
    const old = locked.entities[oldName];
    if (!old) continue;
    if (oldName !== entity) {
      entityRename.set(oldName, entity);
      changes.push(`entity ${oldName} renamed to ${entity}`);
    }
    const columns = new Map<string, string>();
    for (const [field, column] of Object.entries(now.fields)) {
      const renamed = spec.entities[entity]?.fields[field]?.renamedFrom;
      const oldField =
        old.fields[field] !== undefined ? field : renamed && old.fields[renamed] ? renamed : undefined;
      const oldColumn = oldField ? old.fields[oldField] : undefined;
      if (oldColumn !== undefined) {
        columns.set(column, oldColumn);
        if (oldField !== field) changes.push(`field ${entity}.${oldField} renamed to ${field}`);
      }
    }
    pairs.push({ old: old.table, now: now.table, columns, entity });
    matchedOld.add(old.table);
    if (old.history && now.history) {
      pairs.push({ old: old.history, now: now.history, columns: new Map() });
      matchedOld.add(old.history);
    }
    // States: removed ones need a mapping for their rows.
    if (old.states && now.states) {
      const gone = old.states.values.filter((s) => !now.states?.values.includes(s));
      const added = now.states.values.filter((s) => !old.states?.values.includes(s));
      for (const s of added) changes.push(`new state ${entity}.${s}`);
      for (const s of gone) {
        const to = spec.states[entity]?.removedStates?.[s];
        if (to === undefined)
          refused.push({
            code: 'STATE_WITHOUT_MAPPING',
            message: `state ${entity}.${s} was removed: say where its rows go with states.${entity}.removedStates.${s} = '<state>'`,
          });
        else changes.push(`state ${entity}.${s} removed, its rows move to ${to}`);
      }
    }
  }
  // Tables that are not entities (app.user_roles) keep their name.
  for (const t of Object.keys(newTables)) {
    if (oldTables[t] && !matchedOld.has(t) && !pairs.some((p) => p.now === t)) {
      pairs.push({ old: t, now: t, columns: new Map() });
      matchedOld.add(t);
    }
  }
  // Implicit columns (id, created_at, file columns…) match by name.
  for (const p of pairs) {
    const o = oldTables[p.old];
    for (const c of Object.keys(newTables[p.now]?.columns ?? {}))
      if (!p.columns.has(c) && o?.columns[c] && ![...p.columns.values()].includes(c)) p.columns.set(c, c);
  }
  const removedTables = Object.keys(oldTables).filter((t) => !matchedOld.has(t));
  for (const [name, old] of Object.entries(locked.entities)) {
    if (matchedOld.has(old.table)) {
      if (old.history && !matchedOld.has(old.history)) {
        losses.push({
          kind: 'table',
          table: old.history,
          what: `history of ${name} (its states were removed)`,
          countSql: `select count(*)::bigint as n from ${old.history}`,
        });
      }
      continue;
    }
    losses.push({
      kind: 'table',
      table: old.table,
      what: `entity ${name}`,
      countSql: `select count(*)::bigint as n from ${old.table}`,
    });
    if (old.history)
      losses.push({
        kind: 'table',
        table: old.history,
        what: `history of ${name}`,
        countSql: `select count(*)::bigint as n from ${old.history}`,
      });
  }

  // ---- Phases -----------------------------------------------------------------------------------
  const dropBehaviour: string[] = [];
  const dropStructure: string[] = [];
  const reshape: string[] = [];
  const destroy: string[] = [];
  const guards: string[] = [];
  const constrain: string[] = [];

  const b = locked.schema.behaviour;
  for (const [name, table] of b.policies) dropBehaviour.push(`drop policy if exists ${name} on ${table};`);
  for (const [name, table] of b.triggers) dropBehaviour.push(`drop trigger if exists ${name} on ${table};`);
  for (const fn of b.functions) dropBehaviour.push(`drop function if exists ${fn};`);
  for (const t of locked.schema.publication)
    if (!current.schema.publication.includes(pairs.find((p) => p.old === t)?.now ?? ''))
      dropBehaviour.push(
        doBlock(
          ` begin if exists (select 1 from pg_catalog.pg_publication_tables where pubname = 'supabase_realtime' and schemaname = ${quoteLiteral(schemaOf(t))} and tablename = ${quoteLiteral(bare(t))}) then alter publication supabase_realtime drop table ${t}; end if; end `,
        ),
      );

  // Indexes whose name or definition changed (a renamed table renames nothing but the table).
  const renamedTable = new Map(pairs.map((p) => [p.old, p.now]));
  for (const [name, idx] of Object.entries(locked.schema.indexes)) {
    if (!matchedOld.has(idx.table)) continue;
    const now = current.schema.indexes[name];
    if (now && now.sql === idx.sql && renamedTable.get(idx.table) === idx.table) continue;
    dropStructure.push(`drop index if exists ${quoteIdent(schemaOf(idx.table))}.${quoteIdent(name)};`);
  }

  for (const p of pairs) {
    const o = oldTables[p.old] as TableShape;
    const n = newTables[p.now] as TableShape;
    const label = p.entity ?? bare(p.now);
    const kept = new Set<string>();
    // Constraints: kept when name and definition are the same, otherwise dropped and added again.
    for (const [name, c] of Object.entries(o.constraints)) {
      if (p.old === p.now && n.constraints[name]?.def === c.def) {
        kept.add(name);
        continue;
      }
      dropStructure.push(`alter table ${p.old} drop constraint if exists ${quoteIdent(name)};`);
    }
    if (p.old !== p.now) {
      reshape.push(`alter table ${p.old} rename to ${quoteIdent(bare(p.now))};`);
      // Names Postgres chose (`<table>_pkey`, `<table>_<column>_not_null`, `<table>_id_fkey`) follow
      // the table, as a fresh migration would name them.
      reshape.push(renameAutoNames(p.now, `${bare(p.old)}_`, `${bare(p.now)}_`));
    }
    const oldColumnsUsed = new Set(p.columns.values());
    for (const [col, shape] of Object.entries(n.columns)) {
      const was = p.columns.get(col);
      const field = fieldOfColumn(current, p.entity, col);
      const what = field ? `field ${label}.${field}` : `column ${bare(p.now)}.${col}`;
      if (was === undefined) {
        changes.push(`new ${what}`);
        // A new column gets its default on every existing row; without one it is empty, so NOT NULL
        // waits for the guard below (existing rows would have no value).
        reshape.push(
          `alter table ${p.now} add column ${quoteIdent(col)} ${shape.type}${shape.default !== undefined ? ` default ${shape.default}` : ''}${shape.notNull && shape.default !== undefined ? ' not null' : ''};`,
        );
        if (shape.notNull && shape.default === undefined) {
          guards.push(
            notNullGuard(
              p.now,
              col,
              `${what} is required and has no default: existing rows would have no value`,
            ),
          );
          constrain.push(`alter table ${p.now} alter column ${quoteIdent(col)} set not null;`);
        }
        continue;
      }
      const before = o.columns[was] as ColumnShape;
      if (was !== col)
        reshape.push(`alter table ${p.now} rename column ${quoteIdent(was)} to ${quoteIdent(col)};`);
      if (sameColumn(before, shape)) continue;
      if (before.type !== shape.type) {
        if (!castable(before.type, shape.type)) {
          refused.push({
            code: 'NO_CAST',
            message: `${what} changes from ${before.type} to ${shape.type}, which has no cast: add a new field and copy the data by hand`,
          });
          continue;
        }
        changes.push(`${what} changes type from ${before.type} to ${shape.type}`);
        if (before.default !== undefined)
          reshape.push(`alter table ${p.now} alter column ${quoteIdent(col)} drop default;`);
        reshape.push(
          `alter table ${p.now} alter column ${quoteIdent(col)} type ${shape.type} using ${quoteIdent(col)}::${shape.type};`,
        );
      }
      if (before.default !== shape.default || before.type !== shape.type) {
        if (shape.default !== undefined)
          reshape.push(`alter table ${p.now} alter column ${quoteIdent(col)} set default ${shape.default};`);
        else if (before.type === shape.type)
          reshape.push(`alter table ${p.now} alter column ${quoteIdent(col)} drop default;`);
      }
      if (before.notNull && !shape.notNull) {
        changes.push(`${what} becomes optional`);
        reshape.push(`alter table ${p.now} alter column ${quoteIdent(col)} drop not null;`);
      } else if (!before.notNull && shape.notNull) {
        changes.push(`${what} becomes required`);
        guards.push(notNullGuard(p.now, col, `${what} becomes required: existing rows have no value`));
        constrain.push(`alter table ${p.now} alter column ${quoteIdent(col)} set not null;`);
      }
    }
    for (const col of Object.keys(o.columns)) {
      if (oldColumnsUsed.has(col)) continue;
      const field = fieldOfColumn(locked, entityBefore(locked, p.old), col);
      const what = field ? `field ${label}.${field}` : `column ${bare(p.now)}.${col}`;
      losses.push({
        kind: 'column',
        table: p.old,
        column: col,
        what,
        countSql: `select count(${quoteIdent(col)})::bigint as n from ${p.old}`,
      });
      destroy.push(`alter table ${p.now} drop column if exists ${quoteIdent(col)};`);
    }
    // Removed states: rows move to the mapped state before the allowed-values CHECK returns.
    if (p.entity) {
      const st = spec.states[p.entity];
      const old = locked.entities[entityBefore(locked, p.old) ?? ''];
      const col = current.entities[p.entity]?.fields[st?.field ?? ''];
      const moves = Object.entries(st?.removedStates ?? {}).filter(([s]) => old?.states?.values.includes(s));
      if (st && col && moves.length > 0) {
        const c = quoteIdent(col);
        reshape.push(
          `update ${p.now} set ${c} = case ${c} ${moves.map(([s, to]) => `when ${quoteLiteral(s)} then ${quoteLiteral(to)}`).join(' ')} else ${c} end where ${c} in (${moves.map(([s]) => quoteLiteral(s)).join(', ')});`,
        );
      }
    }
    // New and changed CHECK / UNIQUE constraints of an existing table: the current migration's
    // `create table if not exists` does not touch the table, so they are added here, after the guard.
    for (const [name, c] of Object.entries(n.constraints)) {
      if (kept.has(name) || c.source !== 'inline') continue;
      addConstraint(p.now, name, c, label, mode, guards, constrain, changes);
    }
  }
  // Rules enforced by triggers (counts, sums, a referenced row) that are new or changed: existing
  // rows are checked against them too (triggers check only later writes).
  const tablesThere = new Set(pairs.map((p) => p.now));
  for (const inv of changedInvariants(locked, current, tablesThere)) {
    const label = pairs.find((p) => p.now === inv.table)?.entity ?? bare(inv.table);
    changes.push(`rule ${inv.name} on ${label} (new or changed): existing rows are checked`);
    if (mode === 'refuse') guards.push(invariantGuard(inv));
    else constrain.push(invariantNotice(inv));
  }
  if (removedTables.length > 0) destroy.push(`drop table if exists ${removedTables.join(', ')};`);
  if (losses.length > 0 && !options.allowDestructive)
    refused.push({
      code: 'DESTRUCTIVE',
      message: `this change deletes data: ${losses.map((l) => l.what).join(', ')}. Run again with --allow-destructive if that is what you want`,
    });
  for (const l of losses) changes.push(`drop ${l.what}`);
  if (locked.target !== target)
    refused.push({ code: 'TARGET_CHANGED', message: `the lock is for ${locked.target}, not ${target}` });

  const guard =
    guards.length === 0
      ? ''
      : [
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

  const sql = [
    sqlComment(
      `Ninefold migration for "${spec.purpose.name}" (target: ${target}): from the locked model to the spec.`,
    ),
    '-- Generated by `ninefold migrate`: do not edit. Changes:',
    ...(changes.length > 0
      ? changes.map((c) => sqlComment(c, '--   '))
      : ['--   (none: functions, policies and grants are re-created)']),
    '',
    section('1. Behaviour of the locked model (re-created from the spec below)', dropBehaviour),
    section('2. Constraints and indexes that change', dropStructure),
    section('3. Tables and columns (renamed, added, retyped; removed states mapped)', reshape),
    section('4. Data deleted on purpose (--allow-destructive)', destroy),
    section('5. Existing rows against the new rules', guard ? [guard] : []),
    section('6. New rules on existing tables', constrain),
    section('7. The specification, as a fresh migration would create it', [currentSql.trimEnd()]),
  ]
    .filter((s) => s.length > 0)
    .join('\n\n');
  return { changes, losses, refused, sql: `${sql}\n`, empty: changes.length === 0 };
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
