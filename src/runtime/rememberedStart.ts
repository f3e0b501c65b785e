import type { Session } from '../backend/types.ts';

/**
 * Where an app keeps what a signed-in person saw first, between visits: a localStorage key that
 * names the database, and the schema version of the build (another version never matches).
 */
export interface StartMemoryTarget {
  key: string;
  version: string;
}

/** The localStorage key an app (by its slug, `appSlug`) keeps its start under. */
export const startMemoryKey = (slug: string): string => `ninefold-${slug}-start`;

/**
 * The localStorage key of the picture of the screen kept with a start (`startKey`): what the page
 * shows before any script of the app runs (src/runtime/screenPreview.ts); dropped with the start.
 */
export const previewKey = (startKey: string): string => `${startKey}-preview`;

/** What a return visit can show before the database is open. */
export interface RememberedStart {
  /** Who was signed in (no token: the token stays where the backend keeps it); null: nobody. */
  session: Session | null;
  /** The first screen's queries, as TanStack Query's `dehydrate` wrote them; null: none kept. */
  queries: unknown;
  /**
   * A demo account's email whose sign-in the backend had not confirmed when the page was left (a
   * first visit's demo click shows its screens before the database exists): the app signs in again.
   */
  demo?: string;
}

/** One query as TanStack Query's `dehydrate` writes it (only its key is read here). */
interface DehydratedQuery {
  queryKey?: unknown;
}

/**
 * The stored form: one JSON value under the target's key. Each query is kept once however many
 * of the kept screens ask it (a dashboard and the list it links to share the list's page): the
 * whole of localStorage is read from disk at a page's first use of it, before the remembered
 * picture can show, so every kilobyte here delays the return visit.
 */
interface Stored {
  v: 3;
  version: string;
  session: Session;
  /** The last few screens by path (pathname and search), newest first, with the keys (JSON) of their queries. */
  screens: { path: string; keys: string[] }[];
  /** The screens' queries, each once: the newest answer. */
  queries: DehydratedQuery[];
  /** A demo click not yet confirmed by the backend (see `RememberedStart.demo`). */
  demo?: string;
}

/** How many screens are kept: the landing list survives a look at a ticket or two. */
const SCREENS_KEPT = 4;

/** The page's localStorage, or undefined where it is blocked (privacy settings) or absent. */
export function storage(): Storage | undefined {
  try {
    return (globalThis as { localStorage?: Storage }).localStorage;
  } catch {
    // Storage blocked by privacy settings: nothing is remembered.
    return undefined;
  }
}

/** What is stored under the target's key, or null (nothing, unreadable, or storage blocked). */
function readStored(target: StartMemoryTarget): Stored | null {
  try {
    return JSON.parse(storage()?.getItem(target.key) ?? 'null') as Stored | null;
  } catch {
    return null;
  }
}

/**
 * What the app may render at once, before its database answers: nobody, when no session token is
 * stored (the sign-in screen needs no data); the remembered person and first screen, when they
 * were kept for this database and schema and the session has not expired; otherwise null (the
 * app waits for the database's answer, as on a visit with nothing remembered).
 *
 * @example
 * readRememberedStart({ key: 'ninefold-helpdesk-start', version: 'abc' }, true, Date.now());
 * // { session: { user: { id, email, roles }, accessToken: '', expiresAt }, queries: { queries: [...] } }
 */
export function readRememberedStart(
  target: StartMemoryTarget,
  signedIn: boolean,
  now: number,
): RememberedStart | null {
  const stored = readStored(target);
  const usable =
    stored?.v === 3 &&
    stored.version === target.version &&
    typeof stored.session?.user?.id === 'string' &&
    stored.session.expiresAt > now &&
    Array.isArray(stored.screens) &&
    Array.isArray(stored.queries);
  if (!signedIn) {
    // A demo click the page was left before the backend confirmed: that person, signed in again.
    if (usable && typeof stored.demo === 'string') return { ...startOf(stored), demo: stored.demo };
    // Signed out (here or in another tab): whatever was remembered belongs to nobody now.
    forgetStart(target);
    return { session: null, queries: null };
  }
  return usable ? startOf(stored) : null;
}

