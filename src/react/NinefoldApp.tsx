import { Center, createTheme, Loader, localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { QueryClient, QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Backend, Row, Session } from '../backend/types.ts';
import type { AppModel } from '../model/appModel.ts';
import { modelOf, type SpecOrModel } from '../model/modelOf.ts';
import {
  confirmDemoClick,
  forgetStart,
  type RememberedStart,
  rememberDemoClick,
  type StartMemoryTarget,
} from '../runtime/rememberedStart.ts';
import { type RouteTable, routeTable } from '../runtime/routeTable.ts';
import { onNextScreenDrawn, screenComing } from '../runtime/screenPreview.ts';
import { ui } from '../runtime/uiText.ts';
import {
  type AppCore,
  AppCoreContext,
  type Components,
  type DemoAccount,
  type Runtime,
  RuntimeContext,
} from './context.ts';
import { prefetchListScreen, useLiveInvalidation } from './hooks.ts';
import { lazyComponent } from './lazyComponent.ts';
import { Notifications } from './Notifications.tsx';
import { retryRead } from './retryRead.ts';
import { hydrateRemembered, useRememberStart } from './startMemory.ts';

// The sign-in screen and the router (with the shell and one chunk per screen kind, see
// AppRouter.tsx) are chunks of their own: a signed-out visit never downloads the router, and a
// signed-in one never downloads the sign-in screen.
const AuthScreen = lazyComponent(() => import('./AuthScreen.tsx').then((m) => m.AuthScreen));
const AppRouter = lazyComponent(() => import('./AppRouter.tsx').then((m) => m.AppRouter));

/** The signed-in app's code: the router, and the list screen too when a demo's first screen is one. */
function preloadSignedIn(list: boolean): Promise<unknown> {
  return Promise.all([
    AppRouter.preload(),
    list ? import('./AppRouter.tsx').then((m) => m.preloadListScreen()) : null,
  ]).catch(() => undefined);
}

/**
 * The code of the screen the app's first render draws, asked before that render (app/renderApp.tsx).
 * Nobody signed in: the sign-in screen's chunk, which the render waits for (the promise), so the
 * screen shows in the render's own commit, not in a retry React holds back (lazyComponent.ts). A
 * remembered person: the router, and the list screen when the page is a list's own path; those
 * are in the first render's own chunk, and the render does not wait (on a busy machine the extra
 * turns before it cost a return visit's live screen 40–90 ms): where one is not here yet, React
 * waits for it inside that render. Never rejects: a chunk that cannot load is the screen's error
 * boundary's to show, as before.
 *
 * @example
 * await preloadFirstScreen(model, remembered, location.pathname);
 */
export function preloadFirstScreen(
  model: AppModel,
  remembered: RememberedStart | null,
  pathname: string,
): Promise<unknown> {
  if (!remembered) return Promise.resolve();
  if (!remembered.session) return AuthScreen.preload().catch(() => undefined);
  const list = [...model.screens.values()].some((s) => s.kind === 'list' && s.route === pathname);
  void preloadSignedIn(list);
  return Promise.resolve();
}

const screenFallback = (
  <Center mih="40vh">
    <Loader aria-label={ui('loading')} />
  </Center>
);

export interface NinefoldAppProps {
  /** The app's specification (or its model): resolved here, once, into the model every screen reads. */
  spec: SpecOrModel;
  backend: Backend;
  /** Custom screens (by `screen.component`) and field widgets (by field name or type). */
  components?: Components;
  /** Demo accounts to offer on sign-in and in the header (embedded backend). */
  demoAccounts?: readonly DemoAccount[];
  /**
   * Where this device keeps a signed-in person's first screen between visits (only for a backend
   * whose data already lives here: the embedded one); absent: nothing is kept.
   */
  startMemory?: StartMemoryTarget | null;
  /**
   * What to show before the backend answers who is signed in: nobody (the sign-in screen), or the
   * remembered person and first screen, replaced by the backend's answers as they arrive.
   */
  remembered?: RememberedStart | null;
  /**
   * On a first visit, while the database is still being unpacked: each demo account's first
   * screens by email (null once they are no use). Embedded builds only.
   */
  demoScreens?: () => Promise<Record<string, RememberedStart> | null>;
}

export const theme = createTheme({
  primaryColor: 'indigo',
  // Shade 7 keeps white-on-primary and primary-on-white above WCAG AA (4.5:1).
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  fontFamily: 'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  headings: { fontWeight: '700' },
  // Icon-only buttons Mantine draws itself need a name for screen readers (axe: button-name).
  // Plain objects, not `Modal.extend(...)`: `.extend` would import Modal, Select and the whole of
  // @mantine/dates into the first chunk just to set a label (they load with the screens using them).
  components: {
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': ui('close') } } },
    Select: { defaultProps: { clearButtonProps: { 'aria-label': ui('clearValue') } } },
    // Mantine keeps every closed combobox's dropdown in the document (hidden, every option drawn,
    // placed by floating-ui on mount, which reads computed styles): a list's six filters cost a
    // long task after its first paint. A dropdown is drawn when it opens (docs/performance.md).
    Combobox: { defaultProps: { keepMounted: false } },
    DateInput: { defaultProps: { clearButtonProps: { 'aria-label': ui('clearValue') } } },
    DateTimePicker: { defaultProps: { clearButtonProps: { 'aria-label': ui('clearValue') } } },
  },
});

/** Mantine's default dimmed grey is below 4.5:1 on light backgrounds; one shade darker passes. */
const contrastVariables = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  // Mantine's dark dimmed grey is about 4.4:1 on the dark body; one step lighter passes.
  dark: { '--mantine-color-dimmed': 'var(--mantine-color-dark-1)' },
});

