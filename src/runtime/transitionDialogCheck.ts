import type { AppModel } from '../model/appModel.ts';
import { availableTransitions, type TransitionOption } from './availableTransitions.ts';
import type { FormSchema } from './formSchema.ts';
import type { RuleUser } from './ruleVerdict.ts';

export interface TransitionDialogCheck {
  /** Messages for the dialog's input fields (required, formats, field and row rules). */
  errors: Record<string, string>;
  /**
   * Why the transition cannot run with the input as typed: the catalogue message of a guard or
   * of a row rule the row would break once moved (its input written, its target status set).
   * The dialog disables its button and shows this; undefined once the input satisfies them.
   */
  reason?: string;
}

/**
 * What the transition dialog shows for the input typed so far. Rules are judged on the row as
 * the server will check it: the input written and the status already the target (`resolution
 * is not empty when status = solved` holds once a resolution is typed, not before) — the same
 * evaluation `availableTransitions` gives the button that opened the dialog.
 *
 * @example
 * transitionDialogCheck(model, agent, 'ticket', row, solveOption, schema, { resolution: '' });
 * // { errors: { resolution: 'This field is required.' }, reason: 'Say how it was solved.' }
 */
export function transitionDialogCheck(
  model: AppModel,
  user: RuleUser | null,
  entity: string,
  row: Readonly<Record<string, unknown>>,
  option: Pick<TransitionOption, 'name' | 'to' | 'input'>,
  schema: Pick<FormSchema, 'validate'>,
  input: Readonly<Record<string, unknown>>,
): TransitionDialogCheck {
  const statusField = model.machines.get(entity)?.field;
  const after = { ...row, ...input, ...(statusField ? { [statusField]: option.to } : {}) };
  const all = schema.validate(after, user);
  const errors = Object.fromEntries(Object.entries(all).filter(([k]) => option.input.includes(k)));
  const live = availableTransitions(model, user, entity, row, input).find((o) => o.name === option.name);
  return live && !live.allowed && live.reason !== undefined ? { errors, reason: live.reason } : { errors };
}
