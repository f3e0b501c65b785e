import type { Severity } from '../spec/types.ts';
import type { ErrorParamNode } from './errorParams.ts';

/** How the database reports a code, so the adapters can map its errors back. */
export interface ErrorSqlMapping {
  /** Raised by generated functions and triggers: SQLSTATE `P0001`, message = code. */
  raised: boolean;
  /** Named CHECK constraints whose violation means this code. */
  constraints: readonly string[];
}

/** A catalogue code: the spec's own (`errors`) or a built-in one. */
export interface ErrorCodeNode {
  code: string;
  builtin: boolean;
  /** The spec's message template, if it defines one. */
  message?: string;
  severity: Severity;
  /** `entity.field` the message belongs to. */
  field?: string;
  /** Parameters the server sends with the code (`errors.<CODE>.params`), in declaration order. */
  params?: readonly ErrorParamNode[];
  sql: ErrorSqlMapping;
}
