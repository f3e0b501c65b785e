/**
 * Generated data for the agreement suites: users with roles from the specification and rows of
 * every entity, with values of the right types and their edges (nulls, empty strings, boundary
 * numbers, instants around now and the window constants, dangling references, unknown enum values).
 *
 * Instants are generated relative to `now` and fixed only when the database's transaction time is
 * known (`materialise`), so `createdAt < now - hours(4)` is probed exactly at its boundary.
 */

import fc from 'fast-check';
import { resolve } from '../../src/model/resolve.ts';
import { columnName } from '../../src/naming.ts';
import { enumValueNames } from '../../src/spec/enumValueNames.ts';
import type { AppSpec, FieldSpec } from '../../src/spec/types.ts';
import { columnFor } from '../../src/sql/columns.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;

type Kind =
  | 'text'
  | 'number'
  | 'integer'
  | 'bigint'
  | 'boolean'
  | 'enum'
  | 'date'
  | 'datetime'
  | 'ref'
  | 'tags';

/** A column of an entity as the generator sees it. */
export interface Column {
  /** The names rules use for it (a files entity's `mime_type` is both `type` and `mimeType`). */
  fields: readonly string[];
  column: string;
  kind: Kind;
  /** Referenced entity (ref/user). */
  target?: string;
  values?: readonly string[];
}

/** A value before `now` is known. */
export type Abstract =
  | null
  | string
  | number
  | boolean
  | readonly (string | null)[]
  | { offset: number }
  | { after: string; by: number }
  | { day: number }
  | { ref: number }
  | { dangling: true }
  | { extraUser: true };

export interface Plan {
  rows: Record<string, Record<string, Abstract>[]>;
  /** Roles granted to each profile row, by index. */
  roles: string[][];
  /** Roles of a signed-in user who has no profile row. */
  extraRoles: string[];
  timezone: string;
}

/** The user id of a signed-in user without a profile row. */
export const EXTRA_USER = 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee';
const DANGLING = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';

export function rowId(entityIndex: number, rowIndex: number): string {
  const h = (n: number, w: number) => n.toString(16).padStart(w, '0');
  return `${h(entityIndex + 1, 8)}-0000-4000-8000-${h(rowIndex + 1, 12)}`;
}

function fieldKind(f: FieldSpec): Kind {
  switch (f.type) {
    case 'number':
    case 'money':
      return 'number';
    case 'integer':
      return 'integer';
    case 'boolean':
      return 'boolean';
    case 'enum':
    case 'status':
      return 'enum';
    case 'date':
      return 'date';
    case 'datetime':
      return 'datetime';
    case 'ref':
    case 'user':
      return 'ref';
    case 'tags':
      return 'tags';
    default:
      return 'text';
  }
}

/** The columns of an entity: implicit ones, declared fields, a files entity's implied columns. */
export function columnsOf(spec: AppSpec, entity: string): Column[] {
  const e = spec.entities[entity];
  if (!e) throw new Error(`unknown entity ${entity}`);
  const cols: Column[] = [
    { fields: ['createdAt'], column: 'created_at', kind: 'datetime' },
    { fields: ['updatedAt'], column: 'updated_at', kind: 'datetime' },
    { fields: ['version'], column: 'version', kind: 'integer' },
  ];
  if (e.files) {
    cols.push({ fields: ['name'], column: columnFor(resolve(spec), entity, 'name'), kind: 'text' });
    cols.push({
      fields: ['size', 'sizeBytes'],
      column: columnFor(resolve(spec), entity, 'size'),
      kind: 'bigint',
    });
    cols.push({
      fields: ['type', 'mimeType'],
      column: columnFor(resolve(spec), entity, 'type'),
      kind: 'text',
    });
  }
  const st = spec.states[entity];
  for (const [name, f] of Object.entries(e.fields)) {
    const kind = fieldKind(f);
    const col: Column = { fields: [name], column: columnName(name), kind };
    if (st && st.field === name) col.values = Object.keys(st.states);
    else if (f.values) col.values = enumValueNames(f) ?? [];
    if (kind === 'ref') {
      const target = f.type === 'user' ? resolve(spec).profile : f.ref;
      if (target) col.target = target;
    }
    cols.push(col);
  }
  return cols;
}

