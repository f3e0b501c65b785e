import { BackendError } from '../model/builtinCodes.ts';

/** Codes a second try may answer differently: the backend was busy, restarting or unreachable. */
const TRANSIENT = new Set(['UNAVAILABLE', 'INTERNAL', 'CONFLICT']);

/**
 * Whether a failed read is asked once more (TanStack Query's `retry`): only a failure that may
 * pass, once. A refusal (FORBIDDEN, NOT_FOUND, UNKNOWN_ENTITY…) is the answer: retrying it only
 * kept the screen loading a second longer before it said so.
 */
export function retryRead(failures: number, error: unknown): boolean {
  if (failures >= 1) return false;
  return !(error instanceof BackendError) || TRANSIENT.has(error.code);
}
