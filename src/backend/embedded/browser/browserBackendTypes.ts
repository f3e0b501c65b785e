import type { PGliteInterface, Transaction } from '@electric-sql/pglite';
import type { AppSpec } from '../../../spec/types.ts';
import type { Backend } from '../../types.ts';
import type { OutboxEntry } from '../outbox.ts';

// The browser backend's types, apart from createBrowserBackend.ts so that the modules it is built
// from (workerLink, ownerFacade) can name them without an import cycle.

/** Owner access for setup code, benchmarks and tests: statements sent to the worker one by one. */
export type OwnerDb = Pick<PGliteInterface, 'query' | 'exec' | 'transaction'>;

export interface BrowserBackend extends Backend {
  readonly kind: 'embedded';
  readonly schema: { version: string; outcome: 'created' | 'unchanged' | 'upgraded' };
  /** Whether this tab's worker holds the database (one tab does; the others forward to it). */
  isLeader(): boolean;
  outbox(): Promise<OutboxEntry[]>;
  resetDemo(): Promise<void>;
  exportDatabase(): Promise<Blob>;
  /**
   * Runs a new version of the spec on the same open database (the studio's live app): the leader
   * upgrades it with the planner of `ninefold migrate`, keeping every row, or rejects with
   * SCHEMA_CHANGED (its `problems`) and keeps running the previous spec.
   */
  respec(spec: AppSpec): Promise<BrowserBackend['schema']>;
  /** Runs `fn` in one owner transaction in the worker (setup, benchmarks, tests; never user work). */
  asOwner<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  /** The database as the owner, through the worker (setup, benchmarks, tests). */
  readonly db: OwnerDb;
}
