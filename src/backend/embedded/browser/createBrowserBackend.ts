import { sessionKey } from '../../../runtime/appSlug.ts';
import type { Backend, Session } from '../../types.ts';
import { demoPlanFor } from '../demo/demoPlanFor.ts';
import { sessionStore } from '../sessionStore.ts';
import type { BrowserBackend } from './browserBackendTypes.ts';
import { ownerFacade } from './ownerFacade.ts';
import { type Answer, fromWireError, type InitMessage, PORT_METHODS, type Request } from './protocol.ts';
import { appSlug, startBackendWorker } from './startBackendWorker.ts';
import { tabListeners } from './tabListeners.ts';
import { workerLink } from './workerLink.ts';

export { appSlug, startBackendWorker };

/** Port calls that change who is signed in (the token the next calls carry). */
const SESSION_CHANGES = new Set(['auth.signIn', 'auth.signUp', 'auth.signOut']);

export interface BrowserBackendOptions {
  /** The app's specification, sent to the worker as data (the worker resolves it). */
  spec: InitMessage['spec'];
  /** Where the database lives: `idb://ninefold-<app>` by default. */
  dataDir?: string;
  /** Keep a new database in OPFS when the browser can (an existing IndexedDB one stays). */
  preferOpfs?: boolean;
  /** The version the build computed (`embeddedSchema(spec).version`): a return visit only compares it. */
  schemaVersion?: string;
  /**
   * A first visit's snapshot: the leader's worker creates the database from it. A promise (still
   * downloading) holds the worker's `init`, and every call behind it, until it settles.
   */
  loadDataDir?: Blob | Promise<Blob | null | undefined>;
  /** The build's snapshot (absolute URL), for a database a first visit left without files. */
  snapshotUrl?: string;
  /** Create the demo accounts (one per role) when they are missing. */
  seedDemoAccounts?: boolean;
  /**
   * The demo accounts as people, when the app's registered demo completes them (reporting lines,
   * extra accounts): the worker's copy of the spec is a clone without it. Default: one per role.
   */
  demoPeople?: InitMessage['demoPeople'];
  /** The clock the backend checks sessions against (tests); sent with each call. */
  now?: () => Date;
  /** An already started `backendWorker.ts` (the app starts it before React loads). */
  worker?: Worker;
  /** A line for the boot screen while the database is upgraded to this spec. */
  onUpgradeProgress?: (line: string) => void;
  /** Let the upgrade drop fields, entities or history the spec no longer has (`ninefold dev`). */
  allowDestructiveUpgrade?: boolean;
  /** Base URLs of declared calls' services that are not host names, for the worker's outbox deliverer. */
  callDestinations?: Record<string, string>;
}

export type { BrowserBackend, OwnerDb } from './browserBackendTypes.ts';

/** The worker's `init`: the spec and where its database is (ids, channels and options). */
function initMessage(
  options: BrowserBackendOptions,
  slug: string,
  dataDir: string,
  me: string,
  changesName: string,
): InitMessage {
  return {
    type: 'init',
    spec: options.spec,
    dataDir,
    // Tabs with the same id share one database and one leader, so the id names the database.
    id: dataDir === `idb://ninefold-${slug}` ? `ninefold-${slug}` : `ninefold-${slug}:${dataDir}`,
    client: me,
    changes: changesName,
    ...(options.schemaVersion ? { schemaVersion: options.schemaVersion } : {}),
    ...(options.seedDemoAccounts ? { seedDemoAccounts: true } : {}),
    ...(options.demoPeople ? { demoPeople: options.demoPeople } : {}),
    ...(options.preferOpfs ? { preferOpfs: true } : {}),
    ...(options.snapshotUrl ? { snapshotUrl: options.snapshotUrl } : {}),
    ...(options.allowDestructiveUpgrade ? { allowDestructiveUpgrade: true } : {}),
    ...(options.callDestinations ? { callDestinations: options.callDestinations } : {}),
  };
}