function startOf(stored: Stored): RememberedStart {
  // One cache for all of them: each query is kept once, with the newest screen's answer.
  return { session: stored.session, queries: { mutations: [], queries: stored.queries } };
}

const keyOf = (q: DehydratedQuery): string => JSON.stringify(q.queryKey ?? null);

/** What `dehydrate` wrote for one screen: its queries. */
function queriesOf(queries: unknown): DehydratedQuery[] {
  const list = (queries as { queries?: unknown } | null)?.queries;
  return Array.isArray(list) ? (list as DehydratedQuery[]) : [];
}

/**
 * The stored form of `screens` (newest first; the newest's queries given, the others' found in
 * `pool`): every query a kept screen asks, once, the newest answer first.
 */
function withPool(
  screens: { path: string; keys: string[] }[],
  fresh: readonly DehydratedQuery[],
  pool: readonly DehydratedQuery[],
): Pick<Stored, 'screens' | 'queries'> {
  const byKey = new Map<string, DehydratedQuery>();
  for (const q of [...fresh, ...pool]) if (!byKey.has(keyOf(q))) byKey.set(keyOf(q), q);
  const queries: DehydratedQuery[] = [];
  const seen = new Set<string>();
  for (const sc of screens)
    for (const k of sc.keys) {
      const q = byKey.get(k);
      if (q && !seen.has(k)) {
        seen.add(k);
        queries.push(q);
      }
    }
  return { screens, queries };
}

/**
 * Keeps a demo click's first screens (`start`, shown before the backend confirmed the sign-in)
 * with the account's email: a page left before the confirmation signs in again on the next visit
 * instead of losing the click. Any later `rememberStart` (the backend's own answers) drops the mark.
 */
export function rememberDemoClick(target: StartMemoryTarget, email: string, start: RememberedStart): void {
  if (!start.session) return;
  const fresh = queriesOf(start.queries);
  write(target, {
    v: 3,
    version: target.version,
    session: { user: start.session.user, accessToken: '', expiresAt: start.session.expiresAt },
    ...withPool(start.queries ? [{ path: '', keys: fresh.map(keyOf) }] : [], fresh, []),
    demo: email,
  });
}

/** The backend confirmed the demo click: what is kept is an ordinary signed-in start now. */
export function confirmDemoClick(target: StartMemoryTarget): void {
  const stored = readStored(target);
  if (stored?.v !== 3 || stored.demo === undefined) return;
  const { demo: _, ...rest } = stored;
  write(target, rest);
}

function write(target: StartMemoryTarget, value: Stored): void {
  try {
    storage()?.setItem(target.key, JSON.stringify(value));
  } catch {
    // Over the quota (or blocked): the next visit waits for the database, as without this.
    forgetStart(target);
  }
}

/**
 * Keeps what the screen at `path` shows (`queries`, as `dehydrate` wrote them) and who `session`
 * is (without the token) for the next visit, beside the last few other screens; too large or
 * blocked: nothing.
 */
export function rememberStart(
  target: StartMemoryTarget,
  session: Session,
  path: string,
  queries: unknown,
): void {
  const old = readStored(target);
  const same =
    old?.v === 3 &&
    old.version === target.version &&
    old.session?.user?.id === session.user.id &&
    Array.isArray(old.screens) &&
    Array.isArray(old.queries);
  const kept = same ? old.screens.filter((sc) => sc.path !== path) : [];
  const fresh = queriesOf(queries);
  const screens = [{ path, keys: fresh.map(keyOf) }, ...kept].slice(0, SCREENS_KEPT);
  write(target, {
    v: 3,
    version: target.version,
    session: { user: session.user, accessToken: '', expiresAt: session.expiresAt },
    ...withPool(screens, fresh, same ? old.queries : []),
  });
}

/** Drops what was remembered unless it is `userId`'s (another person signed in without signing out). */
export function forgetStartUnless(target: StartMemoryTarget, userId: string): void {
  const stored = readStored(target);
  if (stored && stored.session?.user?.id !== userId) forgetStart(target);
}

/** Drops what was remembered (sign-out, another person, a refused session), its picture too. */
export function forgetStart(target: StartMemoryTarget): void {
  try {
    storage()?.removeItem(target.key);
    storage()?.removeItem(previewKey(target.key));
  } catch {
    // Blocked storage held nothing.
  }
}