/**
 * Where toasts appear. Desktop: bottom right, clear of the header (account, demo switch, colour
 * scheme). Phone: a toast spans the screen, and at the bottom it covered the buttons under it (a
 * comment's Send, a dialog's Save); it lies over the header instead, for its few seconds (the
 * header's menus wait; the page, where the person is working, stays free). Always beneath dialogs
 * (Mantine's modals are at z-index 200, toasts at 400 by default): a dialog is never covered.
 */
function Toasts() {
  const phone = useMediaQuery('(max-width: 36em)', false);
  return <Notifications position={phone ? 'top-center' : 'bottom-right'} zIndex={TOAST_Z} />;
}

/** Whether two sessions are the same person with the same roles (null: nobody). */
function samePerson(a: Session | null, b: Session | null): boolean {
  return (
    (a?.user.id ?? null) === (b?.user.id ?? null) &&
    (a?.user.roles ?? []).join() === (b?.user.roles ?? []).join()
  );
}

/** A session shown before the backend confirmed it (remembered, or a demo's first screen): no token. */
function isProvisional(s: Session | null | undefined): s is Session {
  return s !== null && s !== undefined && s.accessToken === '';
}

/** Under Mantine's modals (200) and popovers (300), over the app shell's header (100). */
const TOAST_Z = 190;

const colorSchemeManager = localStorageColorSchemeManager({ key: 'ninefold-color-scheme' });

/**
 * The whole app rendered from a specification, talking only to `backend`.
 *
 * @example
 * createRoot(el).render(<NinefoldApp spec={spec} backend={await createEmbeddedBackend({ spec })} />);
 */
export function NinefoldApp({
  spec,
  backend,
  components = {},
  demoAccounts = [],
  startMemory = null,
  remembered = null,
  demoScreens,
}: NinefoldAppProps) {
  const model = useMemo(() => modelOf(spec), [spec]);
  const [client] = useState(() => {
    const c = new QueryClient({
      defaultOptions: { queries: { staleTime: 10_000, refetchOnWindowFocus: false, retry: retryRead } },
    });
    if (remembered?.session) hydrateRemembered(c, remembered.queries, backend);
    return c;
  });
  useRereadOnNewModel(client, model);
  return (
    <MantineProvider
      theme={theme}
      colorSchemeManager={colorSchemeManager}
      // The operating system's preference until the person picks one (kept in localStorage).
      defaultColorScheme="auto"
      cssVariablesResolver={contrastVariables}
    >
      <Toasts />
      <QueryClientProvider client={client}>
        <SessionGate
          model={model}
          backend={backend}
          components={components}
          demoAccounts={demoAccounts}
          startMemory={startMemory}
          remembered={remembered}
          demoScreens={demoScreens}
        />
      </QueryClientProvider>
    </MantineProvider>
  );
}

