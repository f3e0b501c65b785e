import type { AppSpec } from '../../../spec/types.ts';
import { type AuthEvent, BackendError, type Change, type Session } from '../../types.ts';
import type { DemoPerson } from '../demo/demoPlan.ts';

/**
 * The messages between a tab and the backend's worker (`backendWorker.ts`). One port call is one
 * request and one answer; an owner transaction (setup and test hooks only) is a request per
 * statement. Only data crosses: the spec, arguments, rows, bytes, and errors as catalogue codes.
 */

/**
 * The port methods a tab may call: every data-carrying method of the Backend ports (none that takes
 * a callback: `auth.onChange` and `live` stay in the tab), plus the embedded extras. Both sides use
 * this list, so a method added to a port is added here once.
 */
export const PORT_METHODS = {
  auth: ['signUp', 'signIn', 'signOut', 'session'],
  data: ['list', 'get', 'create', 'update', 'delete', 'transition', 'history'],
  files: ['upload', 'download', 'remove'],
  calls: ['invoke'],
  admin: ['listUsers', 'setRoles', 'roleHolders'],
  backend: ['outbox', 'resetDemo', 'exportDatabase'],
} as const satisfies Record<string, readonly string[]>;

/** Sent once by the tab when it starts the worker. */
export interface InitMessage {
  type: 'init';
  spec: AppSpec;
  /** `idb://…` (IndexedDB) or `memfs2opfs://…` (OPFS); names the database. */
  dataDir: string;
  /** A new database goes to OPFS when the worker can (openWorkerDatabase.ts); an existing one stays. */
  preferOpfs?: boolean;
  /** Tabs with the same id share one database and elect one leader. */
  id: string;
  /** The tab's id: its own changes come back tagged with it on the channel, and it skips them. */
  client: string;
  /** The app's live-change BroadcastChannel (every tab listens on it). */
  changes: string;
  /** The version the build computed: a return visit only compares it. */
  schemaVersion?: string;
  /** A snapshot to create the database from on a first visit. */
  loadDataDir?: Blob;
  /**
   * Where the build's snapshot is served: the worker fetches it itself when the database exists but
   * holds no files (a first visit left before its unpack reached storage), instead of an empty initdb.
   */
  snapshotUrl?: string;
  /** Create the demo accounts (one per role) when missing. */
  seedDemoAccounts?: boolean;
  /**
   * The demo accounts as people, planned in the tab: the worker's copy of the spec is a clone
   * without the app's registered demo (`AppDemo.people`, `accounts`: reporting lines, extra accounts).
   */
  demoPeople?: DemoPerson[];
  /** Let the schema upgrade drop what the spec no longer has (`ninefold dev`). */
  allowDestructiveUpgrade?: boolean;
  /** Base URLs of declared calls' services that are not host names (the outbox deliverer's). */
  callDestinations?: Record<string, string>;
}

/** What the tab asks: a port call (`data.create`), or a step of an owner transaction. */
export type Request =
  | {
      kind: 'call';
      /** `port.method` (`data.list`), or `backend.outbox` / `backend.resetDemo` / `backend.exportDatabase`. */
      path: string;
      args: unknown[];
      /** The tab's session token (the tab keeps it, in localStorage), or null when signed out. */
      token: string | null;
      /** The tab's clock, when it has its own (tests); else the worker's. */
      now: number | null;
    }
  /**
   * The app's specification changed (the studio's live app): the leader upgrades its open database
   * with the planner and runs the new spec from the next call on, or answers SCHEMA_CHANGED and
   * keeps the old one. Answered with the new schema.
   */
  | { kind: 'respec'; spec: AppSpec }
  | { kind: 'owner-begin' }
  | { kind: 'owner-query'; tx: number; sql: string; params: unknown[]; exec: boolean }
  | { kind: 'owner-end'; tx: number; commit: boolean };

export interface WireError {
  code: string;
  params: Record<string, unknown>;
  field?: string;
  message: string;
}

export type Answer =
  | {
      ok: true;
      value: unknown;
      /** Present when the call changed the session token (signed in, out, or it expired). */
      token?: string | null;
      auth: [AuthEvent, Session | null][];
      changes: Change[];
    }
  | {
      ok: false;
      error: WireError;
      token?: string | null;
      auth: [AuthEvent, Session | null][];
      changes: Change[];
    };

/** Worker → its tab. */
export type WorkerMessage =
  | {
      type: 'ready';
      schema: { version: string; outcome: 'created' | 'unchanged' | 'upgraded' };
      /** The worker's start-up marks (workerMarks.ts), absolute times. */
      marks?: { name: string; at: number }[];
    }
  | { type: 'failed'; error: WireError }
  | { type: 'leader' }
  /** The leader is upgrading the database to this spec (a line for the boot screen). */
  | { type: 'progress'; line: string }
  | { type: 'answer'; seq: number; answer: Answer };

/** Port calls the tab may call off (reads: dropping one unanswered changes nothing). */
export const CANCELLABLE = new Set(['data.list']);

/**
 * Tab → its worker. `cancel`: the tab no longer waits for that request's answer; a read
 * (`CANCELLABLE`) that has not started is dropped, anything else runs as sent.
 */
export type TabMessage =
  | InitMessage
  | { type: 'request'; seq: number; request: Request }
  | { type: 'cancel'; seq: number };

/** The change as it crosses to other tabs: `origin` is the tab that made it (it heard it already). */
export type BroadcastChange = Change & { origin?: string };

/**
 * Any failure as data: a BackendError keeps its code, params and field; anything else is
 * `INTERNAL` (the UI's generic message), with the original message for the console.
 */
export function toWireError(e: unknown): WireError {
  if (e instanceof BackendError)
    return {
      code: e.code,
      params: JSON.parse(JSON.stringify(e.params ?? {})) as Record<string, unknown>,
      ...(e.field ? { field: e.field } : {}),
      message: e.message,
    };
  return { code: 'INTERNAL', params: {}, message: e instanceof Error ? e.message : String(e) };
}

/** The tab side: the BackendError the worker sent. */
export function fromWireError(w: WireError): BackendError {
  const e = new BackendError(w.code, w.params, w.field);
  if (w.message !== w.code) Object.assign(e, { cause: w.message });
  return e;
}
