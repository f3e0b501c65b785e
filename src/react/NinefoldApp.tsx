import { Center, createTheme, Loader, localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import type { Backend, Row, Session } from '../backend/types.ts';
import { routeTable } from '../runtime/routeTable.ts';
import { ui } from '../runtime/uiText.ts';
import type { AppSpec } from '../spec/types.ts';
import { type Components, type DemoAccount, type Runtime, RuntimeContext } from './context.ts';
import { prefetchListScreen, useLiveInvalidation } from './hooks.ts';

// The sign-in screen and the router (with the shell and one chunk per screen kind, see
// AppRouter.tsx) are chunks of their own: a signed-out visit never downloads the router, and a
// signed-in one never downloads the sign-in screen.
const AuthScreen = lazy(() => import('./AuthScreen.tsx').then((m) => ({ default: m.AuthScreen })));
const AppRouter = lazy(() => import('./AppRouter.tsx').then((m) => ({ default: m.AppRouter })));

const screenFallback = (
  <Center mih="40vh">
    <Loader aria-label={ui('loading')} />
  </Center>
);

export interface NinefoldAppProps {
  spec: AppSpec;
  backend: Backend;
  /** Custom screens (by `screen.component`) and field widgets (by field name or type). */
  components?: Components;
  /** Demo accounts to offer on sign-in and in the header (embedded backend). */
  demoAccounts?: readonly DemoAccount[];
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

/** Under Mantine's modals (200) and popovers (300), over the app shell's header (100). */
const TOAST_Z = 190;

const colorSchemeManager = localStorageColorSchemeManager({ key: 'ninefold-color-scheme' });

/**
 * The whole app rendered from a specification, talking only to `backend`.
 *
 * @example
 * createRoot(el).render(<NinefoldApp spec={spec} backend={await createEmbeddedBackend({ spec })} />);
 */
export function NinefoldApp({ spec, backend, components = {}, demoAccounts = [] }: NinefoldAppProps) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { staleTime: 10_000, refetchOnWindowFocus: false, retry: 1 } },
      }),
  );
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
        <SessionGate spec={spec} backend={backend} components={components} demoAccounts={demoAccounts} />
      </QueryClientProvider>
    </MantineProvider>
  );
}

function SessionGate({ spec, backend, components, demoAccounts }: Required<NinefoldAppProps>) {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const client = useQueryClient();
  useEffect(() => {
    let live = true;
    backend.auth.session().then(
      (s) => live && setSession(s),
      () => live && setSession(null),
    );
    const off = backend.auth.onChange((_event, s) => {
      client.clear();
      setSession(s);
    });
    // Another tab signed in, out or switched account: the session is shared (browser storage), so
    // this tab now acts as whoever that is. Follow at once, with that person's navigation and
    // buttons, never acting as someone it does not show. Any storage change re-reads the session
    // (cheap); only a different user or different roles reset the screens.
    const onStorage = () => {
      backend.auth.session().then(
        (s) =>
          live &&
          setSession((old) => {
            const same =
              (old?.user.id ?? null) === (s?.user.id ?? null) &&
              (old?.user.roles ?? []).join() === (s?.user.roles ?? []).join();
            if (same) return old;
            client.clear();
            return s;
          }),
        () => undefined,
      );
    };
    addEventListener('storage', onStorage);
    return () => {
      live = false;
      off();
      removeEventListener('storage', onStorage);
    };
  }, [backend, client]);
  const routes = useMemo(() => routeTable(spec), [spec]);
  const user = useMemo(
    () => (session ? { id: session.user.id, roles: session.user.roles } : null),
    [session],
  );
  const profileEntity = Object.entries(spec.entities).find(([, e]) => e.profile)?.[0];
  const profile = useQuery<Row>({
    queryKey: [profileEntity ?? '', 'row', user?.id ?? ''],
    queryFn: () => backend.data.get(profileEntity ?? '', user?.id ?? ''),
    enabled: Boolean(profileEntity && user),
    retry: false,
  });
  useLiveInvalidation(spec, backend, Boolean(session));
  // The landing list's first page is asked as soon as the person is known (hooks.ts).
  const prefetched = useRef(false);
  useEffect(() => {
    if (!user || prefetched.current) return;
    prefetched.current = true;
    // The list screen's code too, beside the router's (which only asks for it once it renders).
    if (prefetchListScreen(client, { backend, spec, user }, routes.routes, window.location))
      void import('./ListScreen.tsx').catch(() => undefined);
  }, [user, client, backend, spec, routes]);
  const runtime: Runtime = useMemo(
    () => ({
      spec,
      backend,
      routes,
      components,
      session: session ?? null,
      user,
      profile: profile.data ?? null,
      demoAccounts,
    }),
    [spec, backend, routes, components, session, user, profile.data, demoAccounts],
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
      <Suspense fallback={screenFallback}>
        {session ? <AppRouter key={session.user.id} routes={routes.routes} /> : <AuthScreen />}
      </Suspense>
    </RuntimeContext.Provider>
  );
}