/**
 * A new spec while mounted (the studio's live app after an edit): every query is read again, since
 * rows may have new fields and the rules that filtered them may have changed. Screens keep their
 * state; the first render is not a change.
 */
function useRereadOnNewModel(client: QueryClient, model: AppModel): void {
  const shown = useRef(model);
  useEffect(() => {
    if (shown.current === model) return;
    shown.current = model;
    void client.invalidateQueries();
  }, [client, model]);
}

type GateProps = Omit<Required<NinefoldAppProps>, 'demoScreens' | 'spec'> &
  Pick<NinefoldAppProps, 'demoScreens'> & { model: AppModel };

function SessionGate(props: GateProps) {
  const { model, backend, components, demoAccounts, startMemory, demoScreens } = props;
  const client = useQueryClient();
  const auth = useSessionState(props);
  const { session } = auth;
  const signInDemo = useDemoSignIn(props, auth);
  useSessionMarks(session);
  const routes = useMemo(() => routeTable(model), [model]);
  const userId = session?.user.id;
  const userRoles = session?.user.roles.join();
  // Keyed by who it is, not by the session object: the remembered session's replacement by the
  // backend's (same person, same roles) must not restart what depends on the user.
  // biome-ignore lint/correctness/useExhaustiveDependencies: id and roles are what the user is
  const user = useMemo(
    () => (session ? { id: session.user.id, roles: session.user.roles } : null),
    [userId, userRoles],
  );
  useRememberStart(client, startMemory, session);
  const profileEntity = model.profile;
  const profile = useQuery<Row>({
    queryKey: [profileEntity ?? '', 'row', user?.id ?? ''],
    queryFn: () => backend.data.get(profileEntity ?? '', user?.id ?? ''),
    enabled: Boolean(profileEntity && user),
    retry: false,
  });
  useLiveInvalidation(model, backend, Boolean(session));
  useEarlyLoads({ model, backend, user, routes: routes.routes, signedOut: session === null, demoScreens });
  const core: AppCore = useMemo(
    () => ({ model, backend, routes, components, user }),
    [model, backend, routes, components, user],
  );
  const runtime: Runtime = useMemo(
    () => ({
      ...core,
      session: session ?? null,
      profile: profile.data ?? null,
      demoAccounts,
      signInDemo,
      authFailure: auth.authFailure,
    }),
    [core, session, profile.data, demoAccounts, signInDemo, auth.authFailure],
  );
  if (session === undefined) {
    return (
      <Center mih="100dvh">
        <Loader aria-label={ui('loading')} />
      </Center>
    );
  }
  return (
    <RuntimeContext.Provider value={runtime}>
      <AppCoreContext value={core}>
        <Suspense fallback={screenFallback}>
          {session ? <AppRouter key={session.user.id} routes={routes.routes} /> : <AuthScreen />}
        </Suspense>
      </AppCoreContext>
    </RuntimeContext.Provider>
  );
}

/** The session on screen and how it changes; see `useSessionState`. */
interface SessionState {
  session: Session | null | undefined;
  /** The session on screen, updated with it (the handlers read it synchronously). */
  current: { current: Session | null | undefined };
  show(s: Session | null): void;
  /** Counts sign-ins started and session changes heard: an older session answer is stale. */
  authEpoch: { current: number };
  authFailure: unknown;
  /**
   * Waits for a demo sign-in whose first screens are already shown (`shown`): confirmed, they
   * are an ordinary signed-in start; refused, the sign-in screen comes back and says why.
   */
  settleDemo(signingIn: Promise<unknown>, shown: boolean): Promise<void>;
}

/**
 * Who is signed in. A remembered person is shown until the backend answers; then the backend's
 * answer counts, and so do its later changes (sign-in, sign-out, another tab's).
 */
