/**
 * The built-in error codes and the one error class that carries a catalogue code. They sit in the
 * model, below the SQL emitters, the backend port, its adapters and the runtime, because all of
 * them raise or read these codes (`src/sql/builtinErrors.ts` and `src/backend/types.ts` re-export
 * them).
 */

/**
 * The only error a Backend method rejects with. `C` is its code; an app's errors are the union
 * `BackendErrorOf<typeof app>` keyed by `code` (built-in codes plus the spec's catalogue).
 */
export class BackendError<C extends string = string> extends Error {
  readonly code: C;
  readonly params: Readonly<Record<string, unknown>>;
  /** `entity.field` when the error belongs to one field (inline in forms). */
  readonly field: string | undefined;
  constructor(code: C, params: Record<string, unknown> = {}, field?: string) {
    super(code);
    this.name = 'BackendError';
    this.code = code;
    this.params = params;
    this.field = field;
  }
}

/**
 * Codes every backend may raise besides the specification's own catalogue. The UI has a
 * message for each (the runtime's text table); adapters never invent other codes.
 */
export const BUILTIN_ERROR_CODES = [
  'NOT_FOUND',
  'CONFLICT',
  'FORBIDDEN',
  'REQUIRED',
  'UNIQUE',
  'REFERENCE',
  'INVALID_VALUE',
  'INVALID_INPUT',
  'UNKNOWN_ENTITY',
  'UNKNOWN_CALL',
  'INVALID_TRANSITION',
  'INPUT_REQUIRED',
  'FIELD_NOT_WRITABLE',
  'APPEND_ONLY',
  'BATCH_TOO_LARGE',
  'NOT_SIGNED_IN',
  'SESSION_EXPIRED',
  'INVALID_CREDENTIALS',
  'EMAIL_TAKEN',
  'WEAK_PASSWORD',
  'SCHEMA_CHANGED',
  'STORAGE_FULL',
  'UNAVAILABLE',
  'INTERNAL',
  'LAST_ADMIN',
  'ROLE_IN_USE',
] as const;

export type BuiltinErrorCode = (typeof BUILTIN_ERROR_CODES)[number];

/**
 * Error codes the generated SQL raises by itself (not from the specification's catalogue).
 * They share the catalogue convention: SQLSTATE `P0001`, message = code, detail = JSON parameters.
 * An app's catalogue may define messages for them; the UI falls back to built-in messages.
 */
export const SQL_BUILTIN_ERROR_CODES = {
  /** The row does not exist, or the caller may not read it (indistinguishable on purpose). Detail: `{entity, id}`. */
  NOT_FOUND: 'NOT_FOUND',
  /** The row changed since the caller read it (stale `version`). Detail: `{entity, id, version, current}`. */
  CONFLICT: 'CONFLICT',
  /** The caller's roles do not allow the action (or a guard without its own code failed). Detail: `{entity, action}`. */
  FORBIDDEN: 'FORBIDDEN',
  /** The transition does not start from the row's current state. Detail: `{entity, transition, from}`. */
  INVALID_TRANSITION: 'INVALID_TRANSITION',
  /** A transition's required input field is missing or empty. Detail: `{entity, transition, field}`. */
  INPUT_REQUIRED: 'INPUT_REQUIRED',
  /** The caller changed a column their roles may not change. Detail: `{entity, field}`. */
  FIELD_NOT_WRITABLE: 'FIELD_NOT_WRITABLE',
  /** History rows and other append-only data cannot be changed or removed. Detail: `{table}`. */
  APPEND_ONLY: 'APPEND_ONLY',
  /** One request would hold more distinct group locks than a client may (docs/security.md, "Rules over other rows"). Detail: `{entity, limit}`. */
  BATCH_TOO_LARGE: 'BATCH_TOO_LARGE',
} as const;

export type SqlBuiltinErrorCode = keyof typeof SQL_BUILTIN_ERROR_CODES;

/** Codes every backend may raise besides the spec's catalogue. */
export const BUILTIN_CODES: readonly string[] = BUILTIN_ERROR_CODES;

/** Built-in codes the generated SQL raises itself (SQLSTATE P0001, message = code). */
export const SQL_RAISED_BUILTIN_CODES: readonly string[] = Object.keys(SQL_BUILTIN_ERROR_CODES);
