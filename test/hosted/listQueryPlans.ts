import { entityInfo } from '../../src/backend/embedded/entityInfo.ts';
import {
  boundedCountQuery,
  listQuery,
  SEARCH_IDS_MAX,
  type SqlQuery,
  searchIdsQuery,
} from '../../src/backend/embedded/listQuery.ts';
import { toRow } from '../../src/backend/embedded/rows.ts';
import type { ListQuery, ListResult } from '../../src/backend/types.ts';
import type { AppModel } from '../../src/model/appModel.ts';
import { impliedReadFilters } from '../../src/runtime/impliedReadFilters.ts';
import { listScreenQueries } from '../../src/runtime/listScreenQueries.ts';
import { hopBounds, hopFilters, loadRelationScopes, withHops } from '../../src/runtime/relationScopes.ts';
import { whereFilters } from '../../src/runtime/whereFilters.ts';
import type { Queryable, TestDb } from '../../src/sql/testing/testDb.ts';

/** One query a list screen sends, as the SQL the data port runs for it. */
export interface PlannedQuery {
  screen: string;
  role: string;
  /** opened, next page, filter <field>, sorted by <field>, search. */
  variant: string;
  kind: 'page' | 'total';
  userId: string;
  sql: SqlQuery;
}

/** A seeded user per role (the role's demo person). */
export interface PlanUser {
  role: string;
  id: string;
}

/**
 * A value of `field` to filter on: the most common one in the table (the least selective) among
 * those the screen's filter offers (the values its rule allows, ListFilters.tsx).
 */
async function commonValue(
  db: Queryable,
  model: AppModel,
  entity: string,
  field: string,
  where: string | undefined,
): Promise<unknown> {
  const info = entityInfo(model, entity);
  const c = info.byField.get(field);
  if (!c) return undefined;
  const fixed = whereFilters(model, entity, where, null).filters.find(
    (f) => f.field === field && (f.op === 'eq' || f.op === 'in'),
  );
  const allowed = fixed === undefined ? null : [fixed.value].flat().map(String);
  const r = await db.query<{ v: unknown }>(
    `select "${c.column}" as v from ${info.ref} where "${c.column}" is not null
     and ($1::text[] is null or "${c.column}"::text = any($1)) group by 1 order by count(*) desc limit 1`,
    [allowed],
  );
  return r.rows[0]?.v;
}

/**
 * Every list screen × every role that opens it (its `nav`) × opened, next page, each of its filters
 * (the commonest value), sorted by another column, a search for `searchTerm`: the page and its
 * total, as the embedded data port writes them (`listQuery`, the bounded count of
 * `count: 'estimated'`), with the filters row-level security implies for that person (their
 * relationship scopes read as them).
 */
export async function plannedListQueries(
  db: TestDb,
  model: AppModel,
  users: readonly PlanUser[],
  searchTerm: string,
): Promise<PlannedQuery[]> {
  const out: PlannedQuery[] = [];
  for (const [name, screen] of model.screens) {
    const s = screen.spec;
    if (s.kind !== 'list' || !s.entity || /:/.test(s.route)) continue;
    const entity = s.entity;
    const variants: [string, string][] = [
      ['opened', ''],
      ['next page', 'page=2'],
    ];
    for (const f of s.filters ?? []) {
      const v = await commonValue(db, model, entity, f, s.where);
      if (v !== undefined) variants.push([`filter ${f}`, `f.${f}=${encodeURIComponent(String(v))}`]);
    }
    const defaultField = s.sort?.replace(/^-/, '');
    const other = (s.columns ?? []).find(
      (c) => c !== defaultField && entityInfo(model, entity).byField.has(c),
    );
    if (other) variants.push([`sorted by ${other}`, `sort=${other}`]);
    if (entityInfo(model, entity).searchable.length > 0) variants.push(['search', `q=${searchTerm}`]);
    for (const role of s.nav ?? []) {
      const user = users.find((u) => u.role === role);
      if (!user) continue;
      const session = { id: user.id, roles: [role] };
      const scopes = await loadRelationScopes(model, user.id, listAs(db, model, user.id));
      const hops = await hopFilters(hopBounds(model, name), user.id, listAs(db, model, user.id));
      for (const [variant, params] of variants) {
        const { page, total } = listScreenQueries(model, name, entity, new URLSearchParams(params), session);
        // As the app's `fetchList` sends it (hooks.ts).
        const implied = (q: ListQuery): ListQuery =>
          withHops(
            model,
            { ...q, filters: [...impliedReadFilters(model, entity, session, scopes), ...(q.filters ?? [])] },
            q.screen !== undefined ? hops : [],
            session,
          ) ?? q;
        const info = entityInfo(model, entity);
        const base = { screen: name, role, variant, userId: user.id };
        const ids = await searchIds(db, model, entity, user.id, page.search);
        out.push({ ...base, kind: 'page', sql: listQuery(info, ids(implied(page))) });
        if (variant !== 'next page' && variant !== `sorted by ${other}`)
          out.push({ ...base, kind: 'total', sql: boundedCountQuery(info, ids(implied(total))) });
      }
    }
  }
  return out;
}

/**
 * As the embedded data port answers a search: the ids the entity's search function finds (through
 * the trigram indexes) replace the `ilike`, when there are at most SEARCH_IDS_MAX of them.
 */
async function searchIds(
  db: TestDb,
  model: AppModel,
  entity: string,
  userId: string,
  search: string | undefined,
): Promise<(q: ListQuery) => ListQuery> {
  if (!search) return (q) => q;
  const sql = searchIdsQuery(entityInfo(model, entity), search);
  const found = await db.asUser(
    userId,
    async (tx) => (await tx.query<{ id: string }>(sql.text, sql.params)).rows,
  );
  if (found.length > SEARCH_IDS_MAX) return (q) => q;
  return ({ search: _, ...q }) => ({
    ...q,
    filters: [...(q.filters ?? []), { field: 'id', op: 'in', value: found.map((r) => String(r.id)) }],
  });
}

