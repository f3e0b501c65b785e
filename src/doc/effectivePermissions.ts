import type { AppModel } from '../model/appModel.ts';
import { type Expr, parseRule, printRule } from '../rules/index.ts';
import { ancestors } from './roleGraph.ts';

export type Action = 'read' | 'create' | 'update' | 'delete';
export const ACTIONS: readonly Action[] = ['read', 'create', 'update', 'delete'];

/** One way a role may do an action: always, or when a row rule holds; `from` names the role it comes from. */
export interface Grant {
  when: true | string;
  /** For update: the fields that may change. */
  fields?: readonly string[];
  /** For update and create: the rule over the row as it will be, and the error it declares. */
  becomes?: string;
  error?: string;
  /** The role whose permission this is (the role itself, or one it inherits from). */
  from: string;
}

/**
 * What a role may do with an entity, inheritance resolved: its own grants first, then those of
 * the roles it inherits from, nearest first. Grants are alternatives (any one suffices), so
 * grants another one already covers are dropped. An empty list means never.
 *
 * @example
 * effectiveGrants(model, 'admin', 'loan', 'read'); // [{ when: true, from: 'manager' }]
 */
export function effectiveGrants(model: AppModel, role: string, entity: string, action: Action): Grant[] {
  const grants: Grant[] = [];
  for (const r of [role, ...ancestors(model, role)]) {
    const g = grantOf(model, r, entity, action);
    if (g) grants.push(g);
  }
  // A role's own grant always stays (the document must say what the role itself declares, so
  // `ninefold import` can read it back); inherited grants another one covers are dropped.
  return grants.filter(
    (g, i) => g.from === role || !grants.some((h, j) => j !== i && covers(h, g) && (!covers(g, h) || j < i)),
  );
}

/** The role's own policy for the action (an update that may change no field grants nothing). */
function grantOf(model: AppModel, role: string, entity: string, action: Action): Grant | undefined {
  const p = model.policies.find(
    (q) => !q.implicit && q.role === role && q.entity === entity && q.action === action,
  );
  if (!p) return undefined;
  // A relationship role's permission as declared: the document says where the role holds apart.
  const when = p.declared ?? p.when;
  const becomes = p.becomes
    ? { becomes: p.becomes.text, ...(p.declaredError ? { error: p.declaredError } : {}) }
    : {};
  if (action !== 'update') return { when, ...becomes, from: role };
  if (!p.fields || p.fields.length === 0) return undefined;
  return { when, fields: p.fields, ...becomes, from: role };
}

function covers(h: Grant, g: Grant): boolean {
  const when = h.when === true || (g.when !== true && impliedBy(g.when, h.when));
  const fields = !g.fields || g.fields.every((f) => h.fields?.includes(f) ?? false);
  // A grant that also asks what the row becomes lets through less than one that does not.
  const becomes = h.becomes === undefined || (h.becomes === g.becomes && h.error === g.error);
  return when && fields && becomes;
}

/**
 * `g` holds whenever `h` does not need to be asked: `g` is `h` itself or one of `h`'s
 * top-level `or` alternatives (compared as printed ASTs, so spacing does not matter).
 * A cheap, sound check; it does not try to prove implications in general.
 */
function impliedBy(g: string, h: string): boolean {
  if (g.trim() === h.trim()) return true;
  const pg = parseRule(g);
  const ph = parseRule(h);
  if (!pg.ok || !ph.ok) return false;
  const target = printRule(pg.expr);
  return disjuncts(ph.expr).some((d) => printRule(d) === target);
}

function disjuncts(e: Expr): Expr[] {
  return e.kind === 'binary' && e.op === 'or' ? [...disjuncts(e.left), ...disjuncts(e.right)] : [e];
}
