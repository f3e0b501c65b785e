import type { Filter, ListQuery, ListResult } from '../backend/types.ts';
import type { AppModel } from '../model/appModel.ts';
import { type HopBound, hopConjunct, hopConjuncts } from '../model/hopConjunct.ts';
import type { Expr } from '../rules/ast.ts';
import { parsedRule } from './ruleChecker.ts';
import type { RuleUser } from './ruleVerdict.ts';
import { whereFilters } from './whereFilters.ts';

/**
 * For each role held through a relationship, the ids of the scope rows the signed-in person holds
 * it on (`orgMember` → the organisations of their memberships). A role missing from the map is
 * not known (too many rows to read, or not read yet): nothing is implied from it.
 */
export type RelationScopes = ReadonlyMap<string, readonly string[]>;

/** At most this many scope rows are read per source; a person holding more gets no implied filter. */
export const SCOPE_ROWS_MAX = 1000;

/**
 * The field of an `entity` row that names the role's scope row: `id` on the scope entity itself,
 * else its one reference to the scope entity (undefined when there is none, or several).
 *
 * @example
 * relationVia(resolve(tasks), 'orgMember', 'task') // 'organisation'
 */
export function relationVia(model: AppModel, role: string, entity: string): string | undefined {
  const through = model.roles.get(role)?.through;
  if (!through) return undefined;
  if (entity === through.scope) return 'id';
  const refs = (model.tables.get(entity)?.columns ?? []).filter(
    (c) => c.origin === 'declared' && c.references === through.scope,
  );
  return refs.length === 1 ? refs[0]?.field : undefined;
}

const needsCache = new WeakMap<AppModel, Map<string, boolean>>();

/** Whether a read rule of `entity` names a role held through a relationship (`me is orgMember`). */
export function readsThroughRelation(model: AppModel, entity: string): boolean {
  let byEntity = needsCache.get(model);
  if (!byEntity) {
    byEntity = new Map();
    needsCache.set(model, byEntity);
  }
  const known = byEntity.get(entity);
  if (known !== undefined) return known;
  const relational = new Set([...model.roles].filter(([, r]) => r.through).map(([name]) => name));
  const answer = model.policies.some((p) => {
    if (p.entity !== entity || p.action !== 'read' || typeof p.when !== 'string') return false;
    const expr = parsedRule(p.when);
    return expr !== null && namesRole(expr, relational);
  });
  byEntity.set(entity, answer);
  return answer;
}

function namesRole(expr: Expr, roles: ReadonlySet<string>): boolean {
  switch (expr.kind) {
    case 'role':
      return roles.has(expr.role);
    case 'binary':
      return namesRole(expr.left, roles) || namesRole(expr.right, roles);
    case 'not':
      return namesRole(expr.operand, roles);
    default:
      return false;
  }
}

type ListPort = (entity: string, query: ListQuery) => Promise<ListResult>;

/**
 * Reads the scope rows the person holds each relationship role on, through `list` (as the person:
 * row-level security answers exactly the rows a policy's own `exists` over them sees). One read per
 * source: the membership entity's rows naming the person, or the scope entity's rows whose person
 * field names them.
 */
export async function loadRelationScopes(
  model: AppModel,
  userId: string,
  list: ListPort,
): Promise<RelationScopes> {
  const reads = new Map<string, Promise<ListResult>>();
  const read = (entity: string, field: string): Promise<ListResult> => {
    const key = `${entity}\u0000${field}`;
    let r = reads.get(key);
    if (!r) {
      r = list(entity, {
        filters: [{ field, op: 'eq', value: userId }],
        limit: SCOPE_ROWS_MAX,
        count: 'none',
      });
      reads.set(key, r);
    }
    return r;
  };
  const out = new Map<string, readonly string[]>();
  await Promise.all(
    [...model.roles].map(async ([name, role]) => {
      const t = role.through;
      if (!t) return;
      const { rows } = t.kind === 'field' ? await read(t.scope, t.field) : await read(t.entity, t.user);
      if (rows.length >= SCOPE_ROWS_MAX) return;
      const held =
        t.kind === 'field'
          ? rows.map((r) => r.id)
          : rows
              .filter((r) => !t.role || !t.values || t.values.includes(String(r[t.role])))
              .map((r) => r[t.scopeField]);
      out.set(name, [...new Set(held.filter((v) => v !== null && v !== undefined).map(String))].sort());
    }),
  );
  return out;
}

/** The entities whose rows decide who holds a relationship role (memberships, `project.lead`'s project). */
export function relationScopeSources(model: AppModel): ReadonlySet<string> {
  const out = new Set<string>();
  for (const role of model.roles.values())
    if (role.through) out.add(role.through.kind === 'field' ? role.through.scope : role.through.entity);
  return out;
}

/** The entities screens' hop filters read (`hopFilters`): a change there outdates those filters. */
export function hopSources(model: AppModel): ReadonlySet<string> {
  return new Set([...model.screens.keys()].flatMap((s) => hopBounds(model, s).map((b) => b.via)));
}

/**
 * The conjuncts `ref.field = me` of a screen's rule (`submitter.manager = me`): the list may send
 * `ref in (rows of via whose field is me)`, which an index on `ref` serves, where the rule's own
 * function (which the planner cannot look into) would otherwise run on every row.
 */
export function hopBounds(model: AppModel, screen: string | undefined): HopBound[] {
  const typed = screen === undefined ? undefined : model.screens.get(screen)?.whereRule?.typed;
  return typed ? hopConjuncts(typed) : [];
}

/**
 * A list query with its screen's hop filters (`hopFilters`). The screen's rule function is left
 * out when all it adds is in them: every conjunct the backend cannot take as a plain filter is a
 * hop, and each hop's filter was sent (the function reads the same rows of `via` as the person).
 * The function ran on every row the filters let through: 0.13 ms a row under row-level security.
 */
export function withHops(
  model: AppModel,
  query: ListQuery | undefined,
  hops: readonly Filter[],
  user: RuleUser | null,
): ListQuery | undefined {
  if (!query || hops.length === 0) return query;
  const withFilters = { ...query, filters: [...hops, ...(query.filters ?? [])] };
  const screen = query.screen === undefined ? undefined : model.screens.get(query.screen)?.spec;
  if (!screen?.entity || hops.length < hopBounds(model, query.screen).length) return withFilters;
  const { residual } = whereFilters(model, screen.entity, screen.where, user);
  if (!residual.every((t) => hopConjunct(t) !== undefined)) return withFilters;
  const { screen: _, ...rest } = withFilters;
  return rest;
}

/**
 * The filters `hopBounds` allow, read through `list` as the person (the screen's function runs as
 * them too, so it sees the same rows of `via`); none for a bound with SCOPE_ROWS_MAX rows or more.
 */
export async function hopFilters(
  bounds: readonly HopBound[],
  userId: string,
  list: ListPort,
): Promise<Filter[]> {
  const out: Filter[] = [];
  for (const b of bounds) {
    const { rows } = await list(b.via, {
      filters: [{ field: b.field, op: 'eq', value: userId }],
      limit: SCOPE_ROWS_MAX,
      count: 'none',
    });
    if (rows.length < SCOPE_ROWS_MAX)
      out.push({ field: b.ref, op: 'in', value: rows.map((r) => r.id).sort() });
  }
  return out;
}