/**
 * An answer's value, after what comes with it is applied in this tab: the session token it leaves,
 * the live changes and auth events of the call, the first answer of each kind on the timeline.
 */
function takeAnswer(
  answer: Answer,
  the: {
    path: string;
    token: string | null;
    store: ReturnType<typeof sessionStore>;
    tab: ReturnType<typeof tabListeners>;
    marked: Set<string>;
  },
): unknown {
  const { path, token, store, tab, marked } = the;
  if ('token' in answer) {
    // Only the token this call used is forgotten: another tab may already have stored a new one.
    if (answer.token !== null) store.save(answer.token ?? null);
    else if (store.load() === token) store.save(null);
  }
  for (const c of answer.changes) tab.deliver(c);
  for (const [event, session] of answer.auth) tab.tellAuth(event, session);
  if (!marked.has(path)) {
    // The first answer of each kind on the page's timeline (start-up benchmarks).
    marked.add(path);
    if (path === 'auth.session' || path === 'data.list') performance.mark(`ninefold:first:${path}`);
  }
  if (!answer.ok) throw fromWireError(answer.error);
  return answer.value;
}

/**
 * `auth.session`, asked at once when a token is stored: a return visit's first question (who is
 * signed in?) goes before the database is even open, and the worker answers it the moment it is
 * ready, while the UI's code still loads. The UI's first `auth.session()` takes this answer, if the
 * token is still the one it was asked with.
 */
function earlySession(
  ask: () => Promise<Session | null>,
  store: ReturnType<typeof sessionStore>,
  askedWith: string | null,
): () => Promise<Session | null> {
  let early: Promise<Session | null> | undefined = askedWith ? ask() : undefined;
  early?.catch(() => undefined);
  return () => {
    const first = early;
    early = undefined;
    return first && store.load() === askedWith ? first : ask();
  };
}

/** A port whose every method is one call to the worker (`data.list` → `call('data.list', args)`). */
function portOf(call: (path: string, args: unknown[]) => Promise<unknown>) {
  return <T extends object>(name: string, methods: readonly string[]): T =>
    Object.fromEntries(methods.map((m) => [m, (...args: unknown[]) => call(`${name}.${m}`, args)])) as T;
}

/**
 * The embedded backend in a browser tab: the backend itself runs in a worker next to PGlite
 * (`serveBackend.ts`); this tab sends one message per port call and gets one answer. The workers of
 * the app's tabs elect one leader that holds the database (IndexedDB at `idb://ninefold-<app>`
 * unless `dataDir` says otherwise); the session token stays in this tab's localStorage (shared by
 * the app's tabs, so a reload stays signed in) and goes with each call. Live changes: the caller
 * hears its own in the answer, the other tabs on the app's BroadcastChannel.
 *
 * @example
 * const backend = await createBrowserBackend({ spec: helpdesk });
 */
export async function createBrowserBackend(options: BrowserBackendOptions): Promise<BrowserBackend> {
  const { backend, ready } = connectBrowserBackend(options);
  await ready;
  return backend;
}

/**
 * The same backend, returned at once: its calls wait in the worker until the database is open, so
 * the tab can render (a return visit's remembered first page, the sign-in screen) while PGlite
 * starts. `ready` settles when the worker is ready, or rejects with why it cannot be (`schema`
 * throws until then).
 *
 * @example
 * const { backend, ready } = connectBrowserBackend({ spec: helpdesk });
 * render(backend); await ready;
 */
