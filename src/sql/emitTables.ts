import { IMPLICIT_COLUMNS } from '../model/column.ts';
import type { AppModel, TableIndexNode, TableNode } from '../model/index.ts';
import { sqlColumnOf } from '../model/sqlNames.ts';
import { blankSql } from '../spec/blank.ts';
import { FIELD_TYPES } from '../spec/fieldTypes.ts';
import type { FieldSpec } from '../spec/types.ts';
import { TODAY_SQL } from './compileRuleSql.ts';
import { fileColumns } from './emitFiles.ts';
import { validationChecks } from './emitValidation.ts';
import { fieldSqlType } from './fieldSqlType.ts';
import { doBlock, quoteIdent, quoteLiteral, quoteTextArray } from './quote.ts';
import { colSql, initialState, type Target, tableOf, tableRef } from './specModel.ts';

function defaultSql(f: FieldSpec, type: string): string | undefined {
  const d = f.default;
  if (d === undefined || d === null) return undefined;
  if (d === 'me') return 'auth.uid()';
  if (d === 'now') return f.type === 'date' ? TODAY_SQL : 'now()';
  if (d === 'today') return TODAY_SQL;
  if (f.type === 'tags' && typeof d === 'string') return quoteTextArray([d]);
  return `${quoteLiteral(d)}::${type}`;
}

function columnDef(model: AppModel, t: TableNode, field: string, f: FieldSpec): string {
  const type = fieldSqlType(model, t.entity, field);
  const isStatus = t.statusField === field;
  const parts = [colSql(model, t.entity, field), type];
  if (f.required || f.owner || isStatus) parts.push('not null');
  const def = isStatus ? quoteLiteral(initialState(t) ?? '') : defaultSql(f, type);
  if (def !== undefined) parts.push(`default ${def}`);
  return parts.join(' ');
}

/**
 * Limits every value has whatever the specification says (src/spec/valueLimits.ts): numbers are
 * finite (`numeric` accepts 'NaN' and '±Infinity', which pass every comparison a rule makes the
 * wrong way), dates and times are finite (`±infinity`), free text has a length ceiling.
 */
function valueLimitSql(t: TableNode, field: string, f: FieldSpec, c: string): string | undefined {
  const sql = FIELD_TYPES[f.type].sql;
  if (sql === 'numeric') return `${c} not in ('NaN'::numeric, 'Infinity'::numeric, '-Infinity'::numeric)`;
  if (sql === 'date' || sql === 'timestamptz') return `isfinite(${c})`;
  const max = t.textCeilings.get(field);
  return max === undefined ? undefined : `char_length(${c}) <= ${max}`;
}

/** The `create table` of one entity, with its structural and validation CHECKs. */
export function emitTable(model: AppModel, entity: string, target: Target): string {
  const t = tableOf(model, entity);
  const e = t.spec;
  const lines: string[] = [
    e.profile
      ? 'id uuid primary key references auth.users (id) on delete cascade'
      : 'id uuid primary key default gen_random_uuid()',
    // The other implicit columns, from the model's one list: timestamps start at now(), version at 1.
    ...IMPLICIT_COLUMNS.filter((c) => c.field !== 'id').map(
      (c) => `${c.column} ${c.sqlType} not null default ${c.timestamp ? 'now()' : '1'}`,
    ),
  ];
  if (e.files) lines.push(...fileColumns(target));
  const checks: string[] = [];
  for (const [field, f] of Object.entries(e.fields)) {
    lines.push(columnDef(model, t, field, f));
    const column = sqlColumnOf(t, field);
    const c = quoteIdent(column);
    const named = (kind: 'unique' | 'values' | 'blank') => t.names.columnConstraint(column, kind);
    // Unique ignoring case is an index over lower(column) (emitUniqueIndexes), not a constraint.
    if (f.unique === true) checks.push(`constraint ${quoteIdent(named('unique'))} unique (${c})`);
    // Required text is not blank: white space alone is as empty as '' (src/spec/blank.ts).
    if (f.required && FIELD_TYPES[f.type].freeText !== undefined)
      checks.push(`constraint ${quoteIdent(named('blank'))} check (not (${blankSql(c)}))`);
    const values = t.byField.get(field)?.values?.map((v) => v.value);
    const cond = values
      ? f.type === 'tags'
        ? `${c} <@ ${quoteTextArray(values)}`
        : `${c} in (${values.map(quoteLiteral).join(', ')})`
      : valueLimitSql(t, field, f, c);
    // Same name for both: the error mapper reads `__values` as INVALID_VALUE on the field.
    if (cond) checks.push(`constraint ${quoteIdent(named('values'))} check (${cond})`);
  }
  const keys = t.constraints.filter((k) => k.kind === 'unique' && k.code !== undefined);
  (e.unique ?? []).forEach((key, i) => {
    if (key.ignoreCase) return;
    const cols = key.fields.map((f) => colSql(model, entity, f)).join(', ');
    checks.push(`constraint ${quoteIdent(keys[i]?.name ?? '')} unique (${cols})`);
  });
  checks.push(...validationChecks(model, entity));
  return `create table if not exists ${t.ref} (\n${[...lines, ...checks].map((l) => `  ${l}`).join(',\n')}\n);`;
}