function numericConstants(spec: AppSpec): number[] {
  return Object.values(spec.constants)
    .map((c) => c.value)
    .filter((v): v is number => typeof v === 'number');
}

const TEXTS = [
  ' ',
  // Blank once trimmed (is empty on both sides), and text that is not: src/spec/blank.ts.
  ' \t\n\u00a0',
  '\u3000\ufeff',
  '\u200b',
  ' a ',
  'a',
  'A',
  'İstanbul',
  'STRASSE',
  'straße',
  'ǅ',
  '😀x',
  'e\u0301',
  "O'Brien",
  '\\',
  'new',
  'closed',
  'draft',
  'EUR',
];

function textArb(): fc.Arbitrary<Abstract> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constant('') },
    { weight: 2, arbitrary: fc.constantFrom(...TEXTS) },
    {
      weight: 2,
      arbitrary: fc.string({ maxLength: 12, unit: 'grapheme' }).map((s) => s.replaceAll('\u0000', '')),
    },
  );
}

function numberArb(consts: number[], kind: 'number' | 'integer' | 'bigint'): fc.Arbitrary<Abstract> {
  const edges = new Set<number>([0, 1, -1, 2, 10, 100, 1000]);
  for (const c of consts) {
    for (const v of [c, c - 1, c + 1, c * 1_048_576, c * 1_048_576 + 1, c * 1_048_576 - 1]) edges.add(v);
    if (kind === 'number') for (const v of [c - 0.01, c + 0.01, c / 10, c * 3]) edges.add(v);
  }
  if (kind === 'number') for (const v of [0.01, -0.01, 0.1, 0.2, 0.3, 0.9, 2.5, 123456.78, 1e9]) edges.add(v);
  if (kind === 'integer') for (const v of [2_147_483_647, -2_147_483_648]) edges.add(v);
  if (kind === 'bigint') edges.add(Number.MAX_SAFE_INTEGER);
  const ok = [...edges].filter((v) => Number.isFinite(v) && (kind === 'number' || Number.isInteger(v)));
  const usable = kind === 'integer' ? ok.filter((v) => Math.abs(v) <= 2_147_483_647) : ok;
  const random =
    kind === 'number'
      ? fc.oneof(
          fc.integer({ min: -1_000_000, max: 1_000_000 }),
          fc.integer({ min: -10_000_000, max: 10_000_000 }).map((n) => n / 100),
          fc.integer({ min: 0, max: 100_000 }).map((n) => n / 10),
        )
      : fc.integer({ min: kind === 'bigint' ? 0 : -1000, max: kind === 'bigint' ? 50_000_000 : 1000 });
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(null) },
    { weight: 3, arbitrary: fc.constantFrom(...usable) },
    { weight: 3, arbitrary: random },
  );
}

function windowOffsets(consts: number[]): number[] {
  const out = new Set<number>([0, 1, -1, 999, -1000, HOUR, -HOUR, DAY, -DAY]);
  for (const c of consts) {
    if (c <= 0 || c > 1000) continue;
    for (const unit of [HOUR, DAY])
      for (const d of [-1, 0, 1]) for (const s of [1, -1]) out.add(s * c * unit + d);
  }
  return [...out];
}

function datetimeArb(consts: number[], siblings: readonly string[]): fc.Arbitrary<Abstract> {
  const offsets = windowOffsets(consts);
  const choices: fc.Arbitrary<Abstract>[] = [
    fc.constantFrom(...offsets).map((offset) => ({ offset })),
    fc.integer({ min: -400 * DAY, max: 400 * DAY }).map((offset) => ({ offset })),
  ];
  if (siblings.length > 0)
    choices.push(
      fc.record({ after: fc.constantFrom(...siblings), by: fc.constantFrom(...offsets) }).map((v) => v),
    );
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 4, arbitrary: fc.oneof(...choices) },
  );
}

