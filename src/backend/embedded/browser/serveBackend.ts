import type { EmbeddedBackend } from '../createEmbeddedBackend.ts';
import { callScope } from './callScope.ts';
import { type LeaderScope, leaderBackend } from './leaderBackend.ts';
import { ownerSteps } from './ownerSteps.ts';
import type { Answer, InitMessage, Request, TabMessage, WireError, WorkerMessage } from './protocol.ts';
import { CANCELLABLE, toWireError } from './protocol.ts';
import { respecRequests } from './respecLeader.ts';
import { markWorker, workerMarks } from './workerMarks.ts';

/** What the worker's global scope offers (typed here: the project's lib is DOM, not WebWorker). */
interface Scope {
  postMessage(message: WorkerMessage): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<TabMessage>) => void): void;
}

/** Worker ↔ worker, on `ninefold-backend:<id>`: the followers' requests and the leader's answers. */
type Peer =
  | { type: 'who-leads' }
  | { type: 'leader-here'; leader: string; schema: EmbeddedBackend['schema'] }
  | { type: 'leader-failed'; error: WireError }
  | { type: 'request'; from: string; seq: number; request: Request }
  | { type: 'response'; to: string; seq: number; answer: Answer };

/** The answer to a read called off before it ran (its tab no longer waits for one). */
const DROPPED: Answer = {
  ok: false,
  error: { code: 'CANCELLED', params: {}, message: 'called off before it ran' },
  auth: [],
  changes: [],
};

/**
 * How the leader runs a request: calls one at a time, a new spec in the same line (after the calls
 * before it, before those after it), owner steps as they come (their transaction holds the
 * database). A read whose tab called it off (`dropped`) before its turn is skipped.
 */
function requestQueue(
  calls: ReturnType<typeof callScope>,
  backendOf: () => EmbeddedBackend | undefined,
  respec: (r: Extract<Request, { kind: 'respec' }>) => Promise<Answer>,
): (r: Request, origin: string, dropped?: () => boolean) => Promise<Answer> {
  let queue: Promise<unknown> = Promise.resolve();
  const ownerStep = ownerSteps(backendOf);
  return (r, origin, dropped) => {
    if (r.kind === 'respec') {
      const next = queue.then(() => respec(r));
      queue = next.catch(() => undefined);
      return next;
    }
    if (r.kind !== 'call') return ownerStep(r);
    const next = queue.then(async () => {
      if (dropped && CANCELLABLE.has(r.path)) {
        // The call before this one ended in a chain of promise callbacks that runs before any
        // message: let the tab's `cancel`s that came meanwhile be read first.
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (dropped()) return DROPPED;
      }
      return calls.run(backendOf(), r, origin);
    });
    queue = next.catch(() => undefined);
    return next;
  };
}

/**
 * This tab's requests run by this worker (the leader): answered to the tab, or called off by it
 * (`cancel`) while running; a request still waiting for another leader is dropped when cancellable.
 */
function ownRequests(
  handle: ReturnType<typeof requestQueue>,
  post: (m: WorkerMessage) => void,
  me: () => string,
) {
  const running = new Set<number>();
  const cancelled = new Set<number>();
  return {
    run(seq: number, r: Request): void {
      running.add(seq);
      void handle(r, me(), () => cancelled.has(seq)).then((answer) => {
        running.delete(seq);
        cancelled.delete(seq);
        post({ type: 'answer', seq, answer });
      });
    },
    cancel(seq: number, waiting: Map<number, Request>): void {
      if (running.has(seq)) cancelled.add(seq);
      // Not run here: the tab no longer waits for it (a leader elsewhere may still answer it).
      else {
        const r = waiting.get(seq);
        if (r?.kind === 'call' && CANCELLABLE.has(r.path)) waiting.delete(seq);
      }
    },
  };
}

/**
 * The embedded backend inside a dedicated worker, next to PGlite: the whole data, auth, files and
 * calls port runs here, and a tab sends one message per port call (`createBrowserBackend.ts`).
 *
 * Every tab of the app starts one such worker; the workers elect a leader with a Web Lock. The
 * leader's worker opens the database (IndexedDB or OPFS; PGlite holds it exclusively) and runs the
 * calls of every tab; the others forward theirs over a BroadcastChannel and relay the answers.
 * When the leader's tab closes its lock is released, the next worker opens the database and the
 * followers send again what was not answered (the old leader's last transaction died with it).
 *
 * Calls run one after the other: the session token, clock and collected events of the call in
 * progress are the worker's (the tab keeps the token and sends it with each call; PGlite runs one
 * transaction at a time anyway). Live changes go to every other tab on the app's change channel,
 * tagged with the tab that caused them, which hears them in its answer instead.
 *
 * @example
 * // backendWorker.ts
 * serveBackend(self as never);
 */
