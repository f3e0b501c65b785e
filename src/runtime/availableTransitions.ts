import type { AppSpec } from '../spec/types.ts';
import { permits } from './can.ts';
import { formatMessage } from './formatMessage.ts';
import { effectiveRoles } from './roles.ts';
import { type RuleUser, ruleVerdict } from './ruleVerdict.ts';
import { ui } from './uiText.ts';

export interface TransitionOption {
  name: string;
  label: string;
  from: string;
  to: string;
  toLabel: string;
  /** Fields the user must fill in (in the dialog). */
  input: readonly string[];
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
 * availableTransitions(spec, agent, 'ticket', { status: 'open', assignee: 'someone-else' })
 * // [{ name: 'solve', allowed: false, reason: 'Only the assignee can solve it.', ... }]
 */
export function availableTransitions(
  spec: AppSpec,
  user: RuleUser | null,
  entity: string,
  row: Readonly<Record<string, unknown>>,
): TransitionOption[] {
  const machine = spec.states[entity];
  if (!machine || !user) return [];
  const current = String(row[machine.field] ?? machine.initial);
  const held = effectiveRoles(spec, user.roles);
  const out: TransitionOption[] = [];
  for (const [name, t] of Object.entries(machine.transitions)) {
    if (!t.from.includes(current)) continue;
    if (!t.roles.some((r) => held.includes(r))) continue;
    const option: TransitionOption = {
      name,
      label: t.label ?? humanize(name),
      from: current,
      to: t.to,
      toLabel: stateLabel(spec, entity, t.to),
      input: t.input ?? [],
      confirm: t.confirm === true,
      allowed: true,
    };
    if (t.guard && !permits(ruleVerdict(spec, entity, t.guard, { user, row }))) {
      option.allowed = false;
      option.reason = t.guardError ? formatMessage(spec, t.guardError, row) : ui('notAllowedGuard');
    }
    out.push(option);
  }
  return out;
}

/** A state's label from the specification, or its name made readable. */
export function stateLabel(spec: AppSpec, entity: string, state: string): string {
  return spec.states[entity]?.states[state]?.label ?? humanize(state);
}

/** `inProgress` → `In progress`, `waiting_on_customer` → `Waiting on customer`. */
export function humanize(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