function dateArb(consts: number[]): fc.Arbitrary<Abstract> {
  const edges = new Set<number>([0, 1, -1, 7, -7]);
  for (const c of consts) if (c > 0 && c <= 1000) for (const d of [-1, 0, 1]) edges.add(-c + d).add(c + d);
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 3, arbitrary: fc.constantFrom(...edges).map((day) => ({ day })) },
    { weight: 2, arbitrary: fc.integer({ min: -800, max: 800 }).map((day) => ({ day })) },
  );
}

/** Every value an IANA zone name: a zone column, which rules read as a zone (`hour(t, org.timeZone)`). */
const isZoneList = (values: readonly string[]): boolean =>
  values.length > 0 && values.every((v) => v === 'UTC' || /^[A-Z][A-Za-z_-]+\/[A-Za-z_/+-]+$/.test(v));

function enumArb(values: readonly string[]): fc.Arbitrary<Abstract> {
  // Out-of-list values probe rules over enums; a zone column's CHECK keeps them out, and no engine
  // reads a time in a zone it does not know (`check` refuses a zone field that could hold one).
  if (isZoneList(values))
    return fc.oneof(
      { weight: 1, arbitrary: fc.constant(null) },
      { weight: 6, arbitrary: fc.constantFrom(...values) },
    );
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 6, arbitrary: fc.constantFrom(...values) },
    { weight: 1, arbitrary: fc.constantFrom('', 'bogus', (values[0] ?? 'x').toUpperCase()) },
  );
}

function tagsArb(values: readonly string[]): fc.Arbitrary<Abstract> {
  const item = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...(values.length > 0 ? values : ['x'])) },
    { weight: 1, arbitrary: fc.constantFrom<string | null>(null, '', 'X') },
  );
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constant([]) },
    { weight: 4, arbitrary: fc.array(item, { maxLength: 4 }) },
  );
}

function refArb(isUser: boolean): fc.Arbitrary<Abstract> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(null) },
    { weight: 8, arbitrary: fc.nat(50).map((ref) => ({ ref })) },
    { weight: 1, arbitrary: fc.constant({ dangling: true as const }) },
    { weight: isUser ? 1 : 0, arbitrary: fc.constant({ extraUser: true as const }) },
  );
}

function columnArb(spec: AppSpec, c: Column, siblings: readonly string[]): fc.Arbitrary<Abstract> {
  const consts = numericConstants(spec);
  switch (c.kind) {
    case 'text':
      return textArb();
    case 'number':
    case 'integer':
    case 'bigint':
      return numberArb(consts, c.kind);
    case 'boolean':
      return fc.constantFrom(null, true, false);
    case 'enum':
      return enumArb(c.values ?? []);
    case 'date':
      return dateArb(consts);
    case 'datetime':
      return datetimeArb(
        consts,
        siblings.filter((s) => s !== c.fields[0]),
      );
    case 'ref':
      return refArb(c.target === resolve(spec).profile);
    case 'tags':
      return tagsArb(c.values ?? []);
  }
}

const TIMEZONES = ['UTC', 'Pacific/Kiritimati', 'America/St_Johns', 'Europe/Berlin'];

/** Plans of datasets for a specification: `maxRows` rows at most per entity. */
export function planArb(
  spec: AppSpec,
  opts: { minRows?: number; maxRows?: number } = {},
): fc.Arbitrary<Plan> {
  const roleNames = Object.keys(spec.roles.roles);
  const rows: Record<string, fc.Arbitrary<Record<string, Abstract>[]>> = {};
  for (const entity of Object.keys(spec.entities)) {
    const cols = columnsOf(spec, entity);
    const dt = cols.filter((c) => c.kind === 'datetime').map((c) => c.column);
    const rec: Record<string, fc.Arbitrary<Abstract>> = {};
    for (const c of cols) rec[c.column] = columnArb(spec, c, c.kind === 'datetime' ? dt : []);
    rows[entity] = fc.array(fc.record(rec), { minLength: opts.minRows ?? 1, maxLength: opts.maxRows ?? 6 });
  }
  return fc.record({
    rows: fc.record(rows),
    roles: fc.array(fc.subarray(roleNames), { minLength: 8, maxLength: 8 }),
    extraRoles: fc.subarray(roleNames),
    timezone: fc.constantFrom(...TIMEZONES),
  });
}

/** A user as both engines see it. */
export interface AgreementUser {
  id: string | null;
  roles: readonly string[];
}

