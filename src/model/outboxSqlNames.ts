/** The names the migration gives the outbox table's constraint, indexes and policy (unquoted). */
export const OUTBOX_SQL_NAMES = {
  /** `app.outbox`. */
  table: 'app.outbox',
  /** The CHECK on `status`. */
  statusCheck: 'outbox__status',
  /** Calls due for delivery (pending or sending), by `next_attempt_at`. */
  dueIndex: 'outbox__due__idx',
  /** Delivered calls, by `delivered_at` (the retention purge). */
  deliveredIndex: 'outbox__delivered__idx',
  /** Admins read the outbox (to see failures). */
  readPolicy: 'outbox__read',
} as const;
