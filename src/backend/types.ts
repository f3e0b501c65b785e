/**
 * The one interface the UI talks to. Shaped after what supabase-js offers so the hosted
 * adapter is a thin layer; the embedded adapter (PGlite) implements the same contract.
 *
 * Every method rejects with a `BackendError` whose `code` is a catalogue code (from the
 * specification's `errors`, or one of `BUILTIN_ERROR_CODES`), never with a raw database error.
 */

/** A row as the UI sees it: field names as in the specification (camelCase), plus the implicit columns. */
export type Row = {
  id: string;
  createdAt: string;
  updatedAt: string;
  version: number;
} & Record<string, unknown>;

/**
 * The key of a row that lists its fields with a `read` rule the reader may not read on it (spec
 * names; absent when none): their values are null, and screens say "hidden" rather than empty. A
 * `$` cannot begin a field name, so it never collides with one.
 */
export const HIDDEN_FIELDS = '$hidden';

/** Is `field` of `row` withheld from the reader (its `read` rule fails on this row)? */
export function isHiddenField(row: Readonly<Record<string, unknown>> | undefined, field: string): boolean {
  const hidden = row?.[HIDDEN_FIELDS];
  return Array.isArray(hidden) && hidden.includes(field);
}

export interface SessionUser {
  id: string;
  email: string;
  /** App roles held directly (inheritance is resolved by the rules, not here). */
  roles: readonly string[];
}