export interface Materialised {
  /** Rows as the browser holds them (spec field names, ISO strings), by entity. */
  ts: Record<string, Record<string, unknown>[]>;
  /** Rows as the database stores them (column names), by entity. */
  sql: Record<string, Record<string, unknown>[]>;
  userRoles: { user_id: string; role: string }[];
  roles: Map<string, readonly string[]>;
  users: AgreementUser[];
}

/**
 * Fixes a plan at the database's `now`: `nowMs` (milliseconds) and `micros` (the three digits
 * after them), so an instant `now + x ms` is the same on both sides.
 */
export function materialise(spec: AppSpec, plan: Plan, nowMs: number, micros: string): Materialised {
  const entities = Object.keys(spec.entities);
  const profile = resolve(spec).profile;
  const ts: Materialised['ts'] = {};
  const sql: Materialised['sql'] = {};
  const today = Date.UTC(
    new Date(nowMs).getUTCFullYear(),
    new Date(nowMs).getUTCMonth(),
    new Date(nowMs).getUTCDate(),
  );
  const count = (e: string) => plan.rows[e]?.length ?? 0;
  entities.forEach((entity, ei) => {
    const cols = columnsOf(spec, entity);
    ts[entity] = [];
    sql[entity] = [];
    (plan.rows[entity] ?? []).forEach((abstractRow, ri) => {
      const id = rowId(ei, ri);
      const tsRow: Record<string, unknown> = { id };
      const sqlRow: Record<string, unknown> = { id };
      const instants = new Map<string, number | null>();
      const instant = (column: string, depth = 0): number | null => {
        if (instants.has(column)) return instants.get(column) ?? null;
        const v = abstractRow[column];
        let out: number | null = null;
        if (v && typeof v === 'object' && 'offset' in v) out = nowMs + v.offset;
        else if (v && typeof v === 'object' && 'after' in v) {
          const base = depth < 3 ? instant(v.after, depth + 1) : null;
          out = base === null ? null : base + v.by;
        }
        instants.set(column, out);
        return out;
      };
      for (const c of cols) {
        const v = abstractRow[c.column] ?? null;
        let tsValue: unknown = v;
        let sqlValue: unknown = v;
        if (c.kind === 'datetime') {
          const ms = instant(c.column);
          tsValue = ms === null ? null : new Date(ms).toISOString();
          sqlValue = ms === null ? null : `${new Date(ms).toISOString().slice(0, 23)}${micros}Z`;
        } else if (c.kind === 'date') {
          tsValue =
            v && typeof v === 'object' && 'day' in v
              ? new Date(today + v.day * DAY).toISOString().slice(0, 10)
              : null;
          sqlValue = tsValue;
        } else if (c.kind === 'ref') {
          let ref: string | null = null;
          if (v && typeof v === 'object' && 'ref' in v && c.target) {
            const n = count(c.target);
            ref = n === 0 ? null : rowId(entities.indexOf(c.target), v.ref % n);
          } else if (v && typeof v === 'object' && 'dangling' in v) ref = DANGLING;
          else if (v && typeof v === 'object' && 'extraUser' in v) ref = EXTRA_USER;
          tsValue = ref;
          sqlValue = ref;
        }
        for (const f of c.fields) tsRow[f] = tsValue;
        sqlRow[c.column] = sqlValue;
      }
      ts[entity]?.push(tsRow);
      sql[entity]?.push(sqlRow);
    });
  });
  const roles = new Map<string, readonly string[]>();
  const users: AgreementUser[] = [];
  const people = profile ? count(profile) : 0;
  for (let i = 0; i < people && profile; i++) {
    const id = rowId(entities.indexOf(profile), i);
    const r = plan.roles[i % plan.roles.length] ?? [];
    roles.set(id, r);
    users.push({ id, roles: r });
  }
  roles.set(EXTRA_USER, plan.extraRoles);
  users.push({ id: EXTRA_USER, roles: plan.extraRoles }, { id: null, roles: [] });
  const userRoles = [...roles].flatMap(([user_id, rs]) => rs.map((role) => ({ user_id, role })));
  return { ts, sql, userRoles, roles, users };
}
