import type { PGliteInterface, Transaction } from '@electric-sql/pglite';
import type { AppModel } from '../../model/appModel.ts';
import { modelOf, type SpecOrModel } from '../../model/modelOf.ts';
import type { DeliveryReport } from '../../outbox/deliver.ts';
import { appSlug, sessionKey } from '../../runtime/appSlug.ts';
import { errorContext } from '../errors/mapDatabaseError.ts';
import type { AuthEvent, Backend, Session } from '../types.ts';
import { createAdminPort } from './admin.ts';
import { createAuthPort } from './auth.ts';
import { bootSchema } from './boot.ts';
import { createCallsPort } from './calls.ts';
import type { CallHandler, EmbeddedContext } from './context.ts';
import { createDataPort } from './data.ts';
import type { DemoPlan } from './demo/demoPlan.ts';
import { demoPlanFor } from './demo/demoPlanFor.ts';
import { seedDemo, wipeAppData } from './demo/seedDemo.ts';
import { createFilesPort } from './files.ts';
import { createLive, type Live } from './live.ts';
import {
  deliverEmbeddedOutbox,
  type OutboxDeliveryOptions,
  type OutboxEntry,
  reachableCalls,
  readOutbox,
} from './outbox.ts';
import { pgliteExtensions } from './pgliteExtensions.ts';
import { pgliteSettings } from './pgliteSettings.ts';
import { asOwner } from './request.ts';
import { type SessionStore, sessionStore } from './sessionStore.ts';
import { snapshotBlob } from './snapshotBlob.ts';
import { runDueTransitionsEvery } from './timed.ts';

export interface EmbeddedBackendOptions {
  spec: SpecOrModel;
  /** Where PGlite keeps its files: `memory://` by default in Node, `idb://ninefold-<app>` in the browser. */
  dataDir?: string;
  /** An already running PGlite-like database (e.g. `PGliteWorker` in the browser); `dataDir` is then ignored. */
  db?: PGliteInterface;
  /** Local stand-ins for declared calls, by call name. Calls without one are recorded in the outbox. */
  handlers?: Record<string, CallHandler>;
  /**
   * Delivery of the outbox (the calls transitions queued): where services live, the retry policy,
   * and `intervalMs` to deliver in the background (the tab's worker does; off by default).
   */
  outbox?: OutboxDeliveryOptions & { intervalMs?: number };
  /** The clock (sessions expire by it; transitions that happen by time run by it). */
  now?: () => Date;
  /**
   * How often transitions that happen by time run while the backend is open, besides before every
   * call (default 60 s; 0: only before calls). Only apps with such transitions run a timer.
   */
  timedIntervalMs?: number;
  /** Session lifetime, default 7 days. */
  sessionTtlMs?: number;
  /**
   * The schema version the build computed (`embeddedSchema(spec).version`): when the database
   * already has it, boot does one read and does not compile the migration.
   */
  schemaVersion?: string;
  /**
   * A data directory to start from (`buildSnapshot(spec).tarball`, or an export) when the backend
   * creates the database: no initdb, no migration (only the version check). Ignored with `db`.
   */
  loadDataDir?: Blob;
  /** Shown on the boot screen while a database from an older version of the spec is upgraded. */
  onUpgradeProgress?: (line: string) => void;
  /** Let the upgrade drop fields, entities or history the spec no longer has (`ninefold dev`). */
  allowDestructiveUpgrade?: boolean;
  /** Where the session token is kept (default: localStorage in a tab, memory elsewhere). */
  store?: SessionStore;
  /** The live channel (default: this process's listeners plus BroadcastChannel to other tabs). */
  live?: Live;
}

export interface EmbeddedBackend extends Backend {
  readonly kind: 'embedded';
  /** The schema version (SHA-256 of the applied SQL) and what booting did. */
  readonly schema: { version: string; outcome: 'created' | 'unchanged' | 'upgraded' };
  /** The database, for setup code (demo seeding) and tests. */
  readonly db: PGliteInterface;
  /** Requests the declared calls recorded and their delivery state (admins only, by row-level security). */
  outbox(): Promise<OutboxEntry[]>;
  /** One delivery round of the outbox now (what `outbox.intervalMs` runs in the background). */
  deliverOutbox(): Promise<DeliveryReport>;
  /** A gzip'd tarball of the whole database. */
  exportDatabase(): Promise<Blob>;
  /** Replaces the database with an exported one (only when this backend created the database). */
  importDatabase(data: Blob | Uint8Array): Promise<void>;
  /**
   * Replaces every user and row with the app's deterministic demo data (demo accounts
   * `<role>@demo.test` / `demo-<role>`), and signs out.
   */
  /** Wipes the app's data and seeds the demo: `plan`, or the one the spec's registered demo makes. */
  resetDemo(plan?: DemoPlan): Promise<void>;
  /** Runs owner-level setup SQL (demo data). Not for user actions. */
  asOwner: <T>(fn: (tx: Transaction) => Promise<T>) => Promise<T>;
}

export { appSlug };

function defaultDataDir(model: AppModel): string {
  return typeof indexedDB !== 'undefined' && typeof window !== 'undefined'
    ? `idb://ninefold-${appSlug(model)}`
    : 'memory://';
}

/**
 * The embedded backend: real Postgres (PGlite) with the app's migration, Supabase-like auth and
 * every data request run as the signed-in role, so the same rules hold as on the hosted backend.
 *
 * @example
 * const backend = await createEmbeddedBackend({ spec: helpdesk });
 * await backend.auth.signIn({ email: 'agent@demo.test', password: 'demo-agent' });
 * const { rows } = await backend.data.list('ticket', { sort: [{ field: 'createdAt', direction: 'desc' }] });
 */
