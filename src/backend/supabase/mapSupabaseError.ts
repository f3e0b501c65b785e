import { type ErrorContext, mapDatabaseError } from '../errors/mapDatabaseError.ts';
import { BackendError } from '../types.ts';
import { type PostgrestErrorBody, postgrestErrorToPg } from './postgrestErrorToPg.ts';

/** Whether the adapter believed a user was signed in when the request failed. */
export interface AuthState {
  signedIn(): boolean;
  /** Told when the server refused the session's token, so the auth port can confirm the expiry. */
  tokenRejected?(): void;
}

function withCause(e: BackendError, cause: unknown): BackendError {
  Object.defineProperty(e, 'cause', { value: cause, enumerable: false });
  return e;
}

function rec(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
}

function s(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** A rejected or expired token: which code depends on whether there was a session to expire. */
function tokenRejected(auth: AuthState, cause: unknown): BackendError {
  if (auth.signedIn()) auth.tokenRejected?.();
  return withCause(new BackendError(auth.signedIn() ? 'SESSION_EXPIRED' : 'NOT_SIGNED_IN'), cause);
}

/**
 * A PostgREST failure (`{ error, status }` of a supabase-js query) → the catalogue error.
 * Database errors go through the shared `mapDatabaseError`; PostgREST's own `PGRST*` codes and
 * HTTP-level failures are decided here.
 *
 * @example
 * const { data, error, status } = await client.from('ticket').select('*');
 * if (error) throw mapPostgrestError(error, status, ctx, auth);
 */
export function mapPostgrestError(
  error: PostgrestErrorBody,
  status: number,
  ctx: ErrorContext,
  auth: AuthState,
): BackendError {
  const code = s(error.code);
  const message = s(error.message);
  // status 0: fetch itself failed (offline, DNS, CORS); supabase-js reports it as an error body.
  if (status === 0) return withCause(new BackendError('UNAVAILABLE'), error);
  if (code === 'PGRST301' || code === 'PGRST302' || code === 'PGRST303' || /\bJWT\b/.test(message)) {
    return tokenRejected(auth, error);
  }
  // PostgREST answers an anonymous request refused by a grant/policy with 401 instead of 403.
  if (status === 401 && code === '42501') {
    return withCause(new BackendError(auth.signedIn() ? 'FORBIDDEN' : 'NOT_SIGNED_IN'), error);
  }
  if (status === 401) return tokenRejected(auth, error);
  switch (code) {
    case 'PGRST116':
      return withCause(new BackendError('NOT_FOUND'), error);
    // Schema cache misses: the deployed migration is not the one this build was made for.
    case 'PGRST200':
    case 'PGRST202':
    case 'PGRST204':
    case 'PGRST205':
    case '42P01':
    case '42703':
    case '42883':
      return withCause(new BackendError('SCHEMA_CHANGED'), error);
    case 'PGRST000':
    case 'PGRST001':
    case 'PGRST002':
    case 'PGRST003':
      return withCause(new BackendError('UNAVAILABLE'), error);
    case 'PGRST100':
    case 'PGRST102':
    case 'PGRST103':
      return withCause(new BackendError('INVALID_INPUT'), error);
    default:
      break;
  }
  if (code === '' && (status === 502 || status === 503 || status === 504)) {
    return withCause(new BackendError('UNAVAILABLE'), error);
  }
  return mapDatabaseError(postgrestErrorToPg(error), ctx);
}

const AUTH_CODES: Record<string, string> = {
  invalid_credentials: 'INVALID_CREDENTIALS',
  user_not_found: 'INVALID_CREDENTIALS',
  user_already_exists: 'EMAIL_TAKEN',
  email_exists: 'EMAIL_TAKEN',
  weak_password: 'WEAK_PASSWORD',
  email_address_invalid: 'INVALID_INPUT',
  validation_failed: 'INVALID_INPUT',
  email_not_confirmed: 'NOT_SIGNED_IN',
  session_expired: 'SESSION_EXPIRED',
  session_not_found: 'SESSION_EXPIRED',
  refresh_token_not_found: 'SESSION_EXPIRED',
  refresh_token_already_used: 'SESSION_EXPIRED',
  bad_jwt: 'SESSION_EXPIRED',
  no_authorization: 'NOT_SIGNED_IN',
  signup_disabled: 'FORBIDDEN',
  email_provider_disabled: 'FORBIDDEN',
  user_banned: 'FORBIDDEN',
  over_request_rate_limit: 'UNAVAILABLE',
  over_email_send_rate_limit: 'UNAVAILABLE',
  request_timeout: 'UNAVAILABLE',
};

/**
 * An Auth (GoTrue) error from supabase-js → the catalogue error. Newer servers send a stable
 * `code`; older ones only a status and an English message, which is the fallback.
 *
 * @example
 * const { error } = await client.auth.signInWithPassword({ email, password });
 * if (error) throw mapAuthError(error);
 */
export function mapAuthError(error: unknown): BackendError {
  if (error instanceof BackendError) return error;
  const e = rec(error);
  const code = s(e.code);
  const name = s(e.name);
  const message = s(e.message);
  const status = typeof e.status === 'number' ? e.status : undefined;
  const mapped = AUTH_CODES[code];
  if (mapped) {
    const params = mapped === 'NOT_SIGNED_IN' ? { reason: 'email-not-confirmed' } : {};
    return withCause(new BackendError(mapped, params), error);
  }
  if (name === 'AuthRetryableFetchError' || status === 0 || (status !== undefined && status >= 500)) {
    return withCause(new BackendError('UNAVAILABLE'), error);
  }
  if (name === 'AuthSessionMissingError') return withCause(new BackendError('NOT_SIGNED_IN'), error);
  if (name === 'AuthWeakPasswordError') return withCause(new BackendError('WEAK_PASSWORD'), error);
  if (/invalid login credentials/i.test(message))
    return withCause(new BackendError('INVALID_CREDENTIALS'), error);
  if (/already (registered|exists)/i.test(message)) return withCause(new BackendError('EMAIL_TAKEN'), error);
  if (/password/i.test(message) && status === 422) return withCause(new BackendError('WEAK_PASSWORD'), error);
  if (/refresh token|jwt|expired/i.test(message))
    return withCause(new BackendError('SESSION_EXPIRED'), error);
  if (status === 422 || status === 400) return withCause(new BackendError('INVALID_INPUT'), error);
  return withCause(new BackendError('INTERNAL'), error);
}

/**
 * A Storage error (`StorageApiError`/`StorageUnknownError`) → the catalogue error. Storage runs
 * RLS on `storage.objects`, and answers a denied read as "not found", like the tables do.
 *
 * @example
 * const { error } = await client.storage.from('attachment').download(path);
 * if (error) throw mapStorageError(error, auth);
 */
export function mapStorageError(error: unknown, auth: AuthState): BackendError {
  const e = rec(error);
  const status = typeof e.status === 'number' ? e.status : Number(s(e.statusCode)) || undefined;
  const message = s(e.message);
  const code = s(e.statusCode) || s(e.code);
  if (/jwt|token|"?exp"? claim/i.test(message) && (status === 400 || status === 401 || status === 403)) {
    return tokenRejected(auth, error);
  }
  if (status === 401) return tokenRejected(auth, error);
  if (status === 404 || code === 'NoSuchKey' || /not found/i.test(message)) {
    return withCause(new BackendError('NOT_FOUND'), error);
  }
  // Storage reports a policy refusal as 403 or as 400 "new row violates row-level security policy".
  if (status === 403 || /row-level security|unauthorized/i.test(message)) {
    return withCause(new BackendError('FORBIDDEN'), error);
  }
  if (status === 409 || /already exists|duplicate/i.test(message))
    return withCause(new BackendError('CONFLICT'), error);
  if (status === 413 || /maximum allowed size|too large/i.test(message)) {
    return withCause(new BackendError('INVALID_VALUE', { reason: 'too-large' }), error);
  }
  if (status === 415 || /mime type/i.test(message)) {
    return withCause(new BackendError('INVALID_VALUE', { reason: 'type' }), error);
  }
  const name = s(e.name);
  if (name === 'StorageUnknownError' || status === undefined || status >= 500) {
    return withCause(new BackendError('UNAVAILABLE'), error);
  }
  return withCause(new BackendError('INTERNAL'), error);
}
