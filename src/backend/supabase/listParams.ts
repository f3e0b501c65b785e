import { BackendError, type Filter, type ListQuery } from '../types.ts';
import { type EntityModel, filterColumn } from './entityModel.ts';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 1000;

/** One horizontal filter in PostgREST's grammar: `<column>=<op>.<value>`. */
export interface PgrstFilter {
  column: string;
  op: string;
  value: string;
}

/** A list query translated to PostgREST's query-string grammar. Pure, so it is tested on its own. */
export interface ListParams {
  filters: PgrstFilter[];
  /** The `or=(...)` logic tree, when any filter needs one. */
  or: string | undefined;
  order: { column: string; ascending: boolean }[];
  offset: number;
  limit: number;
  /** PostgREST's count: `estimated` is exact up to the API's max-rows, the planner's estimate above. */
  count: 'exact' | 'estimated' | undefined;
  /** True when the query can match nothing (search on an entity without searchable fields). */
  empty: boolean;
}

// Characters PostgREST treats as syntax inside `in.(...)` and `or=(...)`; a value holding one is quoted.
const RESERVED = /[,.:()"\\\s]/;

/**
 * A value inside a PostgREST list or logic tree, double-quoted when it holds reserved characters.
 *
 * @example
 * pgrstValue('a,b'); // '"a,b"'
 */
export function pgrstValue(v: unknown): string {
  const s = String(v);
  return s === '' || RESERVED.test(s) ? `"${s.replace(/[\\"]/g, (m) => `\\${m}`)}"` : s;
}

/** A Postgres array literal element, always quoted (tags may hold commas and braces). */
function arrayElement(v: unknown): string {
  return `"${String(v).replace(/[\\"]/g, (m) => `\\${m}`)}"`;
}

/**
 * User text matched literally inside an ILIKE pattern. PostgREST turns `*` into `%`; a literal `*`
 * cannot be expressed, so it matches any one character (`_`) — the only approximation.
 */
export function likePattern(text: string): string {
  const escaped = text.replace(/[\\%_]/g, (m) => `\\${m}`).replace(/\*/g, '_');
  return `*${escaped}*`;
}

function filterParams(model: EntityModel, f: Filter): { plain?: PgrstFilter; group?: string } {
  const column = filterColumn(model, f.field);
  const type = model.fields.get(f.field)?.type;
  switch (f.op) {
    case 'eq':
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      return { plain: { column, op: f.op, value: String(f.value) } };
    case 'neq':
      // `is distinct from`, as in the embedded backend: rows with no value are "not equal" too.
      return { group: `${column}.neq.${pgrstValue(f.value)},${column}.is.null` };
    case 'in':
      if (!Array.isArray(f.value))
        throw new BackendError('INVALID_INPUT', { field: f.field, reason: 'in-needs-list' });
      return { plain: { column, op: 'in', value: `(${f.value.map(pgrstValue).join(',')})` } };
    case 'isNull':
      return { plain: { column, op: 'is', value: 'null' } };
    case 'notNull':
      return { plain: { column, op: 'not.is', value: 'null' } };
    case 'contains':
      if (type === 'tags') return { plain: { column, op: 'cs', value: `{${arrayElement(f.value)}}` } };
      return { plain: { column, op: 'ilike', value: likePattern(String(f.value ?? '')) } };
  }
}

/**
 * Translates a list query for one entity into PostgREST parameters. Filters on the same fields,
 * search over the searchable text fields, sort with `id` as the tie-breaker so pages are stable,
 * and the page clamped to 0..1000 rows (default 50) — all as the embedded backend does.
 *
 * @example
 * listParams(model, { filters: [{ field: 'status', op: 'in', value: ['open', 'pending'] }] });
 * // { filters: [{ column: 'status', op: 'in', value: '(open,pending)' }], order: [{ column: 'id', ascending: true }], offset: 0, limit: 50, ... }
 */
export function listParams(model: EntityModel, query: ListQuery = {}): ListParams {
  const filters: PgrstFilter[] = [];
  const groups: string[] = [];
  for (const f of query.filters ?? []) {
    const p = filterParams(model, f);
    if (p.plain) filters.push(p.plain);
    if (p.group) groups.push(p.group);
  }
  let empty = false;
  const search = query.search?.trim();
  if (search) {
    if (model.searchColumns.length === 0) empty = true;
    else {
      const pattern = pgrstValue(likePattern(search));
      groups.push(model.searchColumns.map((c) => `${c}.ilike.${pattern}`).join(','));
    }
  }
  const or =
    groups.length === 0
      ? undefined
      : groups.length === 1
        ? groups[0]
        : `and(${groups.map((g) => `or(${g})`).join(',')})`;
  const order = (query.sort ?? []).map((s) => ({
    column: filterColumn(model, s.field),
    ascending: s.direction !== 'desc',
  }));
  // The tie-breaker runs the way the last sort key does, so one index on (sort key, id) serves the
  // page both ways (a sort column with many equal or empty values needs no sort of the ties).
  if (!order.some((o) => o.column === 'id'))
    order.push({ column: 'id', ascending: order.at(-1)?.ascending ?? true });
  const limit = Math.min(Math.max(Math.trunc(query.limit ?? DEFAULT_LIMIT), 0), MAX_LIMIT);
  const offset = Math.max(Math.trunc(query.offset ?? 0), 0);
  return {
    filters,
    or,
    order,
    offset,
    limit,
    count: query.count === 'none' ? undefined : query.count === 'estimated' ? 'estimated' : 'exact',
    empty,
  };
}
