import { screenWhereFunctionName } from '../../naming.ts';
import { FIELD_TYPES } from '../../spec/fieldTypes.ts';
import { searchFunctionRef } from '../../sql/emitSearch.ts';
import { quoteIdent } from '../../sql/quote.ts';
import type { Filter, ListQuery } from '../types.ts';
import { BackendError } from '../types.ts';
import type { EntityInfo } from './entityInfo.ts';
import { readList } from './rows.ts';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 1000;

export interface SqlQuery {
  text: string;
  params: unknown[];
}

/** `%`, `_` and `\` are wildcards in ILIKE; user text must match literally. */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (m) => `\\${m}`);
}

function column(info: EntityInfo, field: string): string {
  const c = info.byField.get(field);
  if (!c) throw new BackendError('INVALID_INPUT', { entity: info.entity, field, reason: 'unknown-field' });
  return `t.${quoteIdent(c.column)}`;
}

function condition(info: EntityInfo, f: Filter, params: unknown[]): string {
  const c = column(info, f.field);
  const p = () => {
    params.push(f.value);
    return `$${params.length}`;
  };
  const type = info.byField.get(f.field)?.type;
  switch (f.op) {
    case 'eq':
      return `${c} = ${p()}`;
    case 'neq':
      // Rows with an empty value are "not equal" too, as a person reading the filter expects.
      return `${c} is distinct from ${p()}`;
    case 'lt':
      return `${c} < ${p()}`;
    case 'lte':
      return `${c} <= ${p()}`;
    case 'gt':
      return `${c} > ${p()}`;
    case 'gte':
      return `${c} >= ${p()}`;
    case 'in':
      if (!Array.isArray(f.value))
        throw new BackendError('INVALID_INPUT', { field: f.field, reason: 'in-needs-list' });
      return `${c} = any(${p()})`;
    case 'isNull':
      return `${c} is null`;
    case 'notNull':
      return `${c} is not null`;
    case 'contains':
      if (type === 'tags') return `${c} @> array[${p()}]::text[]`;
      params.push(`%${escapeLike(String(f.value ?? ''))}%`);
      return `${c}::text ilike $${params.length}`;
  }
}

/** The WHERE clause (without the keyword) for filters and search; `true` when there are none. */
export function whereClause(info: EntityInfo, q: ListQuery, params: unknown[]): string {
  const parts = (q.filters ?? []).map((f) => condition(info, f, params));
  // The screen's rule, compiled into its own function by the migration (the caller checked the
  // screen exists: `screenFilterFunction`).
  if (q.screen !== undefined)
    parts.push(`public.${quoteIdent(screenWhereFunctionName(info.entity, q.screen))}(t)`);
  const search = q.search?.trim();
  if (search) {
    if (info.searchable.length === 0) parts.push('false');
    else {
      params.push(`%${escapeLike(search)}%`);
      const n = params.length;
      parts.push(`(${info.searchable.map((s) => `t.${quoteIdent(s)} ilike $${n}`).join(' or ')})`);
    }
  }
  return parts.length ? parts.join(' and ') : 'true';
}

/**
 * One SELECT for a list page, with the exact total as a window count (`count(*) over()`), so rows
 * and total come from the same snapshot. Pure: the caller runs it as the signed-in role.
 *
 * @example
 * listQuery(info, { filters: [{ field: 'status', op: 'eq', value: 'open' }], limit: 20 });
 * // { text: 'select t.id, ..., count(*) over() as __total from public.ticket t where t."status" = $1 ...', params: ['open'] }
 */
export function listQuery(info: EntityInfo, q: ListQuery = {}): SqlQuery & { limit: number; offset: number } {
  const params: unknown[] = [];
  const where = whereClause(info, q, params);
  const order = (q.sort ?? []).map((s) => {
    const dir = s.direction === 'desc' ? 'desc' : 'asc';
    const c = column(info, s.field);
    // People read "apple" next to "Apple", not after "Zebra": text sorts without regard to case
    // (PGlite's collation is C, byte order), the exact value then breaking ties.
    const type = info.byField.get(s.field)?.type;
    return type !== undefined && type !== 'implicit' && type !== 'file-meta' && FIELD_TYPES[type].freeText
      ? `lower(${c}) ${dir}, ${c} ${dir}`
      : `${c} ${dir}`;
  });
  // A unique tie-breaker keeps pages stable when sort keys repeat. It runs the way the last sort
  // key does, so one index on (sort key, id) serves the page both ways.
  const last = q.sort?.at(-1)?.direction === 'desc' ? 'desc' : 'asc';
  if (!(q.sort ?? []).some((s) => s.field === 'id')) order.push(`t.id ${last}`);
  const limit = Math.min(Math.max(Math.trunc(q.limit ?? DEFAULT_LIMIT), 0), MAX_LIMIT);
  const offset = Math.max(Math.trunc(q.offset ?? 0), 0);
  const total = q.count === 'none' ? '' : ', count(*) over() as __total';
  return {
    text: `select ${readList(info)}${total} from ${info.readRef} t where ${where} order by ${order.join(', ')} limit ${limit} offset ${offset}`,
    params,
    limit,
    offset,
  };
}

/** The count alone, for a page past the end (where the window count has no row to ride on). */
export function countQuery(info: EntityInfo, q: ListQuery = {}): SqlQuery {
  const params: unknown[] = [];
  return {
    text: `select count(*)::int as n from ${info.readRef} t where ${whereClause(info, q, params)}`,
    params,
  };
}

/**
 * Above this many matching rows `count: 'estimated'` stops counting and answers the planner's
 * estimate: counting 100,000 readable rows took 100-500 ms in PGlite, counting 10,000 a tenth.
 */
export const ESTIMATE_ABOVE = 10_000;

/** Counts matching rows, but reads at most `ESTIMATE_ABOVE + 1` of them. */
export function boundedCountQuery(info: EntityInfo, q: ListQuery = {}): SqlQuery {
  const params: unknown[] = [];
  return {
    text: `select count(*)::int as n from (select 1 from ${info.readRef} t where ${whereClause(info, q, params)} limit ${ESTIMATE_ABOVE + 1}) s`,
    params,
  };
}

/** The planner's row estimate for the same filters (`explain`, nothing read). */
export function estimateQuery(info: EntityInfo, q: ListQuery = {}): SqlQuery {
  const params: unknown[] = [];
  return {
    text: `explain (format json) select 1 from ${info.readRef} t where ${whereClause(info, q, params)}`,
    params,
  };
}

/** "Plan Rows" of the top node of an `explain (format json)` answer (text or parsed JSON). */
export function planRows(explained: unknown): number {
  const doc = typeof explained === 'string' ? JSON.parse(explained) : explained;
  const rows = Array.isArray(doc) ? doc[0]?.Plan?.['Plan Rows'] : undefined;
  return typeof rows === 'number' && Number.isFinite(rows) ? Math.round(rows) : 0;
}

/**
 * Above this many matches a search is answered by the plain `ilike` (which a list sorted by an
 * indexed column stops reading after one page) instead of the ids the search function found.
 */
export const SEARCH_IDS_MAX = 1_000;

/**
 * The ids of the rows the caller may read that match `search`, through the entity's search
 * function and its trigram indexes (src/sql/emitSearch.ts), at most `SEARCH_IDS_MAX + 1` of them.
 */
export function searchIdsQuery(info: EntityInfo, search: string): SqlQuery {
  return {
    text: `select ${searchFunctionRef(info.entity)}($1, $2) as id`,
    params: [`%${escapeLike(search)}%`, SEARCH_IDS_MAX + 1],
  };
}
