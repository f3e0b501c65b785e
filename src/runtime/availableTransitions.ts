import type { AppModel } from '../model/appModel.ts';
import { humanize } from '../model/humanize.ts';
import type { TransitionNode } from '../model/transition.ts';
import type { DataContext } from '../rules/evaluate.ts';
import { transitionGuards } from '../spec/transitionGuards.ts';
import { permits } from './can.ts';
import { formatMessage } from './formatMessage.ts';
import { formRules } from './formRules.ts';
import { effectiveRoles } from './roles.ts';
import { type RuleUser, refusesRow, rowFieldsRead, ruleVerdict, type VerdictContext } from './ruleVerdict.ts';
import { ui } from './uiText.ts';

export interface TransitionOption {
  name: string;
  label: string;
  from: string;
  to: string;
  toLabel: string;
  /** Fields the dialog asks for: the required ones, then the optional ones. */
  input: readonly string[];
  /** Those of `input` the user may leave empty (`optionalInput`). */
  optional: readonly string[];
  confirm: boolean;
  allowed: boolean;
  /** Why not, when not allowed (the guard's catalogue message). */
  reason?: string;
}

/**
 * The transitions a user is offered on a row: those leaving the row's current state that one
 * of the user's roles (with inheritance) may run. A failing guard keeps the option but disables
 * it with the guard's catalogue message as the reason; transitions no role of the user may run
 * are absent, since showing them would only be noise.
 *
 * @example
 * availableTransitions(model, agent, 'ticket', { status: 'open', assignee: 'someone-else' })
 * // [{ name: 'solve', allowed: false, reason: 'Only the assignee can solve it.', ... }]
 */
export function availableTransitions(
  model: AppModel,
  user: RuleUser | null,
  entity: string,
  row: Readonly<Record<string, unknown>>,
  /** The input typed so far (the transition dialog); without it, input fields are not yet known. */
  input: Readonly<Record<string, unknown>> = {},
  /** Rows the caller has, for rules reading beyond the row (a relationship role's membership). */
  data?: DataContext,
): TransitionOption[] {
  const machine = model.machines.get(entity);
  if (!machine || !user) return [];
  const current = String(row[machine.field] ?? machine.initial);
  const held = effectiveRoles(model, user.roles);
  const out: TransitionOption[] = [];
  for (const t of model.tables.get(entity)?.transitions ?? []) {
    if (!t.from.includes(current)) continue;
    // A role held through a relationship is the row's to decide (`me is projectLead`).
    if (
      !t.roles.some((r) => held.includes(r)) &&
      !(t.rolesRule && heldOnRow(model, { user, row, ...(data ? { data } : {}) }, entity, t))
    )
      continue;
    const option: TransitionOption = {
      name: t.name,
      label: t.label,
      from: current,
      to: t.to,
      toLabel: stateLabel(model, entity, t.to),
      input: [...t.input, ...t.optionalInput],
      optional: t.optionalInput,
      confirm: t.confirm,
      allowed: true,
    };
    // The first failing guard gives the reason, as the server raises the first failing guard's code.
    const declared = machine.spec.transitions[t.name];
    const failing = (declared ? transitionGuards(declared) : []).find(
      (g) => !permits(ruleVerdict(model, entity, g.rule, { user, row, ...(data ? { data } : {}) })),
    );
    if (failing) {
      option.allowed = false;
      option.reason = failing.error ? formatMessage(model, failing.error, row) : ui('notAllowedGuard');
    } else {
      const broken = ruleBrokenAfter(
        model,
        user,
        entity,
        row,
        t.to,
        t.set,
        machine.field,
        option.input,
        input,
      );
      if (broken) {
        option.allowed = false;
        option.reason = broken;
      }
    }
    out.push(option);
  }
  return out;
}

/** Whether the user holds one of the transition's roles on the row (a relationship role's rule). */
function heldOnRow(model: AppModel, ctx: VerdictContext, entity: string, t: TransitionNode): boolean {
  return t.rolesRule !== undefined && permits(ruleVerdict(model, entity, t.rolesRule.text, ctx));
}

/** A state's label from the model (its label, or its name made readable). */
export function stateLabel(model: AppModel, entity: string, state: string): string {
  return model.machines.get(entity)?.states.get(state)?.label ?? humanize(state);
}

/** The one `humanize` (src/model/humanize.ts), re-exported for the UI's label helpers. */
export { humanize };

/**
 * The catalogue message of a row rule the transition would break, judged on the row as the
 * transition leaves it (its simple `set` values applied: `me`, `now`, `null`, literals), or
 * undefined. Only a rule that is definitely false counts, like the database's check: nobody
 * approving their own claim is then a disabled button with its reason, not a refusal after a click.
 */
function ruleBrokenAfter(
  model: AppModel,
  user: RuleUser,
  entity: string,
  row: Readonly<Record<string, unknown>>,
  to: string,
  set: Readonly<Record<string, string>>,
  statusField: string,
  inputFields: readonly string[],
  input: Readonly<Record<string, unknown>>,
): string | undefined {
  const after: Record<string, unknown> = { ...row, [statusField]: to };
  const unknown: string[] = [];
  // The transition writes its input before the row rules are checked (as the server does): a
  // field given is read with its new value; one not given yet is left to the dialog and the server.
  for (const field of inputFields) {
    if (Object.hasOwn(input, field)) after[field] = input[field];
    else unknown.push(field);
  }
  for (const [field, expr] of Object.entries(set)) {
    const v = simpleSetValue(expr, user);
    if (v.known) after[field] = v.value;
    else unknown.push(field);
  }
  for (const { rule } of formRules(model, entity)) {
    if (rule.kind !== 'row') continue;
    // A rule checked when its field changes binds only a transition that writes that field.
    if (rule.onChange && rule.field && !inputFields.includes(rule.field) && !(rule.field in set)) continue;
    // A field set by an expression the browser cannot work out (`reopenCount + 1`, `sum(...)`)
    // leaves every rule that reads it to the server.
    const read = [rule.rule, ...(rule.when === undefined ? [] : [rule.when])].map((r) =>
      rowFieldsRead(model, entity, r),
    );
    if (read.some((fields) => fields === null || unknown.some((f) => fields.includes(f)))) continue;
    const ctx = { user, row: after };
    if (rule.when && ruleVerdict(model, entity, rule.when, ctx) !== true) continue;
    if (refusesRow(model, entity, rule.rule, ctx)) return formatMessage(model, rule.error, after);
  }
  return undefined;
}

function simpleSetValue(expr: string, user: RuleUser): { known: boolean; value?: unknown } {
  const e = expr.trim();
  if (e === 'me') return { known: true, value: user.id };
  if (e === 'now') return { known: true, value: new Date().toISOString() };
  if (e === 'today') return { known: true, value: new Date().toISOString().slice(0, 10) };
  if (e === 'null') return { known: true, value: null };
  if (e === 'true' || e === 'false') return { known: true, value: e === 'true' };
  if (/^-?\d+(\.\d+)?$/.test(e)) return { known: true, value: Number(e) };
  const quoted = /^'(.*)'$/.exec(e);
  if (quoted) return { known: true, value: quoted[1] };
  return { known: false };
}
