import { screenFilterFunction } from '../screenFilter.ts';
import {
  BackendError,
  type DataPort,
  type HistoryEntry,
  type ListQuery,
  type ListResult,
  type ReadOptions,
  type Row,
} from '../types.ts';
import { type EntityModel, isoTimestamp, modelOf, toColumns, toRow, transitionRpc } from './entityModel.ts';
import { listParams } from './listParams.ts';
import { run, type SupabaseContext } from './supabaseContext.ts';
import { runDueTransitions } from './timed.ts';

type Record_ = Record<string, unknown>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Supabase's default `max_rows` for the Data API: PostgREST counts exactly up to it. */
const POSTGREST_MAX_ROWS = 1000;

/** A malformed id can name no row; answering NOT_FOUND avoids a 22P02 round trip. */
function assertId(entity: string, id: string): void {
  if (!UUID.test(id)) throw new BackendError('NOT_FOUND', { entity, id });
}

/** PGRST103 says "An offset of N was requested, but there are only M rows." */
function totalFromRangeError(details: string | null | undefined): number | undefined {
  const m = details?.match(/there are only (\d+) rows/);
  return m?.[1] === undefined ? undefined : Number(m[1]);
}

/**
 * Rows through PostgREST: `from(table)` with filters, `rpc` for transitions, `<table>_history`
 * for history. RLS decides what each user sees; this only translates.
 */
export function createDataPort(ctx: SupabaseContext): DataPort {
  const { client } = ctx;

  async function get(entity: string, id: string): Promise<Row> {
    const model = modelOf(ctx.models, entity);
    assertId(entity, id);
    await runDueTransitions(ctx);
    const { data } = await run(
      ctx,
      client.from(model.readTable).select('*').eq('id', id).maybeSingle<Record_>(),
    );
    if (!data) throw new BackendError('NOT_FOUND', { entity, id });
    return toRow(model, data);
  }

  /** After a write matched no row: gone (or unreadable), stale, or refused by a USING policy. */
  async function explainNoRow(entity: string, id: string, version: number | undefined): Promise<never> {
    const current = await get(entity, id);
    if (version !== undefined && current.version !== version) {
      throw new BackendError('CONFLICT', { entity, id, version, current: current.version });
    }
    throw new BackendError('FORBIDDEN', { entity, id });
  }

  return {
    list: async (entity, query, options) => {
      await runDueTransitions(ctx);
      return listRows(ctx, entity, query, options);
    },

    get,

    async create(entity, values) {
      const model = modelOf(ctx.models, entity);
      const body = toColumns(model, values);
      const { data } = await run(
        ctx,
        client.from(model.table).insert(body).select(written(model)).single<Record_>(),
      );
      if (!data) throw new BackendError('INTERNAL');
      return model.masked ? get(entity, String(data.id)) : toRow(model, data);
    },

    async update(entity, id, version, values) {
      const model = modelOf(ctx.models, entity);
      assertId(entity, id);
      const body = toColumns(model, values);
      // The version filter is the optimistic lock; the row trigger bumps `version` on success.
      const { data } = await run(
        ctx,
        client
          .from(model.table)
          .update(body)
          .eq('id', id)
          .eq('version', version)
          .select(written(model))
          .maybeSingle<Record_>(),
      );
      if (!data) return explainNoRow(entity, id, version);
      return model.masked ? get(entity, id) : toRow(model, data);
    },

    async delete(entity, id) {
      const model = modelOf(ctx.models, entity);
      assertId(entity, id);
      const { count } = await run(ctx, client.from(model.table).delete({ count: 'exact' }).eq('id', id));
      if (count === 0) await explainNoRow(entity, id, undefined);
    },

    async transition(entity, id, transition, input = {}, version) {
      const model = modelOf(ctx.models, entity);
      if (!ctx.model.tables.get(entity)?.transitions.some((t) => t.name === transition)) {
        throw new BackendError('INVALID_TRANSITION', { entity, transition });
      }
      assertId(entity, id);
      await runDueTransitions(ctx);
      // Input keys stay field names: the generated function reads `p_input ->> '<field>'`.
      const { data } = await run(
        ctx,
        client
          .rpc(transitionRpc(model, transition), { p_id: id, p_version: version ?? null, p_input: input })
          .single<Record_>(),
      );
      if (!data) throw new BackendError('NOT_FOUND', { entity, id });
      return toRow(model, data);
    },

    async history(entity, id) {
      modelOf(ctx.models, entity);
      const historyTable = ctx.model.tables.get(entity)?.historyTable;
      if (!historyTable) return [];
      assertId(entity, id);
      const { data } = await run(
        ctx,
        client
          .from(historyTable)
          .select('*')
          .eq('row_id', id)
          .order('at', { ascending: true })
          .order('id', { ascending: true }),
      );
      return ((data ?? []) as Record_[]).map(historyEntry);
    },
  };
}

