import type { PGliteInterface } from '@electric-sql/pglite';
import type { AppModel } from '../../model/appModel.ts';
import type { ErrorContext } from '../errors/mapDatabaseError.ts';
import type { AuthEvent, Change, Session } from '../types.ts';
import type { SessionStore } from './sessionStore.ts';

/** A declared call's local stand-in. `ctx.outbox` records what would have been sent. */
export type CallHandler = (
  payload: Record<string, unknown>,
  ctx: { userId: string; outbox: (payload: unknown) => Promise<string> },
) => Promise<unknown>;

/** State shared by the ports of one embedded backend. Internal: the UI never sees it. */
export interface EmbeddedContext {
  db: PGliteInterface;
  model: AppModel;
  errors: ErrorContext;
  now: () => Date;
  sessionTtlMs: number;
  store: SessionStore;
  /** The signed-in session as last read, or null. */
  current: { token: string | null; session: Session | null };
  emitAuth: (event: AuthEvent, session: Session | null) => void;
  /** Notify listeners (here and in other tabs) after a commit. */
  emitChange: (change: Change) => void;
  handlers: Readonly<Record<string, CallHandler>>;
}