/** A list port reading as the person, with the embedded data port's SQL (as the app's scopes are read). */
function listAs(db: TestDb, model: AppModel, userId: string) {
  return (entity: string, q: ListQuery): Promise<ListResult> => {
    const info = entityInfo(model, entity);
    const sql = listQuery(info, q);
    return db.asUser(userId, async (tx) => ({
      rows: (await tx.query<Record<string, unknown>>(sql.text, sql.params)).rows.map((r) => toRow(info, r)),
      total: null,
    }));
  };
}

/** What a plan read and threw away: the worst node's rows removed, and sequential scans' rows read. */
export interface PlanCost {
  removed: number;
  seqScanned: number;
  executionMs: number;
  /** The plan was compiled with JIT (its cost passed `jit_above_cost`). */
  jit: boolean;
}

/** Walks an `EXPLAIN (ANALYZE, FORMAT JSON)` answer. */
export function planCost(explained: unknown): PlanCost {
  const doc = (typeof explained === 'string' ? JSON.parse(explained) : explained) as {
    Plan: PlanNode;
    'Execution Time': number;
    JIT?: unknown;
  }[];
  const top = doc[0];
  const cost: PlanCost = {
    removed: 0,
    seqScanned: 0,
    executionMs: top?.['Execution Time'] ?? 0,
    jit: top?.JIT !== undefined,
  };
  const visit = (n: PlanNode): void => {
    const loops = n['Actual Loops'] ?? 1;
    const removed =
      ((n['Rows Removed by Filter'] ?? 0) +
        (n['Rows Removed by Index Recheck'] ?? 0) +
        (n['Rows Removed by Join Filter'] ?? 0)) *
      loops;
    cost.removed = Math.max(cost.removed, removed);
    if (n['Node Type'] === 'Seq Scan')
      cost.seqScanned = Math.max(cost.seqScanned, (n['Actual Rows'] ?? 0) * loops + removed);
    for (const p of n.Plans ?? []) visit(p);
  };
  if (top) visit(top.Plan);
  return cost;
}

interface PlanNode {
  'Node Type': string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  'Rows Removed by Join Filter'?: number;
  Plans?: PlanNode[];
}

/**
 * Runs the query under `EXPLAIN (ANALYZE, FORMAT JSON)` as its user (row-level security, the role's
 * settings as PostgREST applies them) or as the owner.
 */
export async function explainAnalyze(
  db: TestDb,
  q: PlannedQuery,
  asOwner = false,
  /** Run first in the same transaction (`set local …`): a test's planner setting. */
  before?: string,
): Promise<PlanCost> {
  const run = async (tx: Queryable) => {
    if (before) await tx.query(before);
    // As PostgREST runs a request: with the settings of the role it runs it as (`alter role … set`).
    if (!asOwner)
      await tx.query(
        `select set_config(split_part(s, '=', 1), substr(s, strpos(s, '=') + 1), true)
         from pg_catalog.pg_roles, unnest(rolconfig) s where rolname = current_user`,
      );
    const r = await tx.query<Record<string, unknown>>(
      `explain (analyze, buffers, format json) ${q.sql.text}`,
      q.sql.params,
    );
    return planCost(Object.values(r.rows[0] ?? {})[0]);
  };
  return asOwner ? db.asOwner(run) : db.asUser(q.userId, run);
}

/**
 * Copies rows of `entity` until it holds `target`, as the owner with triggers off (no history row,
 * no advisory lock per row): searched and unique text gets the copy's number, timestamps go back a
 * second a copy (dates a day), and 99 in 100 copies' references named in `spread` point at one of its rows (other
 * people, other organisations: so "my rows" stay a few). Returns the new rows' ids.
 */
export async function bulkRows(
  db: TestDb,
  model: AppModel,
  entity: string,
  target: number,
  spread: ReadonlyMap<string, readonly string[]>,
): Promise<string[]> {
  const info = entityInfo(model, entity);
  const have = Number(
    (await db.query<{ n: number }>(`select count(*)::int as n from ${info.ref}`)).rows[0]?.n,
  );
  if (have === 0 || have >= target) return [];
  const copies = Math.ceil((target - have) / have);
  const cols = info.columns.filter((c) => c.column !== 'id');
  const expr = (c: (typeof cols)[number]): string => {
    const col = `s."${c.column}"`;
    const pool = c.references !== undefined && !c.computed ? spread.get(c.references) : undefined;
    // Every copy its own time and day: a sort key shared by thousands of rows is no real table.
    if (c.timestamp) return `${col} - g * interval '1 second'`;
    if (c.sqlType === 'date') return `${col} - (g % 3650)`;
    if (pool?.length)
      return `case when g % 100 = 0 or ${col} is null then ${col} else (array[${pool.map((o) => `'${o}'::uuid`).join(',')}])[1 + (g % ${pool.length})] end`;
    if ((c.searchable || c.unique) && c.sqlType === 'text')
      return `case when ${col} is null then null else ${col} || ' copy' || g end`;
    return col;
  };
  const r = await db.asOwner(async (tx) => {
    await tx.query('set local session_replication_role = replica');
    return tx.query<{ id: string }>(`with s as (select * from ${info.ref})
insert into ${info.ref} (${cols.map((c) => `"${c.column}"`).join(', ')})
select ${cols.map(expr).join(', ')} from s, generate_series(1, ${copies}) g
limit ${target - have}
returning id`);
  });
  return r.rows.map((x) => String(x.id));
}
