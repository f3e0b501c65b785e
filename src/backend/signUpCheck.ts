import type { AppModel } from '../model/appModel.ts';
import { fieldRuleHolds } from '../runtime/formSchema.ts';
import { BackendError } from './types.ts';

/**
 * The catalogue error a sign-up name would meet as the new profile's `name` (a field rule such as
 * NAME_TOO_LONG, or the default text ceiling), or undefined. Both adapters ask before signing up:
 * Supabase Auth answers any refusal of its profile trigger with a bare 500, so the code must come
 * from here; the database refuses the same names itself (the trigger re-raises the rule).
 *
 * @example
 * signUpNameError(resolve(helpdesk), 'x'.repeat(500)); // BackendError NAME_TOO_LONG on person.name
 */
export function signUpNameError(model: AppModel, name: string | undefined): BackendError | undefined {
  if (name === undefined || name === '') return undefined;
  const profile = model.profile;
  const t = profile === undefined ? undefined : model.tables.get(profile);
  if (!profile || !t?.spec.fields.name) return undefined;
  for (const { spec: r } of t.rules) {
    if (r.kind === 'field' && r.field === 'name' && !fieldRuleHolds(model, r, name))
      return new BackendError(r.error, {}, `${profile}.name`);
  }
  const max = t.textCeilings.get('name');
  if (max !== undefined && [...name].length > max)
    return new BackendError('INVALID_VALUE', { field: `${profile}.name` }, `${profile}.name`);
  return undefined;
}
