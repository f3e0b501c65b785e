import type { Diagnostic } from '../../diagnostics.ts';
import { at } from '../../spec/specShape.ts';
import type { AppSpec } from '../../spec/types.ts';
import { BUILTIN_ERROR_CODES } from '../../sql/builtinErrors.ts';
import { errorUses } from '../errorUses.ts';

/**
 * Catalogue entries nothing raises (no guard, validation rule or call names them). Codes the
 * generated SQL raises itself (`NOT_FOUND`, `CONFLICT`...) are raised by every app.
 *
 * @example
 * unusedErrors(spec); // [{ code: 'lint/unused-error', path: 'errors.OLD_CODE', ... }]
 */
export function unusedErrors(spec: AppSpec): Diagnostic[] {
  const used = new Set(errorUses(spec).map((u) => u.code));
  return Object.keys(spec.errors)
    .filter((code) => !used.has(code) && !Object.hasOwn(BUILTIN_ERROR_CODES, code))
    .map((code) => ({
      code: 'lint/unused-error',
      severity: 'warning',
      path: at('errors', code),
      message: `error "${code}" is never raised`,
      hint: 'name it in a guardError, a validation rule or a call, or remove it',
    }));
}