export function serveBackend(scope: Scope): void {
  /** This tab's id (from `init`): requests, answers and the tab's own changes are tagged with it. */
  let me = '';
  let init: InitMessage | undefined;
  let channel: BroadcastChannel | undefined;
  let changes: BroadcastChannel | undefined;
  let backend: EmbeddedBackend | undefined;
  let ready = false;
  /** The worker that leads, as last announced. */
  let leader = '';
  /** This tab's requests not answered yet, while another worker leads. */
  const waiting = new Map<number, Request>();

  const calls = callScope(() => changes);

  const post = (m: WorkerMessage) => scope.postMessage(m);
  const announce = (m: Peer) => channel?.postMessage(m);
  const scopeOf = (): LeaderScope => ({
    store: calls.store,
    live: calls.live,
    now: calls.now,
    progress: (line) => post({ type: 'progress', line }),
  });
  const respec = respecRequests({
    running: () => (backend && init ? { backend, init } : undefined),
    replace: (next) => {
      backend = next;
      backend.auth.onChange(calls.onAuth);
    },
    scope: scopeOf,
  });
  const handle = requestQueue(calls, () => backend, respec);
  const own = ownRequests(handle, post, () => me);
  const handleOwn = own.run;

  async function lead(options: InitMessage): Promise<void> {
    markWorker('leader');
    try {
      backend = await leaderBackend(options, scopeOf());
      markWorker('boot-done');
      backend.auth.onChange(calls.onAuth);
    } catch (e) {
      const error = toWireError(e);
      post({ type: 'failed', error });
      announce({ type: 'leader-failed', error });
      return;
    }
    post({ type: 'leader' });
    becomeReady(backend.schema);
    announce({ type: 'leader-here', leader: me, schema: backend.schema });
    // What this tab asked while another worker led (or nobody did) runs here now.
    for (const [seq, r] of [...waiting]) {
      waiting.delete(seq);
      handleOwn(seq, r);
    }
  }

  function becomeReady(schema: EmbeddedBackend['schema']) {
    if (ready) return;
    ready = true;
    markWorker('ready');
    post({ type: 'ready', schema, marks: workerMarks() });
  }

  function start(options: InitMessage) {
    markWorker('init');
    init = options;
    me = options.client;
    channel = new BroadcastChannel(`ninefold-backend:${options.id}`);
    changes = new BroadcastChannel(options.changes);
    channel.onmessage = (event: MessageEvent<Peer>) => {
      const m = event.data;
      if (m.type === 'who-leads') {
        if (backend) announce({ type: 'leader-here', leader: me, schema: backend.schema });
      } else if (m.type === 'leader-here') {
        // Answers to another worker's question: only a new leader gets the unanswered again.
        if (backend || m.leader === leader) return;
        leader = m.leader;
        becomeReady(m.schema);
        // A new leader: everything not answered goes to it (the old one's died with its tab).
        for (const [seq, request] of waiting) announce({ type: 'request', from: me, seq, request });
      } else if (m.type === 'leader-failed') {
        if (!ready) post({ type: 'failed', error: m.error });
      } else if (m.type === 'request') {
        if (backend)
          void handle(m.request, m.from).then((answer) =>
            announce({ type: 'response', to: m.from, seq: m.seq, answer }),
          );
      } else if (m.type === 'response' && m.to === me && waiting.delete(m.seq)) {
        post({ type: 'answer', seq: m.seq, answer: m.answer });
      }
    };
    // Held until this worker ends (its tab closed): then the next worker in line leads.
    void navigator.locks.request(`ninefold-backend-leader:${options.id}`, () =>
      lead(options).then(() => new Promise<never>(() => undefined)),
    );
    announce({ type: 'who-leads' });
  }

  scope.addEventListener('message', (event) => {
    const m = event.data;
    if (m.type === 'init') {
      if (!init) start(m);
    } else if (m.type === 'request') {
      if (backend) handleOwn(m.seq, m.request);
      else {
        waiting.set(m.seq, m.request);
        if (ready) announce({ type: 'request', from: me, seq: m.seq, request: m.request });
      }
    } else if (m.type === 'cancel') own.cancel(m.seq, waiting);
  });
}