/** data.list: one page through PostgREST, and its total when asked (exact, or estimated above max-rows). */
async function listRows(
  ctx: SupabaseContext,
  entity: string,
  query: ListQuery = {},
  options: ReadOptions = {},
): Promise<ListResult> {
  const { client } = ctx;
  options.signal?.throwIfAborted();
  const model = modelOf(ctx.models, entity);
  const p = listParams(model, query);
  if (p.empty) return { rows: [], total: p.count ? 0 : null };
  let q = client.from(model.readTable).select('*', p.count ? { count: p.count } : {});
  for (const f of p.filters) q = q.filter(f.column, f.op, f.value);
  // The screen's rule: a computed field of the table (a function taking its row), filtered on.
  if (query.screen !== undefined)
    q = q.filter(screenFilterFunction(ctx.model, entity, query.screen), 'is', 'true');
  if (p.or) q = q.or(p.or);
  for (const o of p.order) q = q.order(o.column, { ascending: o.ascending });
  q = q.range(p.offset, p.offset + p.limit - 1);
  // The request itself is cancelled (fetch's signal), not only its answer ignored.
  if (options.signal) q = q.abortSignal(options.signal);
  const result = await q;
  // An abort is the caller's, not an error of the backend's: no catalogue code for it.
  options.signal?.throwIfAborted();
  if (result.error?.code === 'PGRST103') {
    // A page past the end: PostgREST answers 416 and says how many rows there are.
    const total = totalFromRangeError(result.error.details);
    if (total !== undefined) return { rows: [], total: p.count ? total : null };
  }
  const { data, count } = await run(ctx, Promise.resolve(result));
  const rows = ((data ?? []) as Record_[]).map((r) => toRow(model, r));
  const total = p.count ? (count ?? rows.length) : null;
  // PostgREST estimates only above its max-rows (1,000 on Supabase unless configured).
  if (p.count === 'estimated' && total !== null && total > POSTGREST_MAX_ROWS)
    return { rows, total, estimated: true };
  return { rows, total };
}

/**
 * What a write selects back: the row, or its id where some column is read-restricted (not granted
 * to clients, not even in RETURNING); the row is then read through the masking view.
 */
function written(model: EntityModel): string {
  return model.masked ? 'id' : '*';
}

function historyEntry(r: Record_): HistoryEntry {
  return {
    id: String(r.id),
    rowId: String(r.row_id),
    kind: (r.kind as HistoryEntry['kind'] | undefined) ?? 'transition',
    transition: String(r.transition),
    fromState: String(r.from_state),
    toState: String(r.to_state),
    actor: r.actor == null ? '' : String(r.actor),
    at: String(isoTimestamp(r.at)),
    input: typeof r.input === 'object' && r.input !== null ? (r.input as Record_) : {},
    // A history table of a migration before old values were kept has no such column.
    previous: typeof r.previous === 'object' && r.previous !== null ? (r.previous as Record_) : {},
  };
}
