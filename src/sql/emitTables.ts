import { columnName, tableName } from '../naming.ts';
import { FIELD_TYPES } from '../spec/fieldTypes.ts';
import type { AppSpec, FieldSpec } from '../spec/types.ts';
import { textCeiling } from '../spec/valueLimits.ts';
import { TODAY_SQL } from './compileRuleSql.ts';
import { uniqueConstraintName, uniqueKeyConstraintName, valuesConstraintName } from './constraintNames.ts';
import { fileColumns } from './emitFiles.ts';
import { validationChecks } from './emitValidation.ts';
import { doBlock, quoteIdent, quoteLiteral, quoteTextArray } from './quote.ts';
import {
  entityOf,
  enumValues,
  grantsFor,
  referencedEntity,
  sqlType,
  type Target,
  tableRef,
} from './specModel.ts';
import { rowFieldsRead, typedRule } from './typedRule.ts';

function defaultSql(f: FieldSpec, type: string): string | undefined {
  const d = f.default;
  if (d === undefined || d === null) return undefined;
  if (d === 'me') return 'auth.uid()';
  if (d === 'now') return f.type === 'date' ? TODAY_SQL : 'now()';
  if (d === 'today') return TODAY_SQL;
  if (f.type === 'tags' && typeof d === 'string') return quoteTextArray([d]);
  return `${quoteLiteral(d)}::${type}`;
}

function columnDef(spec: AppSpec, entity: string, field: string, f: FieldSpec): string {
  const type = sqlType(f);
  const st = spec.states[entity];
  const isStatus = st?.field === field;
  const parts = [quoteIdent(columnName(field)), type];
  if (f.required || f.owner || isStatus) parts.push('not null');
  const def = isStatus ? quoteLiteral(st.initial) : defaultSql(f, type);
  if (def !== undefined) parts.push(`default ${def}`);
  return parts.join(' ');
}

/**
 * Limits every value has whatever the specification says (src/spec/valueLimits.ts): numbers are
 * finite (`numeric` accepts 'NaN' and '±Infinity', which pass every comparison a rule makes the
 * wrong way), dates and times are finite (`±infinity`), free text has a length ceiling.
 */
function valueLimitSql(
  spec: AppSpec,
  entity: string,
  field: string,
  f: FieldSpec,
  c: string,
): string | undefined {
  const sql = FIELD_TYPES[f.type].sql;
  if (sql === 'numeric') return `${c} not in ('NaN'::numeric, 'Infinity'::numeric, '-Infinity'::numeric)`;
  if (sql === 'date' || sql === 'timestamptz') return `isfinite(${c})`;
  const max = textCeiling(spec, entity, field, f);
  return max === undefined ? undefined : `char_length(${c}) <= ${max}`;
}

/** The `create table` of one entity, with its structural and validation CHECKs. */
export function emitTable(spec: AppSpec, entity: string, target: Target): string {
  const e = entityOf(spec, entity);
  const lines: string[] = [
    e.profile
      ? 'id uuid primary key references auth.users (id) on delete cascade'
      : 'id uuid primary key default gen_random_uuid()',
    'created_at timestamptz not null default now()',
    'updated_at timestamptz not null default now()',
    'version integer not null default 1',
  ];
  if (e.files) lines.push(...fileColumns(target));
  const checks: string[] = [];
  for (const [field, f] of Object.entries(e.fields)) {
    lines.push(columnDef(spec, entity, field, f));
    const c = quoteIdent(columnName(field));
    if (f.unique) checks.push(`constraint ${quoteIdent(uniqueConstraintName(entity, field))} unique (${c})`);
    const values = enumValues(spec, entity, field, f);
    const cond = values
      ? f.type === 'tags'
        ? `${c} <@ ${quoteTextArray(values)}`
        : `${c} in (${values.map(quoteLiteral).join(', ')})`
      : valueLimitSql(spec, entity, field, f, c);
    // Same name for both: the error mapper reads `__values` as INVALID_VALUE on the field.
    if (cond) checks.push(`constraint ${quoteIdent(valuesConstraintName(entity, field))} check (${cond})`);
  }
  (e.unique ?? []).forEach((key, i) => {
    const cols = key.fields.map((f) => quoteIdent(columnName(f))).join(', ');
    checks.push(`constraint ${quoteIdent(uniqueKeyConstraintName(entity, key.error, i))} unique (${cols})`);
  });
  checks.push(...validationChecks(spec, entity));
  return `create table if not exists ${tableRef(entity)} (\n${[...lines, ...checks].map((l) => `  ${l}`).join(',\n')}\n);`;
}

/**
 * Foreign keys, added after every table exists (entities may reference each other in any order).
 * Each is added only if missing, so the migration can run twice.
 */
export function emitForeignKeys(spec: AppSpec, entity: string): string {
  const e = entityOf(spec, entity);
  const out: string[] = [];
  for (const [field, f] of Object.entries(e.fields)) {
    const target = referencedEntity(spec, f);
    if (!target) continue;
    const name = `${tableName(entity)}__${columnName(field)}__fk`;
    const onDelete = f.onDelete ?? 'restrict';
    out.push(
      doBlock(
        [
          ' begin',
          `  if not exists (select 1 from pg_catalog.pg_constraint where conname = ${quoteLiteral(name)} and conrelid = ${quoteLiteral(tableRef(entity))}::regclass) then`,
          `    alter table ${tableRef(entity)} add constraint ${quoteIdent(name)} foreign key (${quoteIdent(columnName(field))}) references ${tableRef(target)} (id) on delete ${onDelete};`,
          '  end if;',
          'end ',
        ].join('\n'),
      ),
    );
  }
  return out.join('\n');
}

/** Indexes on every reference column, every column a permission rule reads and list screens' sort columns. */
export function emitIndexes(spec: AppSpec, entity: string): string {
  const e = entityOf(spec, entity);
  const cols = new Set<string>();
  for (const [field, f] of Object.entries(e.fields)) if (referencedEntity(spec, f)) cols.add(field);
  for (const g of grantsFor(spec, entity)) {
    if (g.when === true) continue;
    rowFieldsRead(typedRule(spec, g.when, entity, `roles.permissions.${g.role}.${entity}.${g.action}`), cols);
  }
  // The default sort of list screens (`-createdAt`): without an index a list page sorts every
  // readable row before LIMIT 50 (bench:sql, agent, 1M tickets: 210 ms -> 1 ms). Unique fields
  // already have one.
  for (const s of Object.values(spec.screens)) {
    const field = s.entity === entity && s.sort ? s.sort.replace(/^-/, '') : undefined;
    if (field && !e.fields[field]?.unique) cols.add(field);
  }
  cols.delete('id');
  return [...cols]
    .sort()
    .map((field) => {
      const c = columnName(field);
      return `create index if not exists ${quoteIdent(`${tableName(entity)}__${c}__idx`)} on ${tableRef(entity)} (${quoteIdent(c)});`;
    })
    .join('\n');
}
