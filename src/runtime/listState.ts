import type { Filter, ListQuery } from '../backend/types.ts';

export interface ListState {
  search: string;
  /** Field name, `-` prefix for descending. */
  sort: string | undefined;
  page: number;
  /** Field → chosen value (one per filter, as text). */
  filters: Record<string, string>;
}

export const PAGE_SIZE = 50;

/**
 * The order of a list whose screen names none: newest first. Without it the rows came in the
 * order of their ids (random uuids), a new row landed anywhere and "Sort by" showed nothing.
 */
export const NEWEST_FIRST = '-createdAt';

/**
 * Reads a list screen's state from URL search params (`q`, `sort`, `page`, `f.<field>`), so a
 * filtered, sorted view is a link someone can share. `defaultSort` is the screen's order
 * (`NEWEST_FIRST` when it names none).
 *
 * @example
 * listStateFromParams(new URLSearchParams('q=printer&f.status=open&sort=-createdAt'))
 * // { search: 'printer', sort: '-createdAt', page: 1, filters: { status: 'open' } }
 */
export function listStateFromParams(params: URLSearchParams, defaultSort = NEWEST_FIRST): ListState {
  const filters: Record<string, string> = {};
  for (const [k, v] of params) if (k.startsWith('f.') && v !== '') filters[k.slice(2)] = v;
  const page = Number(params.get('page') ?? '1');
  return {
    search: params.get('q') ?? '',
    sort: params.get('sort') ?? defaultSort,
    page: Number.isInteger(page) && page > 0 ? page : 1,
    filters,
  };
}

/** The inverse of `listStateFromParams` (defaults left out to keep URLs short). */
export function listStateToParams(state: ListState, defaultSort = NEWEST_FIRST): URLSearchParams {
  const p = new URLSearchParams();
  if (state.search) p.set('q', state.search);
  if (state.sort && state.sort !== defaultSort) p.set('sort', state.sort);
  if (state.page > 1) p.set('page', String(state.page));
  for (const [k, v] of Object.entries(state.filters)) if (v !== '') p.set(`f.${k}`, v);
  return p;
}

/** Parses `-field` / `field` into a backend sort. */
export function parseSort(sort: string | undefined): ListQuery['sort'] {
  if (!sort) return undefined;
  return sort.startsWith('-')
    ? [{ field: sort.slice(1), direction: 'desc' }]
    : [{ field: sort, direction: 'asc' }];
}

/**
 * The backend query for a list state: the screen's fixed filters, the chosen filters, search,
 * sort and page. Filter values `true`/`false` become booleans for boolean fields.
 *
 * @example
 * listQuery({ search: '', sort: 'title', page: 2, filters: { status: 'open' } }, [])
 * // { filters: [{ field: 'status', op: 'eq', value: 'open' }], sort: [...], offset: 50, limit: 50, count: 'exact' }
 */
export function listQuery(
  state: ListState,
  fixed: readonly Filter[],
  booleanFields: ReadonlySet<string> = new Set(),
  pageSize = PAGE_SIZE,
): ListQuery {
  const chosen: Filter[] = Object.entries(state.filters).map(([field, v]) => ({
    field,
    op: 'eq',
    value: booleanFields.has(field) ? v === 'true' : v,
  }));
  const q: ListQuery = {
    filters: narrowed(fixed, chosen),
    offset: (state.page - 1) * pageSize,
    limit: pageSize,
    count: 'exact',
  };
  const sort = parseSort(state.sort);
  if (sort) q.sort = sort;
  if (state.search.trim()) q.search = state.search.trim();
  return q;
}

/**
 * The screen's fixed filters and the chosen ones, a chosen value on a field the screen fixes
 * taking the fixed filter's place: `status in (approved, finance_approved)` and a chosen `draft`
 * hold for no row (`status in ()`: the database reads no index entry for it, where the two side by
 * side walked the screen's index past every approved claim), a chosen `approved` for its rows.
 */
function narrowed(fixed: readonly Filter[], chosen: readonly Filter[]): Filter[] {
  const chosenOf = new Map(chosen.map((c) => [c.field, c]));
  const none = new Set<string>();
  const kept = fixed.filter((f) => {
    const c = chosenOf.get(f.field);
    const allowed = f.op === 'eq' ? [f.value] : f.op === 'in' && Array.isArray(f.value) ? f.value : undefined;
    if (!c || allowed === undefined) return true;
    // Compared as text: a chosen value comes from the address (`f.amount=5`).
    if (!allowed.map(String).includes(String(c.value))) none.add(f.field);
    return false;
  });
  return [
    ...kept,
    ...chosen.map((c): Filter => (none.has(c.field) ? { field: c.field, op: 'in', value: [] } : c)),
  ];
}
