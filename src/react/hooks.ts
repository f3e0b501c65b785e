import {
  hashKey,
  keepPreviousData,
  type QueryClient,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Backend, HistoryEntry, ListQuery, ListResult, Row } from '../backend/types.ts';
import type { AppModel } from '../model/appModel.ts';
import { recomputedEntities } from '../model/computedDependents.ts';
import { withoutComputed } from '../runtime/computedValues.ts';
import { impliedReadFilters } from '../runtime/impliedReadFilters.ts';
import { listScreenQueries, nextPageQuery } from '../runtime/listScreenQueries.ts';
import {
  hopBounds,
  hopFilters,
  hopSources,
  loadRelationScopes,
  type RelationScopes,
  readsThroughRelation,
  relationScopeSources,
  withHops,
} from '../runtime/relationScopes.ts';
import type { RouteEntry } from '../runtime/routeTable.ts';
import { type AppCore, useAppCore } from './context.ts';
import { usePendingDeletes } from './pendingDeletes.ts';
import { seedReferences } from './referenceLabels.ts';

/**
 * Query keys start with the entity so one live change invalidates everything about it. A list's
 * key ends with the person it was asked for: its request carries that person's implied read filters
 * (`requester = me`), so an answer still in flight when the account switches can never be shown
 * to the next person under the same key.
 */
export const keys = {
  entity: (entity: string) => [entity] as const,
  list: (entity: string, query: ListQuery | undefined, userId?: string | null) =>
    [entity, 'list', query ?? {}, userId ?? ''] as const,
  row: (entity: string, id: string) => [entity, 'row', id] as const,
  history: (entity: string, id: string) => [entity, 'history', id] as const,
  /** The scope rows of the person's relationship roles (relationScopes.ts); no entity is named so. */
  scopes: (userId: string) => ['ninefold:scopes', userId] as const,
};

/**
 * One page of rows (server-side filter/sort/search/pagination), keeping the last page while the
 * next loads. With `labels` (the default) the rows' references are fetched with the page, in one
 * request per referenced entity (see referenceLabels.ts); pickers that show only titles pass false.
 */
export function useList(entity: string | undefined, query?: ListQuery, enabled = true, labels = true) {
  const runtime = useAppCore();
  const qc = useQueryClient();
  // Rows deleted with an Undo toast still showing are gone for the person already.
  const hidden = usePendingDeletes();
  return useQuery<ListResult>({
    queryKey: keys.list(entity ?? '', query, runtime.user?.id),
    // The signal: a query this one replaced (a search's earlier letters) is called off unasked.
    queryFn: ({ signal }) => fetchList(qc, runtime, entity, query, labels, signal),
    enabled: enabled && entity !== undefined,
    placeholderData: keepPreviousData,
    ...(hidden.size > 0 ? { select: (d: ListResult) => withoutHidden(d, hidden) } : {}),
  });
}

function withoutHidden(d: ListResult, hidden: ReadonlySet<string>): ListResult {
  const rows = d.rows.filter((r) => !hidden.has(String(r.id)));
  if (rows.length === d.rows.length) return d;
  return { ...d, rows, total: d.total === null ? null : d.total - (d.rows.length - rows.length) };
}

/** A list's answer as the screens show it: the rows, and the labels of what they reference. */
export async function fetchList(
  qc: ReturnType<typeof useQueryClient>,
  { backend, model, user }: Pick<AppCore, 'backend' | 'model' | 'user'>,
  entity: string | undefined,
  query: ListQuery | undefined,
  labels: boolean,
  signal?: AbortSignal,
): Promise<ListResult> {
  const scopes =
    entity && user && readsThroughRelation(model, entity)
      ? await qc.fetchQuery(scopesQuery(backend, model, user.id))
      : undefined;
  const bounds = user ? hopBounds(model, query?.screen) : [];
  const hops =
    user && bounds.length > 0
      ? await qc.fetchQuery({
          queryKey: [...keys.scopes(user.id), 'hops', query?.screen ?? ''],
          queryFn: () => hopFilters(bounds, user.id, (e, q) => backend.data.list(e, q)),
          staleTime: 60_000,
        })
      : [];
  const implied = withImpliedFilters(model, entity, user, query, scopes);
  const result = await backend.data.list(
    entity ?? '',
    withHops(model, implied, hops, user),
    signal ? { signal } : undefined,
  );
  // The page's reference labels in one request per referenced entity, before the rows show
  // (not one `get` per distinct id from each cell).
  if (labels && entity && result.rows.length > 0)
    await seedReferences(qc, backend, model, entity, result.rows, user?.id, keys.row);
  return result;
}

/**
 * How long a list stays as it is before its next page is read ahead: a person typing a search
 * changes it every 100 ms or so, and a read ahead that starts between two keys holds the
 * database's queue for the next key's rows (a read under way cannot be called off).
 */
