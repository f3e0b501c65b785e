import type { Diagnostic } from '../../diagnostics.ts';
import { didYouMean } from '../../spec/didYouMean.ts';
import type { AppSpec } from '../../spec/types.ts';
import { errorUses } from '../errorUses.ts';

/**
 * Error codes raised somewhere but missing from the catalogue: the user would see no message.
 *
 * @example
 * undefinedErrors(spec); // [{ code: 'lint/undefined-error', path: 'validation.ticket[0].error', ... }]
 */
export function undefinedErrors(spec: AppSpec): Diagnostic[] {
  const codes = Object.keys(spec.errors);
  return errorUses(spec)
    .filter((u) => !Object.hasOwn(spec.errors, u.code))
    .map((u) => ({
      code: 'lint/undefined-error',
      severity: 'error',
      path: u.path,
      message: `error code "${u.code}" is not in the error catalogue`,
      hint: didYouMean(u.code, codes) ?? `add errors.${u.code} with its message`,
    }));
}