export interface Session {
  user: SessionUser;
  /** Opaque token; the embedded backend signs its own, the hosted one is Supabase's JWT. */
  accessToken: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

export type AuthEvent = 'SIGNED_IN' | 'SIGNED_OUT' | 'TOKEN_REFRESHED' | 'SESSION_EXPIRED' | 'USER_UPDATED';

export interface AuthPort {
  signUp(input: { email: string; password: string; name?: string }): Promise<Session>;
  signIn(input: { email: string; password: string }): Promise<Session>;
  signOut(): Promise<void>;
  /** The current session, or null when signed out or expired. */
  session(): Promise<Session | null>;
  /** Subscribe to auth changes; returns an unsubscribe function. */
  onChange(listener: (event: AuthEvent, session: Session | null) => void): () => void;
}

export type FilterOp = 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte' | 'in' | 'isNull' | 'notNull' | 'contains';

export interface Filter {
  field: string;
  op: FilterOp;
  value?: unknown;
}

export interface ListQuery {
  filters?: readonly Filter[];
  /**
   * A screen whose `where` rule (spec `screens.<name>.where`) the server applies, in the rule
   * language's full form (`count(...)`, `a.b`, `or`): only rows it holds for are listed and counted.
   */
  screen?: string;
  sort?: readonly { field: string; direction: 'asc' | 'desc' }[];
  /** Free text matched against the entity's searchable text fields. */
  search?: string;
  offset?: number;
  /** Page size; adapters cap it (default 50, maximum 1000). */
  limit?: number;
  /**
   * `exact` counts every matching row; `estimated` counts exactly up to a threshold and above it
   * returns the planner's estimate (`ListResult.estimated`), so a large total never rescans the
   * table; `none` skips the count. Default exact.
   */
  count?: 'exact' | 'estimated' | 'none';
}

export interface ListResult {
  rows: Row[];
  /** Total matching rows (ignoring offset/limit), or null when not counted. */
  total: number | null;
  /** The total is an estimate (`count: 'estimated'` above the threshold): show it as "about N". */
  estimated?: boolean;
}

export interface HistoryEntry {
  id: string;
  rowId: string;
  /**
   * `transition` (a state change; `transition` names it), `edit` (audited fields; `input` holds
   * their new values, `previous` their old ones) or `added` (a row under this one; `transition`
   * names its entity, `input.id` it).
   */
  kind: 'transition' | 'edit' | 'added';
  transition: string;
  fromState: string;
  toState: string;
  /** Who did it; `''` when the system did (a transition that happens by time, `after`). */
  actor: string;
  at: string;
  input: Record<string, unknown>;
  /**
   * An edit's fields as they were before it (field → old value, `null` when empty): `{}` for
   * other entries and for edits recorded before old values were kept.
   */
  previous: Record<string, unknown>;
}

/** How a read may be called off (TanStack Query passes its signal when a newer query replaces it). */
export interface ReadOptions {
  /**
   * Once aborted, the read is not wanted: a read not yet started is dropped, one under way may
   * still finish; the promise rejects with an `AbortError` either way.
   */
  signal?: AbortSignal;
}

export interface DataPort {
  list(entity: string, query?: ListQuery, options?: ReadOptions): Promise<ListResult>;
  /** Rejects with NOT_FOUND when the row does not exist or the user may not read it (indistinguishable). */
  get(entity: string, id: string): Promise<Row>;
  create(entity: string, values: Record<string, unknown>): Promise<Row>;
  /** Rejects with CONFLICT when `version` is not the row's current version. */
  update(entity: string, id: string, version: number, values: Record<string, unknown>): Promise<Row>;
  delete(entity: string, id: string): Promise<void>;
  transition(
    entity: string,
    id: string,
    transition: string,
    input?: Record<string, unknown>,
    version?: number,
  ): Promise<Row>;
  history(entity: string, id: string): Promise<HistoryEntry[]>;
}

export interface FileUpload {
  /** Values of the file entity's own fields (e.g. the ticket it belongs to). */
  values: Record<string, unknown>;
  name: string;
  type: string;
  bytes: Uint8Array;
}

export interface FilesPort {
  upload(entity: string, file: FileUpload): Promise<Row>;
  download(entity: string, id: string): Promise<{ name: string; type: string; bytes: Uint8Array }>;
  remove(entity: string, id: string): Promise<void>;
}

export interface Change {
  entity: string;
  id: string;
  kind: 'insert' | 'update' | 'delete';
}

export interface LivePort {
  /** Called after any committed change to the entity (or the one row when `id` is given). */
  subscribe(target: { entity: string; id?: string }, listener: (change: Change) => void): () => void;
}

export interface CallsPort {
  /** Invoke a call declared in the specification; the payload is checked against its shape first. */
  invoke(name: string, payload: Record<string, unknown>): Promise<unknown>;
}

export interface AdminUser {
  id: string;
  email: string;
  roles: string[];
  createdAt: string;
}

export interface AdminPort {
  /** Users with their roles; only for roles the rules allow to administer users. */
  listUsers(): Promise<AdminUser[]>;
  setRoles(userId: string, roles: readonly string[]): Promise<void>;
  /**
   * Who holds `role` directly (or a role inheriting it), for any signed-in user, but only for
   * roles a validation rule names (`assignee is agent`): forms offer only people the rules accept.
   */
  roleHolders?(role: string): Promise<{ userId: string; role: string }[]>;
}

export interface Backend {
  readonly kind: 'embedded' | 'supabase';
  auth: AuthPort;
  data: DataPort;
  files: FilesPort;
  live: LivePort;
  calls: CallsPort;
  admin: AdminPort;
  close(): Promise<void>;
}

// The error class and the built-in codes live in the model (below every adapter and the runtime,
// which all raise or read them); the port re-exports them so `ninefold` keeps one import site.
import { BackendError, BUILTIN_ERROR_CODES, type BuiltinErrorCode } from '../model/builtinCodes.ts';

export { BackendError, BUILTIN_ERROR_CODES, type BuiltinErrorCode };

/** Every code an app's backend may reject with: the built-in ones and the spec's catalogue. */
export type ErrorCodeOf<A extends { errors: Record<string, unknown> }> =
  | BuiltinErrorCode
  | Extract<keyof { [K in keyof A['errors'] as string extends K ? never : K]: 0 }, string>;

/**
 * An app's backend errors as a union keyed by `code`: checking `e.code` narrows to one member.
 *
 * @example
 * function message(e: BackendErrorOf<typeof helpdesk>) {
 *   if (e.code === 'TITLE_TOO_SHORT') return e.field; // e: BackendError<'TITLE_TOO_SHORT'>
 * }
 */
export type BackendErrorOf<A extends { errors: Record<string, unknown> }> = {
  [C in ErrorCodeOf<A>]: BackendError<C>;
}[ErrorCodeOf<A>];

/**
 * Whether a value is one of an app's backend errors (a `BackendError` with one of its codes).
 *
 * @example
 * try { await backend.data.create('ticket', values) } catch (e) { if (isBackendErrorOf(helpdesk, e)) ... }
 */
export function isBackendErrorOf<A extends AppWithErrors>(app: A, e: unknown): e is BackendErrorOf<A> {
  return (
    e instanceof BackendError &&
    ((BUILTIN_ERROR_CODES as readonly string[]).includes(e.code) || Object.hasOwn(app.errors, e.code))
  );
}

type AppWithErrors = { errors: Record<string, unknown> };
