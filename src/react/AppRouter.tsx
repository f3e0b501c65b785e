import { Center, Loader } from '@mantine/core';
import { type ReactNode, Suspense, useEffect } from 'react';
import { Redirect, Route, Router, Switch } from 'wouter';
import { rankRoutes } from '../runtime/rankRoutes.ts';
import { effectiveRoles } from '../runtime/roles.ts';
import type { RouteEntry } from '../runtime/routeTable.ts';
import { ui } from '../runtime/uiText.ts';
import { useRuntime } from './context.ts';
import { lazyComponent } from './lazyComponent.ts';
import { useAppLocation, useAppSearch, useParams } from './navigation.ts';
import { ForbiddenPage, NotFoundPage } from './pages.tsx';
import { ScreenErrorBoundary } from './ScreenErrorBoundary.tsx';
import { ScreenShown } from './ScreenShown.tsx';
import { PROFILE_PATH, Shell } from './Shell.tsx';
import { useHeldRoles } from './useHeldRoles.ts';

// One chunk per screen kind: a visit downloads the screens it shows; the rest load on first
// navigation to them.
const AdminScreen = lazyComponent(() => import('./AdminScreen.tsx').then((m) => m.AdminScreen));
const BoardScreen = lazyComponent(() => import('./BoardScreen.tsx').then((m) => m.BoardScreen));
const DashboardScreen = lazyComponent(() => import('./DashboardScreen.tsx').then((m) => m.DashboardScreen));
const DetailScreen = lazyComponent(() => import('./DetailScreen.tsx').then((m) => m.DetailScreen));
const FormScreen = lazyComponent(() => import('./FormScreen.tsx').then((m) => m.FormScreen));
const ProfileScreen = lazyComponent(() => import('./ProfileScreen.tsx').then((m) => m.ProfileScreen));
const ListScreen = lazyComponent(() => import('./ListScreen.tsx').then((m) => m.ListScreen));

/** The list screen's code, fetched ahead of its first render (NinefoldApp's preloads). */
export const preloadListScreen = (): Promise<unknown> => ListScreen.preload();

const screenFallback = (
  <Center mih="40vh">
    <Loader aria-label={ui('loading')} />
  </Center>
);

/**
 * The signed-in app: the shell and a route per screen (loaded by NinefoldApp as its own chunk).
 * wouter matches the paths, the most specific first (rankRoutes); the history and the edit forms'
 * unsaved-changes blocker are navigation.ts. A screen that throws shows the crash page inside the
 * shell until the path changes.
 */
export function AppRouter({ routes }: { routes: RouteEntry[] }) {
  const screens: { path: string; key: string; element: ReactNode }[] = routes.map((r) => ({
    path: r.path,
    key: r.name,
    element: <Screen route={r} />,
  }));
  // The signed-in person's own profile, unless the spec has a screen there.
  if (!routes.some((r) => r.path === PROFILE_PATH))
    screens.push({
      path: PROFILE_PATH,
      key: PROFILE_PATH,
      element: (
        <Suspense fallback={screenFallback}>
          <ProfileScreen />
          <ScreenShown />
        </Suspense>
      ),
    });
  return (
    <Router hook={useAppLocation} searchHook={useAppSearch}>
      <Shell>
        <Switch>
          {rankRoutes(screens).map((s) => (
            <Route key={s.key} path={s.path}>
              <ScreenErrorBoundary>{s.element}</ScreenErrorBoundary>
            </Route>
          ))}
          <Route>
            <NotFoundPage />
            <ScreenShown />
          </Route>
        </Switch>
      </Shell>
    </Router>
  );
}

function Screen({ route }: { route: RouteEntry }) {
  const runtime = useRuntime();
  const params = useParams();
  const heldRoles = useHeldRoles();
  useEffect(() => {
    document.title = `${route.title} · ${runtime.model.purpose.name}`;
  }, [route.title, runtime.model.purpose.name]);
  return (
    <Suspense fallback={screenFallback}>
      {screenContent(runtime, route, params, heldRoles)}
      <ScreenShown />
    </Suspense>
  );
}

function screenContent(
  runtime: ReturnType<typeof useRuntime>,
  route: RouteEntry,
  params: Record<string, string | undefined>,
  /** The roles held, relationship roles held somewhere included (`useHeldRoles`). */
  heldRoles: readonly string[],
) {
  const screen = runtime.model.screens.get(route.name)?.spec;
  // One rule for every screen: a screen the specification puts in some roles' navigation is
  // theirs; opened by URL by anyone else it is "Not available" (the home screen sends them to
  // their own first screen instead). Screens in nobody's navigation (details, edit forms) are
  // left to the entity's permissions.
  const held = effectiveRoles(runtime.model, heldRoles);
  if (route.nav.length > 0 && !route.nav.some((n) => held.includes(n))) {
    const home = runtime.routes.navFor(heldRoles)[0];
    if (route.path === '/' && home && home.path !== '/') return <Redirect to={home.path} replace />;
    return <ForbiddenPage />;
  }
  const custom = screen?.component ? runtime.components.screens?.[screen.component] : undefined;
  if (custom) {
    const Custom = custom;
    return (
      <Custom
        model={runtime.model}
        backend={runtime.backend}
        route={route}
        params={params}
        user={runtime.user}
      />
    );
  }
  return builtIn(route, params[route.rowParam ?? 'id'], screen?.component);
}

function builtIn(route: RouteEntry, id: string | undefined, component: string | undefined) {
  switch (route.kind) {
    case 'list':
      return <ListScreen key={route.name} route={route} />;
    case 'detail':
      return <DetailScreen key={`${route.name}:${id ?? ''}`} route={route} />;
    case 'form':
      return <FormScreen key={`${route.name}:${id ?? ''}`} route={route} />;
    case 'board':
      return <BoardScreen route={route} />;
    case 'dashboard':
      return <DashboardScreen route={route} />;
    case 'admin':
      return <AdminScreen route={route} />;
    default:
      return <NotFoundPage message={ui('missingComponent', { name: component ?? route.name })} />;
  }
}