const READ_AHEAD_AFTER_MS = 250;

/**
 * Puts a list page (with its labels) into the cache before it is shown, e.g. the next page while
 * the user reads this one: "Next page" then only renders. Renders nothing and never re-renders.
 * `after`: the page it follows and when that was answered; the read-ahead then says so
 * (`meta.readAheadOf`, that page's query hash), is asked again with each new answer of the page (a
 * write outdates both), and a remembered start keeps it with the page (startMemory.ts
 * `shownQueries`), so a return visit's first "Next page" is answered before the database is open.
 */
export function usePrefetchList(
  entity: string,
  query: ListQuery,
  enabled: boolean,
  after?: { query: ListQuery; updatedAt: number },
): void {
  const runtime = useAppCore();
  const qc = useQueryClient();
  const { backend, model, user } = runtime;
  const key = JSON.stringify(query);
  const afterKey = after === undefined ? undefined : pageHash(entity, after.query, user?.id);
  // Read ahead again when the page it follows is answered again (after a write outdated both).
  const afterUpdatedAt = after?.updatedAt;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new answer of `after` asks again
  useEffect(() => {
    if (!enabled) return;
    const q = JSON.parse(key) as ListQuery;
    const timer = setTimeout(
      () =>
        void qc.prefetchQuery({
          queryKey: keys.list(entity, q, user?.id),
          // A read ahead the next change no longer needs is called off (useListAddress).
          queryFn: ({ signal }) => fetchList(qc, { backend, model, user }, entity, q, true, signal),
          ...(afterKey === undefined ? {} : { meta: { readAheadOf: afterKey } }),
        }),
      READ_AHEAD_AFTER_MS,
    );
    return () => clearTimeout(timer);
  }, [qc, backend, model, user, entity, key, enabled, afterKey, afterUpdatedAt]);
}

/**
 * The landing list's rows and total, asked the moment the signed-in person is known, while the
 * router's and the screen's code still load: the list screen then finds both in the cache. Only
 * for a list screen whose path is exactly the page's (`/tickets`); anything else waits for its
 * screen (null). Settles when both are in the cache (prefetches never reject).
 */
export function prefetchListScreen(
  qc: ReturnType<typeof useQueryClient>,
  runtime: Pick<AppCore, 'backend' | 'model' | 'user'>,
  routes: readonly RouteEntry[],
  location: { pathname: string; search: string },
): Promise<void> | null {
  const landing = landingListKeys(runtime, routes, location);
  if (!landing) return null;
  return Promise.all(
    [landing.page, landing.total].map((q) =>
      qc.prefetchQuery({
        queryKey: keys.list(landing.entity, q, runtime.user?.id),
        queryFn: () => fetchList(qc, runtime, landing.entity, q, true),
      }),
    ),
  ).then(() => undefined);
}

/** A list page's query hash, as a read-ahead names the page it follows (`meta.readAheadOf`). */
function pageHash(entity: string, page: ListQuery, userId: string | undefined): string {
  return hashKey(keys.list(entity, page, userId));
}

/**
 * The landing list's next page, read ahead as its screen reads it (usePrefetchList: the same query,
 * `meta.readAheadOf` naming the page it follows) when its total says there is one. A demo's first
 * screens keep it (demoScreens.ts): a first "Next page" before the database is open, or on a
 * return visit to a page left before it opened, shows it at once.
 */
export async function prefetchNextPage(
  qc: QueryClient,
  runtime: Pick<AppCore, 'backend' | 'model' | 'user'>,
  routes: readonly RouteEntry[],
  location: { pathname: string; search: string },
): Promise<void> {
  const landing = landingListKeys(runtime, routes, location);
  if (!landing) return;
  const userId = runtime.user?.id;
  const counted = qc.getQueryData<ListResult>(keys.list(landing.entity, landing.total, userId));
  const next = nextPageQuery(landing.page);
  if (counted?.total == null || next.offset >= counted.total) return;
  await qc.prefetchQuery({
    queryKey: keys.list(landing.entity, next, userId),
    queryFn: () => fetchList(qc, runtime, landing.entity, next, true),
    meta: { readAheadOf: pageHash(landing.entity, landing.page, userId) },
  });
}

/**
 * The list screen at `location` (a list whose path is exactly the page's, `/tickets`), with the
 * two queries it sends for its rows and its total; undefined when the page is no such list.
 */
export function landingListKeys(
  runtime: Pick<AppCore, 'model' | 'user'>,
  routes: readonly RouteEntry[],
  location: { pathname: string; search: string },
): { entity: string; page: ListQuery; total: ListQuery } | undefined {
  const route = routes.find(
    (r) => r.kind === 'list' && r.params.length === 0 && r.path === location.pathname,
  );
  if (!route?.entity) return undefined;
  const { page, total } = listScreenQueries(
    runtime.model,
    route.name,
    route.entity,
    new URLSearchParams(location.search),
    runtime.user,
  );
  return { entity: route.entity, page, total };
}

