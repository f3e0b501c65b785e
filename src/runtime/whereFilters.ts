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
    else out.residual.push(node);
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
