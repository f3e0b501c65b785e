import { Center, createTheme, Loader, localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { createBrowserRouter, type RouteObject, RouterProvider, useParams } from 'react-router';
import type { Backend, Row, Session } from '../backend/types.ts';
import { type RouteEntry, routeTable } from '../runtime/routeTable.ts';
import { ui } from '../runtime/uiText.ts';
import type { AppSpec } from '../spec/types.ts';
import { AdminScreen } from './AdminScreen.tsx';
import { AuthScreen } from './AuthScreen.tsx';
import { BoardScreen } from './BoardScreen.tsx';
import { type Components, type DemoAccount, type Runtime, RuntimeContext, useRuntime } from './context.ts';
import { DashboardScreen } from './DashboardScreen.tsx';
import { DetailScreen } from './DetailScreen.tsx';
import { FormScreen } from './FormScreen.tsx';
import { useLiveInvalidation } from './hooks.ts';
import { ListScreen } from './ListScreen.tsx';
import { NotFoundPage } from './pages.tsx';
import { Shell } from './Shell.tsx';

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
});

/** Mantine's default dimmed grey is below 4.5:1 on light backgrounds; one shade darker passes. */
const contrastVariables = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
});

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
      defaultColorScheme="light"
      cssVariablesResolver={contrastVariables}
    >
      <Notifications position="top-right" />
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
    return () => {
      live = false;
      off();
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
      {session ? <AppRouter key={session.user.id} routes={routes.routes} /> : <AuthScreen />}
    </RuntimeContext.Provider>
  );
}

function AppRouter({ routes }: { routes: RouteEntry[] }) {
  const router = useMemo(() => {
    const children: RouteObject[] = routes.map((r) => ({
      path: r.path,
      element: <Screen route={r} />,
    }));
    children.push({ path: '*', element: <NotFoundPage /> });
    return createBrowserRouter([{ element: <Shell />, children }]);
  }, [routes]);
  return <RouterProvider router={router} />;
}

function Screen({ route }: { route: RouteEntry }) {
  const runtime = useRuntime();
  const params = useParams();
  const screen = runtime.spec.screens[route.name];
  useEffect(() => {
    document.title = `${route.title} · ${runtime.spec.purpose.name}`;
  }, [route.title, runtime.spec.purpose.name]);
  const custom = screen?.component ? runtime.components.screens?.[screen.component] : undefined;
  if (custom) {
    const Custom = custom;
    return (
      <Custom
        spec={runtime.spec}
        backend={runtime.backend}
        route={route}
        params={params}
        user={runtime.user}
      />
    );
  }
  switch (route.kind) {
    case 'list':
      return <ListScreen key={route.name} route={route} />;
    case 'detail':
      return <DetailScreen key={`${route.name}:${params.id ?? ''}`} route={route} />;
    case 'form':
      return <FormScreen key={`${route.name}:${params.id ?? ''}`} route={route} />;
    case 'board':
      return <BoardScreen route={route} />;
    case 'dashboard':
      return <DashboardScreen route={route} />;
    case 'admin':
      return <AdminScreen route={route} />;
    default:
      return <NotFoundPage message={ui('missingComponent', { name: screen?.component ?? route.name })} />;
  }
}
