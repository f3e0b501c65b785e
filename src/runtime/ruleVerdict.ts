import type { AppModel } from '../model/appModel.ts';
import type { Typed } from '../rules/ast.ts';
import { type DataContext, evaluateRule } from '../rules/evaluate.ts';
import { ruleReferences } from '../rules/references.ts';
import { typedRule } from './ruleChecker.ts';

/** The signed-in user as rules see them: id and directly held roles (inheritance is the rules' job). */
export interface RuleUser {
  id: string;
  roles: readonly string[];
}

export interface VerdictContext {
  user: RuleUser | null;
  row: Readonly<Record<string, unknown>> | null;
  now?: Date;
  /** Other rows, when the caller has them (count/sum, `a.b`, `me.field`). */
  data?: DataContext;
}

/**
 * What a rule says about a row in the browser: `true`, `false`, `null` (unknown, SQL's third
 * value) or `undecidable` when it reads rows the browser was not given (`count(...)`, `a.b`,
 * `me.field`) — the server then decides. A rule that fails to check is undecidable too: the
 * loader reports it, and the UI must not lock people out because of it.
 *
 * @example
 * ruleVerdict(model, 'ticket', 'requester = me', { user, row }) // true
 */
export function ruleVerdict(
  model: AppModel,
  entity: string,
  rule: string | boolean,
  ctx: VerdictContext,
): boolean | null | 'undecidable' {
  if (typeof rule === 'boolean') return rule;
  const typed = checked(model, entity, rule);
  if (!typed) return 'undecidable';
  if (!ctx.data && needsData(typed)) return 'undecidable';
  const value = evaluateRule(typed, {
    roleClosure: model.roleClosure,
    user: ctx.user,
    row: ctx.row ? { ...ctx.row } : null,
    now: ctx.now ?? new Date(),
    ...(ctx.data ? { data: ctx.data } : {}),
  });
  return typeof value === 'boolean' || value === null ? value : 'undecidable';
}

/**
 * Whether a validation rule refuses the row, as the database's check does: a rule holds only
 * when it is true (`coalesce(rule, false)`), so unknown refuses too; an undecidable rule is the
 * server's to judge.
 *
 * @example
 * refuses(ruleVerdict(model, 'line', 'distanceKm > 0', { user, row: { distanceKm: null } })) // true
 */
export function refuses(verdict: boolean | null | 'undecidable'): boolean {
  return verdict === false || verdict === null;
}

/**
 * `refuses` for a validation rule on a row the browser may hold only part of: a field the rule
 * names that is absent from the row (`undefined`, unlike a stored empty `null`) leaves the rule to
 * the server instead of reading as empty.
 */
export function refusesRow(model: AppModel, entity: string, rule: string, ctx: VerdictContext): boolean {
  if (readsMissingField(model, entity, rule, ctx.row)) return false;
  return refuses(ruleVerdict(model, entity, rule, ctx));
}

/**
 * Whether the rule names a field of the entity that the row does not have at all (`undefined`):
 * a draft or partial row, on which the rule cannot be judged in the browser.
 */
export function readsMissingField(
  model: AppModel,
  entity: string,
  rule: string,
  row: Readonly<Record<string, unknown>> | null,
): boolean {
  const read = rowFieldsRead(model, entity, rule);
  // A rule the browser cannot check is the server's to judge, like one reading an absent field.
  if (read === null) return true;
  return read.some((f) => row?.[f] === undefined);
}

/**
 * The declared fields of the entity's own row that a rule reads, from the checked rule (not its
 * text): `claim.submitter` on a line reads the line's `claim`; `count(line where claim = this)`
 * on a claim reads no claim field. Null when the rule does not check.
 *
 * @example
 * rowFieldsRead(resolve(expenses), 'person', 'manager is empty or manager != id'); // ['manager']
 */
export function rowFieldsRead(model: AppModel, entity: string, rule: string): string[] | null {
  const typed = checked(model, entity, rule);
  if (!typed) return null;
  const declared = model.tables.get(entity)?.spec.fields ?? {};
  const prefix = `${entity}.`;
  return ruleReferences(typed)
    .fields.filter((f) => f.startsWith(prefix))
    .map((f) => f.slice(prefix.length))
    .filter((f) => Object.hasOwn(declared, f));
}

const cache = new WeakMap<AppModel, Map<string, Typed | null>>();

/** The checked (typed) rule, cached per model; null when it does not check. */
export function checked(model: AppModel, entity: string, rule: string): Typed | null {
  let perModel = cache.get(model);
  if (!perModel) {
    perModel = new Map();
    cache.set(model, perModel);
  }
  const key = `${entity}\u0000${rule}`;
  if (!perModel.has(key)) perModel.set(key, typedRule(model, entity, rule));
  return perModel.get(key) ?? null;
}

/** Whether evaluating the rule reads anything beyond the row and the user's id and roles. */
export function needsData(node: Typed): boolean {
  switch (node.kind) {
    case 'count':
    case 'sum':
      return true;
    case 'field':
      return node.path.length > 1;
    case 'me':
      return node.field !== undefined;
    case 'role':
      return node.subject.kind !== 'me' || node.subject.field !== undefined;
    case 'binary':
      return needsData(node.left) || needsData(node.right);
    case 'not':
    case 'neg':
    case 'empty':
      return needsData(node.operand);
    case 'in':
      return needsData(node.operand) || node.list.some(needsData);
    case 'call':
      return node.args.some(needsData);
    case 'this':
      return node.field !== undefined;
    default:
      return false;
  }
}
