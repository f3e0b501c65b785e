import type { Typed } from '../rules/ast.ts';
import { typedChildren } from '../rules/typedChildren.ts';
import type { AppModel } from './appModel.ts';
import type { TableNode } from './table.ts';

/**
 * Computed fields reading a referenced row through one reference field of their row
 * (`currency: { computed: 'organisation.currency' }` reads `organisation`): when a field they read
 * changes on that row, the rows referencing it are written again so their computed values follow
 * (src/sql/emitRecompute.ts, and the browser's query invalidation).
 */
export interface ComputedHop {
  /** The entity holding the computed fields (`timeEntry`). */
  entity: string;
  /** Its reference field the rules read through (`task`). */
  reference: string;
  /** The referenced entity (`task`). */
  target: string;
  /** Fields of the target the rules read through it (`rate`), sorted. */
  fields: string[];
  /** The computed fields reading through it, in field order. */
  computed: string[];
  /**
   * What a change through this hop recomputes, in field order: `computed`, and the computed
   * fields of the same row that read them and nothing beyond their row (`billableAmount = hours *
   * rate`).
   */
  rewritten: string[];
  /**
   * Money fields whose currency field is rewritten but whose rule reads other rows, `me` or the
   * clock: their stored amount is rounded again in the new currency, not worked out again. A time
   * entry's `rate` (`sum(rate.hourlyRate …)`, what the entry was written with) does not become
   * today's rate because its organisation's currency changed.
   */
  rerounded: string[];
}

/** `[hop, field]` of every read through a reference (`task.rate`); counts and sums read their own rows. */
function hopReads(t: Typed, out: [string, string][] = []): [string, string][] {
  if (t.kind === 'count' || t.kind === 'sum') return out;
  if (t.kind === 'field' && t.scope === 'row' && t.path.length === 2) out.push([t.path[0], t.path[1]]);
  for (const c of typedChildren(t)) hopReads(c, out);
  return out;
}

/** Fields of its own row a rule reads (`hours` in `hours * task.rate`). */
function ownReads(t: Typed, out: Set<string> = new Set()): Set<string> {
  if (t.kind === 'count' || t.kind === 'sum') return out;
  if (t.kind === 'field' && t.scope === 'row' && t.path.length === 1) out.add(t.path[0]);
  for (const c of typedChildren(t)) ownReads(c, out);
  return out;
}

/** Whether a rule reads only its own row's fields and constants (its value follows from the row). */
function rowOnly(t: Typed): boolean {
  if (['count', 'sum', 'me', 'now', 'today', 'role'].includes(t.kind)) return false;
  if (t.kind === 'field' && t.scope === 'row' && t.path.length > 1) return false;
  return typedChildren(t).every(rowOnly);
}

/**
 * `computed` with the computed fields of the row that follow them (transitively, in field order):
 * recomputed when they read a rewritten field and only their row, else rounded again when their
 * currency field is rewritten.
 */
function followers(t: TableNode, computed: readonly string[]): Pick<ComputedHop, 'rewritten' | 'rerounded'> {
  const rewritten = new Set(computed);
  const rerounded = new Set<string>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const c of t.columns) {
      const typed = c.computed?.typed;
      if (typed === undefined || rewritten.has(c.field) || rerounded.has(c.field)) continue;
      const changes = (f: string) => rewritten.has(f) || rerounded.has(f);
      const currency = t.spec.fields[c.field]?.currencyField;
      if (rowOnly(typed) && ([...ownReads(typed)].some(changes) || (currency && changes(currency))))
        rewritten.add(c.field);
      else if (currency && rewritten.has(currency)) rerounded.add(c.field);
      else continue;
      grew = true;
    }
  }
  const inOrder = (set: Set<string>) => t.columns.filter((c) => set.has(c.field)).map((c) => c.field);
  return { rewritten: inOrder(rewritten), rerounded: inOrder(rerounded) };
}

/** Every reference some computed field reads through, by entity then reference field. */
export function computedHops(model: AppModel): ComputedHop[] {
  const out: ComputedHop[] = [];
  for (const t of model.tables.values()) {
    const byHop = new Map<string, ComputedHop>();
    for (const c of t.columns) {
      if (c.computed?.typed === undefined) continue;
      for (const [hop, field] of hopReads(c.computed.typed)) {
        const target = t.byField.get(hop)?.references;
        if (target === undefined) continue;
        const h = byHop.get(hop) ?? {
          entity: t.entity,
          reference: hop,
          target,
          fields: [],
          computed: [],
          rewritten: [],
          rerounded: [],
        };
        if (!h.fields.includes(field)) h.fields.push(field);
        if (!h.computed.includes(c.field)) h.computed.push(c.field);
        byHop.set(hop, h);
      }
    }
    for (const h of [...byHop.values()].sort((a, b) => a.reference.localeCompare(b.reference)))
      out.push({ ...h, fields: h.fields.sort(), ...followers(t, h.computed) });
  }
  return out;
}

/**
 * Entities whose computed values may change when a row of `entity` is updated: those reading it
 * through a reference, and, for chains, those reading them (transitively). Sorted.
 */
export function recomputedEntities(model: AppModel, entity: string): string[] {
  const hops = computedHops(model);
  const seen = new Set<string>();
  const todo = [entity];
  while (todo.length > 0) {
    const e = todo.pop() as string;
    for (const h of hops)
      if (h.target === e && !seen.has(h.entity)) {
        seen.add(h.entity);
        todo.push(h.entity);
      }
  }
  return [...seen].sort();
}

/**
 * A cycle of computed fields (`entity.field`, the first repeated last), if the fields read each
 * other round: `task.total` from `project.total` from `task.total`, or a tree's
 * `depth = parent.depth + 1`. A change would rewrite rows for ever (or until the data ends a
 * loop of references), so `check` refuses it. Reads in one row count too: a field read through a
 * reference may be computed from one that reads back.
 */
export function computedCycle(model: AppModel): string[] | undefined {
  const edges = new Map<string, string[]>();
  const isComputed = (entity: string, field: string) =>
    model.tables.get(entity)?.byField.get(field)?.computed !== undefined;
  for (const t of model.tables.values())
    for (const c of t.columns) {
      if (c.computed?.typed === undefined) continue;
      const to: string[] = [];
      for (const f of ownReads(c.computed.typed))
        if (f !== c.field && isComputed(t.entity, f)) to.push(`${t.entity}.${f}`);
      for (const [hop, f] of hopReads(c.computed.typed)) {
        const target = t.byField.get(hop)?.references;
        if (target !== undefined && isComputed(target, f)) to.push(`${target}.${f}`);
      }
      edges.set(`${t.entity}.${c.field}`, to);
    }
  const state = new Map<string, 'open' | 'done'>();
  const visit = (n: string, path: string[]): string[] | undefined => {
    if (state.get(n) === 'open') return [...path.slice(path.indexOf(n)), n];
    if (state.get(n) === 'done') return undefined;
    state.set(n, 'open');
    for (const m of edges.get(n) ?? []) {
      const found = visit(m, [...path, n]);
      if (found) return found;
    }
    state.set(n, 'done');
    return undefined;
  };
  for (const n of [...edges.keys()].sort()) {
    const found = visit(n, []);
    if (found) return found;
  }
  return undefined;
}
