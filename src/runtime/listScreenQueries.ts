import type { ListQuery } from '../backend/types.ts';
import type { AppModel } from '../model/appModel.ts';
import { listQuery, listStateFromParams, PAGE_SIZE } from './listState.ts';
import type { RuleUser } from './ruleVerdict.ts';
import { serverScreen, type WhereFilters, whereFilters } from './whereFilters.ts';

/** The boolean fields of an entity (their filter values `true`/`false` become booleans). */
export function booleanFields(model: AppModel, entity: string): Set<string> {
  return new Set(
    (model.tables.get(entity)?.columns ?? []).filter((c) => c.type === 'boolean').map((c) => c.field),
  );
}

/**
 * A list screen's query for its rows: the page, without a count (the total is its own query, kept
 * per search and filters, so a page change re-reads only its rows).
 */
export function pageQuery(query: ListQuery): ListQuery {
  return { ...query, count: 'none' };
}

/** The page after `page` (as a screen reads it ahead while `page` shows). */
export function nextPageQuery(page: ListQuery): ListQuery & { offset: number } {
  return { ...page, count: 'none', offset: (page.offset ?? 0) + PAGE_SIZE };
}

/** A list screen's query for its total: no rows, the count exact up to a threshold, else estimated. */
export function totalQuery(query: ListQuery, where: WhereFilters, screen: string): ListQuery {
  return {
    filters: query.filters,
    ...serverScreen(where, screen),
    ...(query.search ? { search: query.search } : {}),
    offset: 0,
    limit: 0,
    count: 'estimated',
  };
}

/**
 * The two queries a list screen sends for a URL (its rows and its total), from the same parts the
 * screen uses (ListScreen.tsx): the app asks them as soon as it knows who is signed in, while the
 * screen's code is still loading, and the screen then finds them in the cache.
 *
 * @example
 * listScreenQueries(model, 'tickets', 'ticket', new URLSearchParams('q=printer'), user)
 * // { page: { filters: [], offset: 0, limit: 50, search: 'printer', count: 'none' }, total: { …, count: 'estimated' } }
 */
export function listScreenQueries(
  model: AppModel,
  screen: string,
  entity: string,
  params: URLSearchParams,
  user: RuleUser | null,
): { page: ListQuery; total: ListQuery } {
  const s = model.screens.get(screen)?.spec;
  const where = whereFilters(model, entity, s?.where, user);
  const query = {
    ...listQuery(listStateFromParams(params, s?.sort), where.filters, booleanFields(model, entity)),
    ...serverScreen(where, screen),
  };
  return { page: pageQuery(query), total: totalQuery(query, where, screen) };
}