function useSessionState({ backend, demoAccounts, startMemory, remembered }: GateProps): SessionState {
  const [session, setSession] = useState<Session | null | undefined>(remembered?.session);
  const current = useRef<Session | null | undefined>(remembered?.session);
  const show = useCallback((s: Session | null) => {
    current.current = s;
    setSession(s);
  }, []);
  const [authFailure, setAuthFailure] = useState<unknown>(null);
  const authEpoch = useRef(0);
  const client = useQueryClient();
  const settleDemo = useCallback(
    async (signingIn: Promise<unknown>, shown: boolean) => {
      try {
        await signingIn;
        if (shown && startMemory) confirmDemoClick(startMemory);
      } catch (e) {
        if (shown && isProvisional(current.current)) {
          client.clear();
          if (startMemory) forgetStart(startMemory);
          setAuthFailure(e);
          show(null);
        }
        throw e;
      }
    },
    [client, show, startMemory],
  );
  const state = { session, current, show, authEpoch, authFailure, settleDemo };
  useSessionFollow(
    backend,
    startMemory,
    state,
    remembered?.demo ? demoAccounts.find((a) => a.email === remembered.demo) : undefined,
  );
  return state;
}

/**
 * Asks the backend who is signed in (once a resumed demo sign-in has settled), then follows its
 * changes and other tabs'. `resumeDemo`: the demo sign-in a page was left before it was confirmed,
 * resumed once (rememberedStart.ts).
 */
function useSessionFollow(
  backend: Backend,
  startMemory: StartMemoryTarget | null,
  state: SessionState,
  resumeAccount: DemoAccount | undefined,
): void {
  const { current, show, authEpoch, settleDemo } = state;
  const client = useQueryClient();
  const resumed = useRef<Promise<unknown> | null>(null);
  const [resumeDemo] = useState(() => resumeAccount);
  useEffect(() => {
    let live = true;
    if (resumed.current === null) {
      const account = resumeDemo;
      if (account && isProvisional(current.current)) {
        authEpoch.current += 1;
        const signingIn = backend.auth.signIn({ email: account.email, password: account.password });
        resumed.current = settleDemo(signingIn, true).catch(() => undefined);
      } else resumed.current = Promise.resolve();
    }
    // Asked once a resumed demo sign-in has settled (before, the answer would be "nobody").
    const resuming = resumed.current;
    // A sign-in or out started after this question was asked (the screens show before the
    // database answers, so there is time for one) is newer than the answer: it is then ignored.
    const asked = authEpoch.current;
    const confirm = (s: Session | null) => {
      if (authEpoch.current !== asked) return;
      const old = current.current;
      if (old && s && samePerson(old, s)) {
        if (isProvisional(old)) show(s);
        return;
      }
      // Not who was remembered (signed out meanwhile, expired, another person): forget what was
      // shown for them before anything is acted on.
      if (isProvisional(old)) {
        client.clear();
        if (startMemory) forgetStart(startMemory);
      }
      show(s);
    };
    resuming
      .then(() => backend.auth.session())
      .then(
        (s) => live && confirm(s),
        () => live && confirm(null),
      );
    const off = backend.auth.onChange((_event, s) => {
      authEpoch.current += 1;
      const old = current.current;
      // The sign-in a demo's first screen was shown for: the screens stay, the backend now answers.
      if (!(isProvisional(old) && s && samePerson(old, s))) client.clear();
      show(s);
    });
    const offTabs = followOtherTabs(backend, client, current, show, () => live);
    return () => {
      live = false;
      off();
      offTabs();
    };
  }, [backend, client, startMemory, show, settleDemo, resumeDemo, current, authEpoch]);
}

/**
 * Another tab signed in, out or switched account: the session is shared (browser storage), so
 * this tab now acts as whoever that is. Follow at once, with that person's navigation and
 * buttons, never acting as someone it does not show. Any storage change re-reads the session
 * (cheap); only a different user or different roles reset the screens.
 */
function followOtherTabs(
  backend: Backend,
  client: QueryClient,
  current: { current: Session | null | undefined },
  show: (s: Session | null) => void,
  live: () => boolean,
): () => void {
  const onStorage = () => {
    backend.auth.session().then(
      (s) => {
        if (!live() || samePerson(current.current ?? null, s)) return;
        client.clear();
        show(s);
      },
      () => undefined,
    );
  };
  addEventListener('storage', onStorage);
  return () => removeEventListener('storage', onStorage);
}