/**
 * The scope rows of the person's relationship roles, read once and kept a minute: a change to a
 * membership (or a scope row's person field) invalidates them with the lists they bound
 * (useLiveInvalidation).
 */
function scopesQuery(backend: Backend, model: AppModel, userId: string) {
  return {
    queryKey: keys.scopes(userId),
    queryFn: () => loadRelationScopes(model, userId, (e, q) => backend.data.list(e, q)),
    staleTime: 60_000,
  };
}

/** Adds the filters row-level security implies for this user, so the database can use an index. */
function withImpliedFilters(
  model: AppModel,
  entity: string | undefined,
  user: { id: string; roles: readonly string[] } | null,
  query: ListQuery | undefined,
  scopes?: RelationScopes,
): ListQuery | undefined {
  const implied = entity ? impliedReadFilters(model, entity, user, scopes) : [];
  if (implied.length === 0) return query;
  return { ...query, filters: [...implied, ...(query?.filters ?? [])] };
}

/**
 * One row; a NOT_FOUND is an answer (not available to you), not something to retry. `staleTime`
 * overrides the client's default (reference labels keep theirs longer: live changes still
 * invalidate them, and each remount of a cell would otherwise refetch).
 */
export function useRow(entity: string | undefined, id: string | undefined, staleTime?: number) {
  const { backend } = useAppCore();
  return useQuery<Row>({
    ...rowQuery(backend, entity ?? '', id ?? '', staleTime),
    enabled: entity !== undefined && id !== undefined && id !== '',
  });
}

/** One row's query (key, read, no retry, freshness): `useRow`'s, and a list page's labels'. */
export function rowQuery(backend: Backend, entity: string, id: string, staleTime?: number) {
  return {
    queryKey: keys.row(entity, id),
    queryFn: () => backend.data.get(entity, id),
    retry: false,
    ...(staleTime === undefined ? {} : { staleTime }),
  };
}

export function useHistory(entity: string, id: string | undefined) {
  const { backend } = useAppCore();
  return useQuery<HistoryEntry[]>({
    queryKey: keys.history(entity, id ?? ''),
    queryFn: () => backend.data.history(entity, id ?? ''),
    enabled: id !== undefined,
  });
}

/** Keeps every query about live entities fresh: a committed change anywhere invalidates them. */
export function useLiveInvalidation(model: AppModel, backend: Backend, active: boolean): void {
  const qc = useQueryClient();
  useEffect(() => {
    if (!active) return;
    // A hop filter (`submitter in (the people I manage)`) is read and cached like the scopes.
    const scopeSources = new Set([...relationScopeSources(model), ...hopSources(model)]);
    const offs = [...model.tables.values()]
      .filter((t) => t.live)
      .map(({ entity }) =>
        backend.live.subscribe({ entity }, (change) => {
          // Not cancelRefetch: a fetch already running started after the commit (this tab's
          // mutation invalidates too, right after); restarting it only queued the same reads twice.
          const opts = { cancelRefetch: false };
          // The changed row and its history first: the database answers in order, and an open
          // detail screen waits for those, not for the lists.
          if (change.id !== '*') {
            void qc.invalidateQueries({ queryKey: keys.history(entity, change.id) }, opts);
            void qc.invalidateQueries({ queryKey: keys.row(entity, change.id) }, opts);
          }
          void qc.invalidateQueries({ queryKey: keys.entity(entity) }, opts);
          void invalidateRecomputed(qc, model, entity, opts);
          if (scopeSources.has(entity)) invalidateScopes(qc, model, opts);
        }),
      );
    return () => {
      for (const off of offs) off();
    };
  }, [model, backend, qc, active]);
}

/**
 * A membership (or a scope row's person field) changed: the person's relationship scopes are read
 * again, and so is every list they bound (a new membership's rows must show at once).
 */
function invalidateScopes(qc: QueryClient, model: AppModel, opts: { cancelRefetch: boolean }): void {
  void qc.invalidateQueries({ queryKey: ['ninefold:scopes'] }, opts);
  const bounded = new Set(
    [...model.screens.values()].filter((s) => hopBounds(model, s.name).length > 0).map((s) => s.spec.entity),
  );
  for (const entity of model.tables.keys())
    if (readsThroughRelation(model, entity) || bounded.has(entity))
      void qc.invalidateQueries({ queryKey: keys.entity(entity) }, opts);
}

export interface TransitionVars {
  id: string;
  transition: string;
  to: string;
  input?: Record<string, unknown>;
  version?: number;
}

