import type { AppModel } from '../model/appModel.ts';
import type { Typed } from '../rules/ast.ts';
import type { DataContext } from '../rules/evaluate.ts';
import { typedChildren } from '../rules/typedChildren.ts';
import { checked, ruleVerdict, type VerdictContext } from './ruleVerdict.ts';

/**
 * The state a new row will start in, as the database's insert trigger chooses it
 * (`app.<table>__initial_state`): the first `initialWhen` rule that holds on the row (unknown does
 * not hold), else the initial state. `undecidable` when a rule before the one that decides reads
 * what the browser was not given (a referenced row, other rows): the server then decides.
 * `undefined` for an entity without states.
 *
 * @example
 * initialStateOf(model, 'order', { user, row: { total: 120, department: 'd1' }, data }); // 'approved'
 */
export function initialStateOf(
  model: AppModel,
  entity: string,
  ctx: VerdictContext,
): string | 'undecidable' | undefined {
  const machine = model.machines.get(entity);
  if (!machine) return undefined;
  for (const r of machine.initialRules) {
    const verdict = ruleVerdict(model, entity, r.rule.text, ctx);
    if (verdict === 'undecidable') return 'undecidable';
    if (verdict === true) return r.state;
  }
  return machine.initial;
}

/** A reference field of the new row that an `initialWhen` rule reads through, and its entity. */
export interface InitialStateHop {
  field: string;
  entity: string;
}

/**
 * What the browser must load to preview the initial state: the referenced rows the rules read
 * through (`department.approvalLimit` → the department). `null` when a rule reads more than the
 * row, its references and the user (a count, a sum, `me.field`): only the server can say.
 */
export function initialStateHops(model: AppModel, entity: string): InitialStateHop[] | null {
  const machine = model.machines.get(entity);
  const table = model.tables.get(entity);
  if (!machine || !table) return [];
  const fields = new Set<string>();
  for (const r of machine.initialRules) {
    const typed = checked(model, entity, r.rule.text);
    if (!typed || !onlyHops(typed, fields)) return null;
  }
  // A hop through a computed reference (`organisation`, computed from `project.organisation`)
  // has no value in the form: the server works it out, so the state is chosen on saving.
  if ([...fields].some((f) => table.byField.get(f)?.computed !== undefined)) return null;
  return [...fields].flatMap((field) => {
    const target = table.byField.get(field)?.references;
    return target ? [{ field, entity: target }] : [];
  });
}

/** Whether the rule reads only the row, one-hop references (collected in `hops`) and the user's own id/roles. */
function onlyHops(t: Typed, hops: Set<string>): boolean {
  if (t.kind === 'count' || t.kind === 'sum') return false;
  if (t.kind === 'me' && t.field !== undefined) return false;
  if (t.kind === 'role' && (t.subject.kind !== 'me' || t.subject.field !== undefined)) return false;
  if (t.kind === 'field' && t.scope === 'row' && t.path.length === 2) hops.add(t.path[0] as string);
  return typedChildren(t).every((c) => onlyHops(c, hops));
}

/**
 * The data a preview gives the evaluator: the referenced rows it loaded, by entity and id. Only
 * `get` answers; the rules it serves read no other rows (`initialStateHops`).
 */
export function hopData(rows: ReadonlyMap<string, Record<string, unknown>>): DataContext {
  return {
    rows: () => [],
    get: (entity, id) => rows.get(`${entity}/${id}`) ?? null,
    profile: () => null,
  };
}
