import type { Filter } from '../backend/types.ts';
import type { AppModel } from '../model/appModel.ts';
import type { Expr } from '../rules/ast.ts';
import type { RelationScopes } from './relationScopes.ts';
import { relationVia } from './relationScopes.ts';
import { rolePolicy } from './rolePolicy.ts';
import { rolesOnRows } from './roles.ts';
import { parsedRule } from './ruleChecker.ts';

/**
 * What a read rule says about a row that passes it: for some fields, the only values they can
 * hold (`requester = me` → requester ∈ {me}; `me is orgMember` → organisation ∈ the person's
 * organisations). A field not in the map is unconstrained. `null`: the rule reads no row.
 */
type Allowed = Map<string, ReadonlySet<string>>;

/**
 * Filters that row-level security implies for this user's reads of `entity`, to send with every
 * list query. They change no result (RLS would drop the same rows) but let Postgres use an index:
 * a policy OR-ed with role checks cannot, so a customer's ticket list scanned every ticket
 * (6 s at 1,000,000 rows; 6 ms with `requester = me` sent — see docs/performance.md). This is
 * Supabase's own advice: "add filters to every query" even when RLS already applies them.
 *
 * A field is implied when every read rule that applies to the user (through any role held,
 * directly or by inheritance, or held through a relationship) bounds it: a conjunct `field = me`,
 * or `me is <role held through a relationship>` (the row's reference to the role's scope must be
 * one of the scope rows the person holds the role on: `scopes`, read by `loadRelationScopes`).
 * Nothing is implied when a role read always, or a rule bounds no field every other rule bounds.
 *
 * @example
 * impliedReadFilters(resolve(helpdesk), 'ticket', { id: 'u1', roles: ['customer'] })
 * // [{ field: 'requester', op: 'eq', value: 'u1' }]
 * impliedReadFilters(resolve(tasks), 'task', { id: 'u1', roles: ['member'] }, scopes)
 * // [{ field: 'organisation', op: 'in', value: ['o1', 'o2'] }]
 */
export function impliedReadFilters(
  model: AppModel,
  entity: string,
  user: { id: string; roles: readonly string[] } | null,
  scopes?: RelationScopes,
): Filter[] {
  if (!user) return [];
  let common: Allowed | null = null;
  for (const role of rolesOnRows(model, user.roles)) {
    const read = rolePolicy(model, role, entity, 'read')?.when;
    if (read === true) return [];
    if (typeof read !== 'string') continue;
    const parsed = parsedRule(read);
    const allowed = parsed ? bounds(parsed, { model, entity, user, scopes }) : new Map();
    common = common === null ? allowed : either(common, allowed);
  }
  return [...(common ?? new Map<string, ReadonlySet<string>>())]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([field, values]): Filter => {
      const list = [...values].sort();
      return list.length === 1 ? { field, op: 'eq', value: list[0] } : { field, op: 'in', value: list };
    });
}

interface BoundsContext {
  model: AppModel;
  entity: string;
  user: { id: string };
  scopes: RelationScopes | undefined;
}

/** The fields `expr` bounds, with the values they may hold when it is true. */
function bounds(expr: Expr, ctx: BoundsContext): Allowed {
  if (expr.kind === 'binary' && expr.op === 'and')
    return both(bounds(expr.left, ctx), bounds(expr.right, ctx));
  if (expr.kind === 'binary' && expr.op === 'or')
    return either(bounds(expr.left, ctx), bounds(expr.right, ctx));
  if (expr.kind === 'binary' && expr.op === '=') {
    const field = meEquality(expr.left, expr.right) ?? meEquality(expr.right, expr.left);
    return field ? new Map([[field, new Set([ctx.user.id])]]) : new Map();
  }
  if (expr.kind === 'role' && !expr.negated && expr.subject.kind === 'me' && !expr.subject.field) {
    const via = relationVia(ctx.model, expr.role, ctx.entity);
    const held = ctx.scopes?.get(expr.role);
    return via !== undefined && held ? new Map([[via, new Set(held)]]) : new Map();
  }
  return new Map();
}

/** `name` when the pair is `name = me` with a one-part name. */
function meEquality(a: Expr, b: Expr): string | undefined {
  return a.kind === 'name' && a.path.length === 1 && b.kind === 'me' && !b.field ? a.path[0] : undefined;
}

/** Both hold: every bound of either, the values of a field bounded twice those in both. */
function both(a: Allowed, b: Allowed): Allowed {
  const out = new Map(a);
  for (const [field, values] of b) {
    const prior = out.get(field);
    out.set(field, prior ? new Set([...prior].filter((v) => values.has(v))) : values);
  }
  return out;
}

/** One of them holds: only the fields both bound, with the values of either. */
function either(a: Allowed, b: Allowed): Allowed {
  const out: Allowed = new Map();
  for (const [field, values] of a) {
    const other = b.get(field);
    if (other) out.set(field, new Set([...values, ...other]));
  }
  return out;
}