/**
 * Unique fields and keys compared ignoring case: a unique index over `lower(column)` for each text
 * column (other columns as they are). Named as the constraint would be, so a duplicate maps to the
 * same catalogue code and field (src/backend/errors).
 */
export function emitUniqueIndexes(model: AppModel, entity: string): string {
  const t = tableOf(model, entity);
  const e = t.spec;
  const keyed = (field: string) => {
    const c = colSql(model, entity, field);
    return FIELD_TYPES[e.fields[field]?.type ?? 'text'].rule === 'text' ? `lower(${c})` : c;
  };
  const keys = t.constraints.filter((k) => k.kind === 'unique' && k.code !== undefined);
  const out: string[] = [];
  for (const c of t.constraints)
    if (c.kind === 'unique' && c.code === undefined && c.ignoreCase && c.field)
      out.push(`create unique index if not exists ${quoteIdent(c.name)} on ${t.ref} (${keyed(c.field)});`);
  (e.unique ?? []).forEach((key, i) => {
    const name = keys[i]?.name;
    if (key.ignoreCase && name)
      out.push(
        `create unique index if not exists ${quoteIdent(name)} on ${t.ref} (${key.fields.map(keyed).join(', ')});`,
      );
  });
  return out.join('\n');
}

/**
 * Foreign keys, added after every table exists (entities may reference each other in any order).
 * Each is added only if missing, so the migration can run twice.
 */
export function emitForeignKeys(model: AppModel, entity: string): string {
  const t = tableOf(model, entity);
  const out: string[] = [];
  for (const r of t.references) {
    const name = r.constraintName;
    const onDelete = r.onDelete;
    out.push(
      doBlock(
        [
          ' begin',
          `  if not exists (select 1 from pg_catalog.pg_constraint where conname = ${quoteLiteral(name)} and conrelid = ${quoteLiteral(t.ref)}::regclass) then`,
          `    alter table ${t.ref} add constraint ${quoteIdent(name)} foreign key (${quoteIdent(r.column)}) references ${tableRef(model, r.target)} (id) on delete ${onDelete};`,
          '  end if;',
          'end ',
        ].join('\n'),
      ),
    );
  }
  return out.join('\n');
}

/** ` where a in ('x', 'y')` for a partial index, else nothing. */
function included(i: TableIndexNode): string {
  return i.include?.length ? ` include (${i.include.map(quoteIdent).join(', ')})` : '';
}

function partial(i: TableIndexNode): string {
  if (!i.only?.length) return '';
  return ` where ${i.only.map((o) => `${quoteIdent(o.column)} in (${o.values.map(quoteLiteral).join(', ')})`).join(' and ')}`;
}

/** Indexes on every reference column, every column a permission rule reads and list screens' sort columns. */
export function emitIndexes(model: AppModel, entity: string): string {
  // The default sort of list screens (`-createdAt`) is among them: without an index a list page
  // sorts every readable row before LIMIT 50 (bench:sql, agent, 1M tickets: 210 ms -> 1 ms).
  const t = tableOf(model, entity);
  return t.indexes
    .map(
      (i) =>
        `create index if not exists ${quoteIdent(i.name)} on ${t.ref} (${(i.columns ?? [i.column]).map(quoteIdent).join(', ')})${included(i)}${partial(i)};`,
    )
    .join('\n');
}
