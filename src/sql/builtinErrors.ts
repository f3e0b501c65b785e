/**
 * Error codes the generated SQL raises by itself (not from the specification's catalogue).
 * They share the catalogue convention: SQLSTATE `P0001`, message = code, detail = JSON parameters.
 * An app's catalogue may define messages for them; the UI falls back to built-in messages.
 */
export const BUILTIN_ERROR_CODES = {
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

export type BuiltinErrorCode = keyof typeof BUILTIN_ERROR_CODES;

/** SQLSTATE of every error the generated SQL raises itself (`raise_exception`). */
export const RAISED_SQLSTATE = 'P0001';
