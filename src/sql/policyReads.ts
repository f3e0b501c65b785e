import type { AppModel } from '../model/appModel.ts';
import type { Typed } from '../rules/ast.ts';
import { typedChildren } from '../rules/typedChildren.ts';
import { refTarget } from './compileRuleSql.ts';
import { typedOf } from './typedRule.ts';

/**
 * What a read policy reads of other tables, worked out once per specification:
 * - `unseen`: entities no role may read. Their tables have no SELECT grant, so a policy that
 *   counted one would fail with "permission denied"; a policy sees such a table as empty, as RLS
 *   with no read policy would (count 0, sum 0, a hop to null).
 * - `cycleOf(entity)`: the entities whose read policies read, directly or through others, back into
 *   `entity`'s read policy (its strongly connected component in the "read rule reads" graph, the
 *   entity itself included). Postgres refuses such policies at query time ("infinite recursion
 *   detected in policy"), so those reads go through security-definer helpers that see every row.
 */
export interface PolicyReads {
  unseen: ReadonlySet<string>;
  cycleOf(entity: string): ReadonlySet<string>;
  /**
   * The entities whose reading, inside a policy of `entity` for another action (create, update,
   * delete), would re-enter `entity`'s policies: `entity` itself and every entity whose read
   * policies read, directly or through others, into `entity`. Postgres refuses a policy on a table
   * whose subquery reads that table under RLS, whatever the command; these reads go through
   * security-invoker helpers (a query of their own, under the caller's RLS, so they see exactly the
   * rows the caller may read, as the browser does).
   */
  readersOf(entity: string): ReadonlySet<string>;
}

const cache = new WeakMap<AppModel, PolicyReads>();

/** Entities a typed rule reads beyond its own row: counted/summed tables, hop targets, the profile for `me.field`. */
export function entitiesRead(model: AppModel, t: Typed, out: Set<string> = new Set()): Set<string> {
  if (t.kind === 'count' || t.kind === 'sum') out.add(t.entity);
  if (t.kind === 'field' && t.path.length === 2) out.add(t.via ?? refTarget(model, t.entity, t.path[0]));
  if (t.kind === 'me' && t.field !== undefined) {
    const p = t.profile ?? model.profile;
    if (p) out.add(p);
  }
  for (const c of typedChildren(t)) entitiesRead(model, c, out);
  return out;
}

export function policyReads(model: AppModel): PolicyReads {
  const hit = cache.get(model);
  if (hit) return hit;
  const entities = [...model.tables.keys()];
  const readable = new Set<string>();
  const edges = new Map<string, Set<string>>(entities.map((e) => [e, new Set<string>()]));
  for (const p of model.policies) {
    if (p.action !== 'read') continue;
    readable.add(p.entity);
    if (!p.rule) continue;
    for (const e of entitiesRead(model, typedOf(p.rule))) edges.get(p.entity)?.add(e);
  }
  const unseen = new Set(entities.filter((e) => !readable.has(e)));
  // Reachability is enough at this size (a handful of entities): B is in A's cycle when each reaches the other.
  const reach = new Map<string, Set<string>>();
  for (const start of entities) {
    const seen = new Set<string>();
    const todo = [...(edges.get(start) ?? [])];
    while (todo.length > 0) {
      const e = todo.pop() as string;
      if (seen.has(e) || unseen.has(e)) continue;
      seen.add(e);
      todo.push(...(edges.get(e) ?? []));
    }
    reach.set(start, seen);
  }
  const cycles = new Map<string, ReadonlySet<string>>();
  for (const a of entities)
    cycles.set(
      a,
      new Set([a, ...entities.filter((b) => b !== a && reach.get(a)?.has(b) && reach.get(b)?.has(a))]),
    );
  const readers = new Map<string, ReadonlySet<string>>();
  for (const a of entities)
    readers.set(a, new Set([a, ...entities.filter((b) => b !== a && reach.get(b)?.has(a))]));
  const out: PolicyReads = {
    unseen,
    cycleOf: (e) => cycles.get(e) ?? new Set([e]),
    readersOf: (e) => readers.get(e) ?? new Set([e]),
  };
  cache.set(model, out);
  return out;
}