export function connectBrowserBackend(options: BrowserBackendOptions): {
  backend: BrowserBackend;
  ready: Promise<BrowserBackend['schema']>;
  /** Whether a session token was stored when it started (someone may still be signed in). */
  signedIn: boolean;
} {
  const slug = appSlug(options.spec);
  const worker = options.worker ?? startBackendWorker(slug);
  const dataDir = options.dataDir ?? `idb://ninefold-${slug}`;
  const me = crypto.randomUUID();
  const store = sessionStore(sessionKey(slug));
  const changesName = `ninefold-${slug}-changes`;
  const tab = tabListeners(changesName, me);
  const init = initMessage(options, slug, dataDir, me, changesName);
  const { ready, request, isLeader } = workerLink(worker, init, options);

  const marked = new Set<string>();
  let sessionChange: Promise<unknown> = Promise.resolve();
  /** Sign-ins and sign-outs on their way (calls wait for them). */
  let changingSession = 0;
  /** One port call: one request, one answer; the answer's session token, auth events and changes apply here. */
  async function call<T>(path: string, args: unknown[], signal?: AbortSignal): Promise<T> {
    if (SESSION_CHANGES.has(path)) {
      const changing = callNow<T>(path, args);
      changingSession++;
      sessionChange = changing
        .catch(() => undefined)
        .finally(() => {
          changingSession--;
        });
      return changing;
    }
    // A call made while a sign-in (or out) is on its way goes as whoever that leaves signed in:
    // the app may already show the signed-in screens (a demo's first screen, app/main.tsx) and
    // their reads must not go out with no token. Otherwise it goes now (see sendAfterInit).
    if (changingSession > 0) await sessionChange;
    signal?.throwIfAborted();
    return callNow<T>(path, args, signal);
  }
  async function callNow<T>(path: string, args: unknown[], signal?: AbortSignal): Promise<T> {
    const token = store.load();
    const answer = await request(
      {
        kind: 'call',
        path,
        args,
        token,
        now: options.now ? options.now().getTime() : null,
      },
      signal,
    );
    return takeAnswer(answer, { path, token, store, tab, marked }) as T;
  }
  const unwrap = async (r: Request) => {
    const a = await request(r);
    if (!a.ok) throw fromWireError(a.error);
    return a.value;
  };

  const { asOwner, db } = ownerFacade(unwrap);

  const askedWith = store.load();
  const session = earlySession(() => call<Session | null>('auth.session', []), store, askedWith);

  let schema: BrowserBackend['schema'] | undefined;
  /** The spec the worker runs (a respec replaces it): the demo is planned for it. */
  let spec = options.spec;
  ready.then(
    (s) => {
      schema = s;
    },
    () => undefined,
  );
  const port = portOf(call);

  const backend: BrowserBackend = {
    kind: 'embedded',
    get schema() {
      if (!schema) throw new Error('The embedded backend is not ready yet.');
      return schema;
    },
    isLeader,
    auth: {
      ...port<Pick<Backend['auth'], 'signUp' | 'signIn' | 'signOut' | 'session'>>('auth', PORT_METHODS.auth),
      session,
      onChange: (listener) => tab.onAuth(listener),
    },
    data: {
      ...port<Backend['data']>('data', PORT_METHODS.data),
      // The options (an AbortSignal) stay in the tab: a signal cannot cross to the worker.
      list: (entity, query, options) => call('data.list', [entity, query], options?.signal),
    },
    files: port('files', PORT_METHODS.files),
    calls: port('calls', PORT_METHODS.calls),
    admin: port('admin', PORT_METHODS.admin),
    live: {
      subscribe: (target, fn) => tab.subscribe(target.entity, target.id, fn),
    },
    outbox: () => call('backend.outbox', []),
    // The worker's copy of the spec lost the app's registered demo in the structured clone (functions
    // do not cross), so this tab, which has it, plans the demo data and sends it as data.
    resetDemo: () => call('backend.resetDemo', [demoPlanFor(spec, options.now?.() ?? new Date())]),
    async respec(next) {
      schema = (await unwrap({ kind: 'respec', spec: next })) as BrowserBackend['schema'];
      spec = next;
      return schema;
    },
    exportDatabase: () => call('backend.exportDatabase', []),
    asOwner,
    db,
    async close() {
      tab.close();
      worker.terminate();
    },
  };
  return { backend, ready, signedIn: askedWith !== null };
}