/**
 * A demo account's sign-in. On a first visit its first screens (worked out at build time on this
 * snapshot, src/react/demoScreens.ts) show while the database is still being unpacked; the
 * sign-in itself still waits for it, and the calls the screens make wait for the sign-in.
 */
function useDemoSignIn(
  { backend, startMemory, demoScreens }: GateProps,
  { current, show, authEpoch, settleDemo }: SessionState,
): (account: DemoAccount) => Promise<void> {
  const client = useQueryClient();
  return useCallback(
    async (account: DemoAccount) => {
      let settled = false;
      authEpoch.current += 1;
      // Its first screens, when the build has them, are drawn before the held worker starts.
      let drawnOrNot: () => void = () => undefined;
      if (demoScreens) screenComing(new Promise<void>((resolve) => (drawnOrNot = resolve)));
      // The signed-in screens' code is asked now, beside the demo's first screens: a click that
      // comes before the sign-in screen's idle preload (below) would otherwise wait for the demo
      // screens' chunk, then the router's, then the list's, one after the other.
      void preloadSignedIn(Boolean(demoScreens));
      const signingIn = backend.auth.signIn({ email: account.email, password: account.password });
      signingIn.then(
        () => {
          settled = true;
        },
        () => {
          settled = true;
        },
      );
      const start = demoScreens ? (await demoScreens().catch(() => null))?.[account.email] : undefined;
      let shown = false;
      if (start?.session && !settled && current.current === null) {
        hydrateRemembered(client, start.queries, backend);
        // A transition, as the app's first render: the signed-in shell and its list are drawn in
        // slices, not in one task of 100 ms and more after the click.
        const session = start.session;
        onNextScreenDrawn(drawnOrNot);
        startTransition(() => show(session));
        // Left before the database confirms it, the next visit signs this account in again.
        if (startMemory) rememberDemoClick(startMemory, account.email, start);
        shown = true;
      } else drawnOrNot();
      await settleDemo(signingIn, shown);
    },
    [backend, client, demoScreens, show, settleDemo, startMemory, current, authEpoch],
  );
}

/**
 * Who the screens are for, and whether the backend has confirmed it yet, on the page's root
 * element: scripts driving the app (end-to-end tests, benchmarks) wait for "confirmed" before
 * acting as that person, e.g. before reloading right after a demo click.
 */
function useSessionMarks(session: Session | null | undefined): void {
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.ninefoldSession =
      session === undefined
        ? 'unknown'
        : session === null
          ? 'none'
          : isProvisional(session)
            ? 'provisional'
            : 'confirmed';
    root.dataset.ninefoldUser = session?.user.email ?? '';
  }, [session]);
}

/**
 * Code and rows asked before they are needed. Signed in: the landing list's first page as soon as
 * the person is known (hooks.ts), with the list screen's code. On the sign-in screen: the
 * signed-in app's code while the person is still deciding (the sign-in then waits only for the
 * database, not for the router's chunk as well); on a first visit, the demo accounts' first
 * screens and the list screen's code too, so a demo click paints its rows without a round trip.
 */
function useEarlyLoads(p: {
  model: AppModel;
  backend: Backend;
  user: AppCore['user'];
  routes: RouteTable['routes'];
  signedOut: boolean;
  demoScreens: NinefoldAppProps['demoScreens'];
}): void {
  const { model, backend, user, routes, signedOut, demoScreens } = p;
  const client = useQueryClient();
  const prefetched = useRef(false);
  useEffect(() => {
    if (!user || prefetched.current) return;
    prefetched.current = true;
    // The list screen's code too, beside the router's (which only asks for it once it renders).
    if (prefetchListScreen(client, { backend, model, user }, routes, window.location))
      void preloadSignedIn(true);
  }, [user, client, backend, model, routes]);
  useEffect(() => {
    if (!signedOut) return;
    const t = setTimeout(() => {
      void preloadSignedIn(false);
      if (!demoScreens) return;
      void demoScreens()
        .then((screens) => screens && preloadSignedIn(true))
        .catch(() => undefined);
    }, 200);
    return () => clearTimeout(t);
  }, [signedOut, demoScreens]);
}
