import type { Filter } from '../backend/types.ts';
import type { AppModel } from '../model/appModel.ts';
import type { Typed } from '../rules/ast.ts';
import { evaluateRule } from '../rules/evaluate.ts';
import { typedRule } from './ruleChecker.ts';
import type { RuleUser } from './ruleVerdict.ts';

export interface WhereFilters {
  /** Conjuncts the backend can apply as list filters (server-side, counted). */
  filters: Filter[];
  /** Conjuncts it cannot express (e.g. an `or`); the UI applies them to the rows it got. */
  residual: Typed[];
}

const OPS = { '=': 'eq', '!=': 'neq', '<': 'lt', '<=': 'lte', '>': 'gt', '>=': 'gte' } as const;
const FLIP = { '=': '=', '!=': '!=', '<': '>', '<=': '>=', '>': '<', '>=': '<=' } as const;

/**
 * Splits a screen's `where` rule into backend list filters and a residual the browser checks.
 * Each top-level `and` conjunct of the form `field op value`, `field in (...)` or
 * `field is [not] empty` becomes a filter when `value` does not read the row (`me`, `now - hours(x)`,
 * constants and literals are evaluated now).
 *
 * @example
 * whereFilters(resolve(spec), 'ticket', 'assignee = me and status in (new, open)', user)
 * // { filters: [{ field: 'assignee', op: 'eq', value: 'u1' }, { field: 'status', op: 'in', value: ['new', 'open'] }], residual: [] }
 */
export function whereFilters(
  model: AppModel,
  entity: string,
  rule: string | undefined,
  user: RuleUser | null,
  now: Date = new Date(),
): WhereFilters {
  const out: WhereFilters = { filters: [], residual: [] };
  if (!rule) return out;
  const checked = typedRule(model, entity, rule);
  if (!checked) return out;
  const value = (node: Typed): unknown => {
    const v = evaluateRule(node, { roleClosure: model.roleClosure, user, row: null, now });
    const temporal = node.type.kind === 'datetime' || node.type.kind === 'date';
    return temporal && typeof v === 'number' ? new Date(v).toISOString() : v;
  };
  const visit = (node: Typed): void => {
    if (node.kind === 'binary' && node.op === 'and') {
      visit(node.left);
      visit(node.right);
      return;
    }
    const f = toFilter(node, value);
    if (f) out.filters.push(f);
    else {
      out.residual.push(node);
      // What every branch of an `or` requires still bounds the rows (`createdAt < now - hours(1)`
      // when each branch says `createdAt < now - hours(n)`): sent too, so an index skips the
      // rows no branch could hold for before the screen's function looks at them.
      if (node.kind === 'binary' && node.op === 'or') out.filters.push(...impliedByEveryBranch(node, value));
    }
  };
  visit(checked);
  return out;
}

/**
 * The part of a list query that applies the rest of a screen's rule on the server: when some
 * conjunct is not a plain filter (`count(...)`, `a.b`, an `or`), the query names the screen and
 * the backend applies the rule's compiled function (`public.<table>__where_<screen>`), so pages
 * and counts hold exactly the rows the rule holds for.
 *
 * @example
 * serverScreen(whereFilters(resolve(spec), 'poll', 'count(vote where poll = this and member = me) = 0', user), 'awaiting');
 * // { screen: 'awaiting' }
 */
export function serverScreen(where: WhereFilters, screen: string): { screen?: string } {
  return where.residual.length > 0 ? { screen } : {};
}

function plainField(node: Typed): string | undefined {
  return node.kind === 'field' && node.scope === 'row' && node.path.length === 1 ? node.path[0] : undefined;
}

function rowFree(node: Typed): boolean {
  switch (node.kind) {
    case 'literal':
    case 'const':
    case 'now':
    case 'today':
      return true;
    case 'me':
      return node.field === undefined;
    case 'binary':
      return rowFree(node.left) && rowFree(node.right);
    case 'neg':
      return rowFree(node.operand);
    case 'call':
      return node.args.every(rowFree);
    default:
      return false;
  }
}

function toFilter(node: Typed, value: (n: Typed) => unknown): Filter | undefined {
  if (node.kind === 'empty') {
    const field = plainField(node.operand);
    return field ? { field, op: node.negated ? 'notNull' : 'isNull' } : undefined;
  }
  if (node.kind === 'in' && !node.negated) {
    const field = plainField(node.operand);
    if (!field || !node.list.every(rowFree)) return undefined;
    return { field, op: 'in', value: node.list.map(value) };
  }
  if (node.kind === 'binary' && node.op in OPS) {
    const op = node.op as keyof typeof OPS;
    const left = plainField(node.left);
    const right = plainField(node.right);
    if (left && rowFree(node.right)) return filterOf(left, op, value(node.right));
    if (right && rowFree(node.left)) return filterOf(right, FLIP[op], value(node.left));
  }
  return undefined;
}

function filterOf(field: string, op: keyof typeof OPS, v: unknown): Filter | undefined {
  // `x = null` is unknown in SQL (never holds); leave it to the residual rather than guess.
  if (v === null || v === undefined) return undefined;
  return { field, op: OPS[op], value: v };
}

const UPPER = new Set(['lt', 'lte']);
const LOWER = new Set(['gt', 'gte']);

/** The filters of a conjunction's top-level conjuncts that are plain filters. */
function conjunctFilters(node: Typed, value: (n: Typed) => unknown): Filter[] {
  if (node.kind === 'binary' && node.op === 'and')
    return [...conjunctFilters(node.left, value), ...conjunctFilters(node.right, value)];
  const f = toFilter(node, value);
  return f ? [f] : [];
}

function branches(node: Typed): Typed[] {
  return node.kind === 'binary' && node.op === 'or'
    ? [...branches(node.left), ...branches(node.right)]
    : [node];
}

/** The loosest of one side's bounds on a field in one branch, or undefined when it has none. */
function loosest(
  fs: readonly Filter[],
  field: string,
  side: ReadonlySet<string>,
  upper: boolean,
): Filter | undefined {
  let best: Filter | undefined;
  for (const f of fs) {
    if (f.field !== field || !side.has(f.op)) continue;
    const v = f.value as number | string;
    const b = best?.value as number | string | undefined;
    if (best === undefined || typeof v !== typeof b) best = best ?? f;
    else if (upper ? v > (b as typeof v) : v < (b as typeof v)) best = f;
    else if (v === b && (f.op === 'lte' || f.op === 'gte')) best = f;
  }
  return best;
}

/**
 * Bounds (`<`, `<=`, `>`, `>=`) on one field that every branch of an `or` sets: their loosest,
 * a necessary condition of the whole `or`. Only values of one kind (numbers, or ISO text) count.
 */
function impliedByEveryBranch(node: Typed, value: (n: Typed) => unknown): Filter[] {
  const each = branches(node).map((b) => conjunctFilters(b, value));
  const out: Filter[] = [];
  const fields = new Set((each[0] ?? []).map((f) => f.field));
  for (const field of fields)
    for (const [side, upper] of [
      [UPPER, true],
      [LOWER, false],
    ] as const) {
      const bounds = each.map((fs) => loosest(fs, field, side, upper));
      if (bounds.some((b) => b === undefined)) continue;
      const kinds = new Set(bounds.map((b) => typeof b?.value));
      if (kinds.size !== 1 || !(kinds.has('number') || kinds.has('string'))) continue;
      const widest = loosest(bounds as Filter[], field, side, upper);
      if (widest) out.push(widest);
    }
  return out;
}
