import { BUILTIN_ERROR_CODES } from '../backend/types.ts';
import { BUILTIN_ERROR_CODES as SQL_CODES } from '../sql/builtinErrors.ts';

/** Codes every backend may raise besides the spec's catalogue. */
export const BUILTIN_CODES: readonly string[] = BUILTIN_ERROR_CODES;

/** Built-in codes the generated SQL raises itself (SQLSTATE P0001, message = code). */
export const SQL_RAISED_BUILTIN_CODES: readonly string[] = Object.keys(SQL_CODES);