/**
 * Runs a transition with an optimistic update: the row (and any cached list containing it)
 * shows the new state at once, and goes back if the server refuses.
 */
export function useTransitionMutation(entity: string) {
  const { backend, model } = useAppCore();
  const qc = useQueryClient();
  const statusField = model.machines.get(entity)?.field ?? 'status';
  return useMutation({
    mutationFn: (v: TransitionVars) =>
      backend.data.transition(entity, v.id, v.transition, v.input, v.version),
    onMutate: async (v) => {
      await qc.cancelQueries({ queryKey: keys.entity(entity) });
      const snapshot = qc.getQueriesData<Row | ListResult>({ queryKey: keys.entity(entity) });
      const patch = (row: Row): Row => (row.id === v.id ? { ...row, ...v.input, [statusField]: v.to } : row);
      for (const [key, data] of snapshot) {
        if (!data) continue;
        if (key[1] === 'list') {
          const list = data as ListResult;
          qc.setQueryData(key, { ...list, rows: list.rows.map(patch) });
        } else if (key[1] === 'row') qc.setQueryData(key, patch(data as Row));
      }
      return { snapshot };
    },
    onError: (_e, _v, ctx) => {
      for (const [key, data] of ctx?.snapshot ?? []) qc.setQueryData(key, data);
    },
    onSuccess: (row) => {
      qc.setQueryData(keys.row(entity, row.id), row);
    },
    onSettled: (_row, _e, v) =>
      Promise.all([invalidateAfterTransition(qc, entity, v.id), invalidateRecomputed(qc, model, entity)]),
  });
}

/**
 * What a transition can change: the row and its history first (the detail screen waits for
 * them; the database answers requests in order), then the entity's lists. Other rows' queries
 * stay. A fetch already running (the live change's) is not restarted.
 */
function invalidateAfterTransition(qc: ReturnType<typeof useQueryClient>, entity: string, id: string) {
  const opts = { cancelRefetch: false };
  return Promise.all([
    qc.invalidateQueries({ queryKey: keys.history(entity, id) }, opts),
    qc.invalidateQueries({ queryKey: keys.row(entity, id) }, opts),
    qc.invalidateQueries({ queryKey: [entity, 'list'] }, opts),
  ]);
}

export function useCreate(entity: string) {
  const { backend, model } = useAppCore();
  const qc = useQueryClient();
  return useMutation({
    // A related list's add inherits references the server may compute (a task's organisation).
    mutationFn: (values: Record<string, unknown>) =>
      backend.data.create(entity, withoutComputed(model, entity, values)),
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: keys.entity(entity) }),
        invalidateParentHistories(qc, model, entity),
      ]),
  });
}

/**
 * A row added under an audited reference (a comment on a ticket) appends to the parent's history
 * (docs/architecture.md, "History"): the parents' open timelines refetch.
 */
export function invalidateParentHistories(
  qc: ReturnType<typeof useQueryClient>,
  model: AppModel,
  entity: string,
): Promise<void> {
  const parents = new Set(
    Object.values(model.tables.get(entity)?.spec.fields ?? {})
      .filter((f) => f.audited && f.type === 'ref' && f.ref)
      .map((f) => f.ref),
  );
  if (parents.size === 0) return Promise.resolve();
  return qc.invalidateQueries({
    predicate: (q) => q.queryKey[1] === 'history' && parents.has(String(q.queryKey[0])),
  });
}

/**
 * A write of `entity` can change computed fields of other entities reading it through a
 * reference (an organisation's currency, its projects' and their time entries'; see
 * src/sql/emitRecompute.ts): their lists and rows are read again too. From the model, chains
 * included.
 */
export function invalidateRecomputed(
  qc: QueryClient,
  model: AppModel,
  entity: string,
  opts?: { cancelRefetch: boolean },
): Promise<unknown> {
  return Promise.all(
    recomputedEntities(model, entity).map((e) => qc.invalidateQueries({ queryKey: keys.entity(e) }, opts)),
  );
}

export function useUpdate(entity: string) {
  const { backend, model } = useAppCore();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: string; version: number; values: Record<string, unknown> }) =>
      backend.data.update(entity, v.id, v.version, v.values),
    onSuccess: (row) => {
      qc.setQueryData(keys.row(entity, row.id), row);
      return Promise.all([
        qc.invalidateQueries({ queryKey: keys.entity(entity) }),
        invalidateRecomputed(qc, model, entity),
      ]);
    },
  });
}

export function useDelete(entity: string) {
  const { backend, model } = useAppCore();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => backend.data.delete(entity, id),
    // A reference that empties (`set null`) recomputes its rows' computed fields.
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: keys.entity(entity) }),
        invalidateRecomputed(qc, model, entity),
      ]),
  });
}
