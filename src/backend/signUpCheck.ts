import { resolve } from '../model/resolve.ts';
import { fieldRuleHolds } from '../runtime/formSchema.ts';
import type { AppSpec } from '../spec/types.ts';
import { textCeiling } from '../spec/valueLimits.ts';
import { BackendError } from './types.ts';

/**
 * The catalogue error a sign-up name would meet as the new profile's `name` (a field rule such as
 * NAME_TOO_LONG, or the default text ceiling), or undefined. Both adapters ask before signing up:
 * Supabase Auth answers any refusal of its profile trigger with a bare 500, so the code must come
 * from here; the database refuses the same names itself (the trigger re-raises the rule).
 *
 * @example
 * signUpNameError(helpdesk, 'x'.repeat(500)); // BackendError NAME_TOO_LONG on person.name
 */
export function signUpNameError(spec: AppSpec, name: string | undefined): BackendError | undefined {
  if (name === undefined || name === '') return undefined;
  const [profile, e] = Object.entries(spec.entities).find(([, x]) => x.profile) ?? [];
  const f = e?.fields.name;
  if (!profile || !f) return undefined;
  for (const r of spec.validation[profile] ?? []) {
    if (r.kind === 'field' && r.field === 'name' && !fieldRuleHolds(resolve(spec), r, name))
      return new BackendError(r.error, {}, `${profile}.name`);
  }
  const max = textCeiling(spec, profile, 'name', f);
  if (max !== undefined && [...name].length > max)
    return new BackendError('INVALID_VALUE', { field: `${profile}.name` }, `${profile}.name`);
  return undefined;
}
