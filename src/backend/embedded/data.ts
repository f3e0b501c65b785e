import type { Transaction } from '@electric-sql/pglite';
import { quoteIdent } from '../../sql/quote.ts';
import { screenFilterFunction } from '../screenFilter.ts';
import { BackendError, type DataPort, type HistoryEntry, type ListQuery, type ListResult } from '../types.ts';
import type { EmbeddedContext } from './context.ts';
import { type EntityInfo, entityInfo, historyRef, transitionRef } from './entityInfo.ts';
import {
  boundedCountQuery,
  countQuery,
  ESTIMATE_ABOVE,
  estimateQuery,
  listQuery,
  planRows,
  SEARCH_IDS_MAX,
  searchIdsQuery,
} from './listQuery.ts';
import { asCaller, asOwner, QUERY_OPTIONS, readAsCaller } from './request.ts';
import { readList, selectList, toRow } from './rows.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id that is not a uuid names no row: NOT_FOUND, not a syntax error. */
export function checkId(info: EntityInfo, id: string): void {
  if (!UUID.test(id)) throw new BackendError('NOT_FOUND', { entity: info.entity, id });
}

/** Field values → [columns, params], refusing fields the entity does not declare. */
export function toColumns(info: EntityInfo, values: Record<string, unknown>, extra: readonly string[] = []) {
  const columns: string[] = [];
  const params: unknown[] = [];
  for (const [field, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const c = info.byField.get(field);
    if (!c || !(info.writable.has(field) || extra.includes(field))) {
      throw new BackendError(
        'INVALID_INPUT',
        { entity: info.entity, field, reason: 'unknown-field' },
        `${info.entity}.${field}`,
      );
    }
    columns.push(quoteIdent(c.column));
    params.push(value);
  }
  return { columns, params };
}

/** Whether the caller can see the row at all, and at which version (inside the same transaction). */
export async function visibleVersion(tx: Transaction, info: EntityInfo, id: string): Promise<number | null> {
  const r = await tx.query<{ version: number }>(`select version from ${info.ref} where id = $1`, [id]);
  return r.rows[0]?.version ?? null;
}

async function insertRow(
  tx: Transaction,
  info: EntityInfo,
  values: Record<string, unknown>,
  extra: readonly string[] = [],
  raw: Record<string, unknown> = {},
) {
  const { columns, params } = toColumns(info, values, extra);
  for (const [column, value] of Object.entries(raw)) {
    columns.push(quoteIdent(column));
    params.push(value);
  }
  const returning = writtenRowList(info);
  const text = columns.length
    ? `insert into ${info.ref} as t (${columns.join(', ')}) values (${params.map((_, i) => `$${i + 1}`).join(', ')}) returning ${returning}`
    : `insert into ${info.ref} as t default values returning ${returning}`;
  const r = await tx.query<Record<string, unknown>>(text, params, QUERY_OPTIONS);
  const row = r.rows[0];
  if (!row) throw new BackendError('FORBIDDEN', { entity: info.entity, action: 'create' });
  return readWritten(tx, info, row);
}

/**
 * What a write returns: the row, or only its id where some column is read-restricted (the
 * client roles hold no privilege on it, not even in RETURNING); `readWritten` then reads the row
 * as the caller may see it, through the masking view (src/sql/emitFieldReads.ts).
 */
function writtenRowList(info: EntityInfo): string {
  return info.readRestricted.length > 0 ? 't.id' : selectList(info);
}

async function readWritten(tx: Transaction, info: EntityInfo, row: Record<string, unknown>) {
  if (info.readRestricted.length === 0) return toRow(info, row);
  const r = await tx.query<Record<string, unknown>>(
    `select ${readList(info)} from ${info.readRef} t where t.id = $1`,
    [row.id],
    QUERY_OPTIONS,
  );
  const read = r.rows[0];
  // Written but no longer readable by the caller: the same answer as a refused read.
  if (!read) throw new BackendError('NOT_FOUND', { entity: info.entity, id: String(row.id) });
  return toRow(info, read);
}

/** Shared by data.create and files.upload. */
export { insertRow };

/**
 * Derived calls (list, get, create, update, delete, transition, history), each one transaction
 * as the caller so row-level security decides.
 */
export function createDataPort(ctx: EmbeddedContext): DataPort {
  const changed = (entity: string, id: string, kind: 'insert' | 'update' | 'delete') =>
    ctx.emitChange({ entity, id, kind });

  return {
    async list(entity, asked = {}, options = {}) {
      // Called off before it ran (a newer query replaced it): nothing to read.
      options.signal?.throwIfAborted();
      const result = await listRows(ctx, entity, asked);
      options.signal?.throwIfAborted();
      return result;
    },

    async get(entity, id) {
      const info = entityInfo(ctx.model, entity);
      checkId(info, id);
      const [rows] = await readAsCaller(ctx, [
        { text: `select ${readList(info)} from ${info.readRef} t where t.id = $1`, params: [id] },
      ]);
      const row = rows?.[0];
      if (!row) throw new BackendError('NOT_FOUND', { entity, id });
      return toRow(info, row);
    },

    async create(entity, values) {
      const info = entityInfo(ctx.model, entity);
      const row = await asCaller(ctx, (tx) => insertRow(tx, info, values));
      changed(entity, row.id, 'insert');
      return row;
    },

    async update(entity, id, version, values) {
      const row = await updateRow(ctx, entity, id, version, values);
      changed(entity, id, 'update');
      return row;
    },

    async delete(entity, id) {
      await deleteRow(ctx, entity, id);
      changed(entity, id, 'delete');
    },

    async transition(entity, id, transition, input = {}, version) {
      const row = await transitionRow(ctx, entity, id, transition, input, version);
      changed(entity, id, 'update');
      return row;
    },

    history: (entity, id) => readHistory(ctx, entity, id),
  };
}

/**
 * The planner's row estimate for the query's filters: planned without the policies for a
 * caller who reads every row (as the caller it guessed the OR of role checks 17% low at 12,000
 * rows); the same rows, nothing executed (explain), only a number they could count themselves.
 */
async function plannedRows(
  ctx: EmbeddedContext,
  entity: string,
  info: EntityInfo,
  query: ListQuery,
): Promise<number> {
  const estimate = estimateQuery(info, query);
  const plan = readsEveryRow(ctx, entity)
    ? (await asOwner(ctx, (tx) => tx.query<Record<string, unknown>>(estimate.text, [...estimate.params])))
        .rows
    : (await readAsCaller(ctx, [estimate]))[0];
  return planRows(plan?.[0]?.['QUERY PLAN']);
}

/** One page and, when asked, its total; as the caller. */
async function listRows(ctx: EmbeddedContext, entity: string, asked: ListQuery): Promise<ListResult> {
  const info = entityInfo(ctx.model, entity);
  if (asked.screen !== undefined) screenFilterFunction(ctx.model, entity, asked.screen);
  // A total for a search too short for the trigram indexes can only be counted by reading every
  // row (a two-letter search over 100,000 tickets: 250 ms, on each key of a search as you type);
  // above ESTIMATE_ABOVE rows in the table, the planner's estimate answers it instead.
  if (
    asked.count === 'estimated' &&
    asked.limit === 0 &&
    isShortSearch(asked.search) &&
    (await tableRows(ctx, info)) > ESTIMATE_ABOVE
  )
    return { rows: [], total: await plannedRows(ctx, entity, info, asked), estimated: true };
  const query = await withSearchIds(ctx, info, asked);
  const q = listQuery(info, query);
  const counted = query.count !== 'none';
  // Reads go to the database as one message (readAsCaller). A count alone (limit 0) is only
  // the count query; a page past the end has no row to carry the window count and asks again.
  const count = async () => Number((await readAsCaller(ctx, [countQuery(info, query)]))[0]?.[0]?.n ?? 0);
  if (counted && q.limit === 0 && query.count === 'estimated') {
    // Exact up to ESTIMATE_ABOVE rows (bounded read), the planner's estimate above it.
    const [bounded] = await readAsCaller(ctx, [boundedCountQuery(info, query)]);
    const n = Number(bounded?.[0]?.n ?? 0);
    if (n <= ESTIMATE_ABOVE) return { rows: [], total: n };
    const planned = await plannedRows(ctx, entity, info, query);
    return { rows: [], total: Math.max(planned, ESTIMATE_ABOVE + 1), estimated: true };
  }
  if (counted && q.limit === 0) return { rows: [], total: await count() };
  const [rows = []] = await readAsCaller(ctx, [q]);
  let total: number | null = null;
  if (counted) {
    const first = rows[0];
    total = first ? Number(first.__total) : q.offset > 0 ? await count() : 0;
  }
  return { rows: rows.map((row) => toRow(info, row)), total };
}

/** data.update: at the version given, or why not (NOT_FOUND, FORBIDDEN, CONFLICT). */
async function updateRow(
  ctx: EmbeddedContext,
  entity: string,
  id: string,
  version: number,
  values: Record<string, unknown>,
) {
  const info = entityInfo(ctx.model, entity);
  checkId(info, id);
  const { columns, params } = toColumns(info, values);
  return asCaller(ctx, async (tx) => {
    const sets = columns.length
      ? columns.map((c, i) => `${c} = $${i + 3}`).join(', ')
      : 'version = t.version';
    const r = await tx.query<Record<string, unknown>>(
      `update ${info.ref} t set ${sets} where t.id = $1 and t.version = $2 returning ${writtenRowList(info)}`,
      [id, version, ...params],
      QUERY_OPTIONS,
    );
    const updated = r.rows[0];
    if (updated) return readWritten(tx, info, updated);
    const current = await visibleVersion(tx, info, id);
    if (current === null) throw new BackendError('NOT_FOUND', { entity, id });
    // Visible at the version given but not updatable: the update policy refused it.
    if (current === version) throw new BackendError('FORBIDDEN', { entity, action: 'update' });
    throw new BackendError('CONFLICT', { entity, id, version, current });
  });
}

/** data.delete: NOT_FOUND when the caller cannot see the row, FORBIDDEN when it may not delete it. */
async function deleteRow(ctx: EmbeddedContext, entity: string, id: string): Promise<void> {
  const info = entityInfo(ctx.model, entity);
  checkId(info, id);
  await asCaller(ctx, async (tx) => {
    const r = await tx.query(`delete from ${info.ref} t where t.id = $1 returning t.id`, [id]);
    if (r.rows.length > 0) return;
    if ((await visibleVersion(tx, info, id)) === null) throw new BackendError('NOT_FOUND', { entity, id });
    throw new BackendError('FORBIDDEN', { entity, action: 'delete' });
  });
}

/** data.transition: the entity's transition function decides (guards, state, version). */
async function transitionRow(
  ctx: EmbeddedContext,
  entity: string,
  id: string,
  transition: string,
  input: Record<string, unknown>,
  version: number | undefined,
) {
  const info = entityInfo(ctx.model, entity);
  const fn = transitionRef(info, transition);
  checkId(info, id);
  return asCaller(ctx, async (tx) => {
    const r = await tx.query<Record<string, unknown>>(
      `select ${selectList(info)} from ${fn}($1, $2, $3::jsonb) t`,
      [id, version ?? null, JSON.stringify(input)],
      QUERY_OPTIONS,
    );
    const out = r.rows[0];
    if (!out) throw new BackendError('NOT_FOUND', { entity, id });
    return toRow(info, out);
  });
}

/** A history row as the table stores it. */
type HistoryRow = {
  id: string;
  row_id: string;
  kind: HistoryEntry['kind'];
  transition: string;
  from_state: string;
  to_state: string;
  actor: string | null;
  at: string;
  input: Record<string, unknown>;
  previous: Record<string, unknown> | null;
};

/** data.history: the row's history as the caller may read it; none for an entity without history. */
async function readHistory(ctx: EmbeddedContext, entity: string, id: string): Promise<HistoryEntry[]> {
  const info = entityInfo(ctx.model, entity);
  if (!info.historyTable) return [];
  checkId(info, id);
  const [rows = []] = await readAsCaller(ctx, [
    {
      text: `select id, row_id, kind, transition, from_state, to_state, actor, at, input, previous from ${historyRef(info)} where row_id = $1 order by at, id`,
      params: [id],
    },
  ]);
  return (rows as HistoryRow[]).map(
    (h): HistoryEntry => ({
      id: h.id,
      rowId: h.row_id,
      kind: h.kind ?? 'transition',
      transition: h.transition,
      fromState: h.from_state,
      toState: h.to_state,
      actor: h.actor ?? '',
      at: h.at,
      input: h.input,
      previous: h.previous ?? {},
    }),
  );
}

/** Fewer characters than a trigram: the trigram indexes cannot narrow such a search. */
function isShortSearch(search: string | undefined): boolean {
  const s = search?.trim() ?? '';
  return s !== '' && [...s].length < 3;
}

/**
 * The table's row count as the planner would guess it: its last statistics scaled to the table's
 * size now, as the planner scales them (PGlite has no autovacuum to refresh them); 0 when it was
 * never analysed. No row is read.
 */
async function tableRows(ctx: EmbeddedContext, info: EntityInfo): Promise<number> {
  const [rows = []] = await readAsCaller(ctx, [
    {
      text: `select case when relpages > 0 and reltuples > 0
                then reltuples / relpages * (pg_relation_size(oid) / current_setting('block_size')::float8)
                else 0 end::float8 as n
             from pg_class where oid = $1::regclass`,
      params: [info.ref],
    },
  ]);
  return Number(rows[0]?.n ?? 0);
}

/** The signed-in user holds a role that reads every row of `entity` (`read: true`). */
function readsEveryRow(ctx: EmbeddedContext, entity: string): boolean {
  const roles = ctx.current.session?.user.roles ?? [];
  const held = new Set(roles.flatMap((r) => ctx.model.roles.get(r)?.implied ?? [r]));
  return ctx.model.policies.some(
    (p) => p.entity === entity && p.action === 'read' && p.when === true && held.has(p.role),
  );
}

/**
 * A search of three characters or more with few matches becomes `id in (…)` with the ids the search function found through
 * the trigram indexes (RLS keeps a plain `ilike` from using them: src/sql/emitSearch.ts); one with
 * many matches stays the plain `ilike`, which a list sorted by an indexed column stops reading
 * after one page. Same rows either way: the function applies the read policies and the same match.
 */
async function withSearchIds(ctx: EmbeddedContext, info: EntityInfo, query: ListQuery): Promise<ListQuery> {
  const search = query.search?.trim();
  // One or two characters: no trigram narrows them, so the function would read rows until it had
  // SEARCH_IDS_MAX + 1 matches only to hand the search back (`77` over 100,000 tickets: 100 ms of a
  // 107 ms page); the plain `ilike` along the sort index stops after one page.
  if (!search || info.searchable.length === 0 || isShortSearch(search)) return query;
  const [found = []] = await readAsCaller(ctx, [searchIdsQuery(info, search)]);
  if (found.length > SEARCH_IDS_MAX) return query;
  const { search: _, ...rest } = query;
  const ids = found.map((r) => String(r.id));
  return { ...rest, filters: [...(query.filters ?? []), { field: 'id', op: 'in', value: ids }] };
}