export async function createEmbeddedBackend(options: EmbeddedBackendOptions): Promise<EmbeddedBackend> {
  const model = modelOf(options.spec);
  const slug = appSlug(model);
  const owned = !options.db;
  const dataDir = options.dataDir ?? defaultDataDir(model);
  // Loaded lazily: a browser build hands in a PGliteWorker and need not ship PGlite twice.
  const open = (loadDataDir?: Blob) => openPglite(dataDir, loadDataDir);
  let db: PGliteInterface = options.db ?? (await open(options.loadDataDir));
  const bootOptions = {
    ...(options.schemaVersion !== undefined ? { knownVersion: options.schemaVersion } : {}),
    ...(options.onUpgradeProgress ? { onProgress: options.onUpgradeProgress } : {}),
    allowDestructive: options.allowDestructiveUpgrade === true,
  };
  let schema = await bootSchema(db, model, bootOptions);

  const authListeners = new Set<(e: AuthEvent, s: Session | null) => void>();
  const live = options.live ?? createLive(`ninefold-${slug}-changes`);
  const ctx = contextOf(options, model, db, live, authListeners);

  const auth = createAuthPort(ctx, authListeners);
  // One round at a time: a slow service must not pile rounds up (the claim's lease would cover a
  // second round anyway, but there is no point in it).
  let delivering: Promise<DeliveryReport> | null = null;
  const deliverOutbox = () => {
    delivering ??= deliverEmbeddedOutbox(db, model, options.outbox ?? {}).finally(() => {
      delivering = null;
    });
    return delivering;
  };
  const interval = options.outbox?.intervalMs;
  const timer =
    interval !== undefined && reachableCalls(model, options.outbox?.destinations).length > 0
      ? setInterval(() => {
          // A failed round (database busy or closed) is simply the next round's work.
          deliverOutbox().catch(() => {});
        }, interval)
      : null;
  const stopTimed = runDueTransitionsEvery(ctx, options.timedIntervalMs ?? 60_000);
  const refreshOwnSession = async () => {
    const s = await auth.session();
    if (s) ctx.emitAuth('USER_UPDATED', s);
  };

  return {
    kind: 'embedded',
    get schema() {
      return schema;
    },
    get db() {
      return db;
    },
    auth,
    data: createDataPort(ctx),
    files: createFilesPort(ctx),
    live: live.port,
    calls: createCallsPort(ctx),
    admin: createAdminPort(ctx, refreshOwnSession),
    outbox: () => readOutbox(ctx),
    deliverOutbox,
    asOwner: (fn) => asOwner(ctx, fn),
    async resetDemo(given?: DemoPlan) {
      // A backend in a worker gets its spec by structured clone, without the app's registered demo
      // (functions do not cross): the tab plans the demo and sends it (createBrowserBackend.ts).
      const plan = given ?? demoPlanFor(model, ctx.now());
      await asOwner(ctx, async (tx) => {
        await wipeAppData(tx, ctx.model);
        await seedDemo(tx, ctx.model, plan);
      });
      signOutLocally(ctx);
      for (const entity of model.tables.keys()) live.emit({ entity, id: '*', kind: 'delete' });
    },
    async exportDatabase() {
      const dump = await db.dumpDataDir('gzip');
      return dump;
    },
    async importDatabase(data) {
      if (!owned)
        throw new Error('importDatabase: the database was given to the backend; import where it was created');
      const blob = data instanceof Blob ? data : new Blob([data as BlobPart]);
      await db.close();
      // A loaded data directory must start empty; memory:// always does.
      db = await open(blob);
      ctx.db = db;
      schema = await bootSchema(db, model, bootOptions);
      signOutLocally(ctx);
    },
    async close() {
      if (timer) clearInterval(timer);
      stopTimed();
      await delivering?.catch(() => {});
      live.close();
      authListeners.clear();
      if (owned) await db.close();
    },
  };
}

/** A PGlite in `dataDir`, or started from a data directory (a snapshot or an export). */
async function openPglite(dataDir: string, loadDataDir?: Blob): Promise<PGliteInterface> {
  const { PGlite } = await import('@electric-sql/pglite');
  return PGlite.create(loadDataDir && !dataDir.startsWith('idb://') ? 'memory://' : dataDir, {
    extensions: pgliteExtensions,
    startParams: [...PGlite.defaultStartParams, ...pgliteSettings],
    ...(loadDataDir ? { loadDataDir: await snapshotBlob(loadDataDir) } : {}),
  });
}

/** What every port shares: the database, the model, the clock, the session and the event outlets. */
function contextOf(
  options: EmbeddedBackendOptions,
  model: AppModel,
  db: PGliteInterface,
  live: Live,
  authListeners: ReadonlySet<(e: AuthEvent, s: Session | null) => void>,
): EmbeddedContext {
  return {
    db,
    model,
    errors: errorContext(model),
    now: options.now ?? (() => new Date()),
    sessionTtlMs: options.sessionTtlMs ?? 7 * 24 * 3600 * 1000,
    store: options.store ?? sessionStore(sessionKey(appSlug(model))),
    current: { token: null, session: null },
    emitAuth: (event, session) => {
      for (const l of [...authListeners]) {
        try {
          l(event, session);
        } catch {
          // Listeners belong to the UI; their failures are not the backend's.
        }
      }
    },
    emitChange: (change) => live.emit(change),
    handlers: options.handlers ?? {},
  };
}

/** The database's users are gone (a demo reset, an import): this tab's session with them. */
function signOutLocally(ctx: EmbeddedContext): void {
  ctx.current = { token: null, session: null };
  ctx.store.save(null);
  ctx.emitAuth('SIGNED_OUT', null);
}
