import type { AppModel } from '../model/appModel.ts';
import type { ScreenKind } from '../spec/types.ts';
import { effectiveRoles } from './roles.ts';

export interface RouteEntry {
  /** The screen's name in the specification. */
  name: string;
  /** The path, `:param` segments (`/tickets/:id`). */
  path: string;
  /** Names of the `:params` in the path, in order. */
  params: string[];
  /**
   * The param naming the row on detail and edit-form screens: `id` when the path has it, else its
   * last param, whatever its name (`/things/:thingId`). Undefined without params.
   */
  rowParam: string | undefined;
  kind: ScreenKind;
  title: string;
  entity: string | undefined;
  /** For form screens: `edit` when the route names a row (`:id`), else `create`. */
  mode: 'create' | 'edit' | undefined;
  /** Roles that see this screen in the navigation (empty: never in the navigation). */
  nav: readonly string[];
}

export interface RouteTable {
  routes: RouteEntry[];
  /** The first route in the navigation of someone holding these roles. */
  home(roles: readonly string[]): RouteEntry | undefined;
  /** Navigation entries for a user, in specification order (inheritance applied). */
  navFor(roles: readonly string[]): RouteEntry[];
  /** The first screen of `kind` for `entity` (e.g. where a row's detail lives). */
  find(kind: ScreenKind, entity: string, mode?: 'create' | 'edit'): RouteEntry | undefined;
}

/**
 * The route table of an app: one route per screen, plus lookups for navigation and links.
 *
 * @example
 * const t = routeTable(spec);
 * t.navFor(['customer']).map((r) => r.path) // ['/', '/tickets']
 * buildPath(t.find('detail', 'ticket')!, { id: 't1' }) // '/tickets/t1'
 */
export function routeTable(model: Pick<AppModel, 'screens' | 'roles'>): RouteTable {
  const routes: RouteEntry[] = [...model.screens.values()].map((s) => {
    const path = normalisePath(s.route);
    const params = routeParams(path);
    return {
      name: s.name,
      path,
      params,
      rowParam: rowParamOf(params),
      kind: s.kind,
      title: s.title,
      entity: s.entity,
      mode: s.kind === 'form' ? (params.length > 0 ? 'edit' : 'create') : undefined,
      nav: s.nav,
    };
  });
  const navFor = (roles: readonly string[]): RouteEntry[] => {
    const held = effectiveRoles(model, roles);
    return routes.filter((r) => r.params.length === 0 && r.nav.some((n) => held.includes(n)));
  };
  return {
    routes,
    navFor,
    home: (roles) => navFor(roles)[0] ?? routes.find((r) => r.params.length === 0 && r.kind !== 'form'),
    find: (kind, entity, mode) =>
      routes.find((r) => r.kind === kind && r.entity === entity && (mode === undefined || r.mode === mode)),
  };
}

/** The param that names the row: `id`, else the last param. */
export function rowParamOf(params: readonly string[]): string | undefined {
  return params.includes('id') ? 'id' : params[params.length - 1];
}

/** `:name` segments of a path. */
export function routeParams(path: string): string[] {
  return [...path.matchAll(/:(\w+)/g)].map((m) => m[1] ?? '');
}

/**
 * Fills a route's `:params`; missing params throw because a broken link is a bug. `id` fills the
 * route's row param whatever it is called, so links to a row are built the same for every route.
 *
 * @example
 * buildPath({ path: '/tickets/:id' }, { id: 'a b' }) // '/tickets/a%20b'
 * buildPath({ path: '/things/:thingId' }, { id: 't1' }) // '/things/t1'
 */
export function buildPath(
  route: Pick<RouteEntry, 'path'>,
  params: Readonly<Record<string, string>> = {},
): string {
  const rowParam = rowParamOf(routeParams(route.path));
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name] ?? (name === rowParam ? params.id : undefined);
    if (value === undefined) throw new Error(`route ${route.path} needs :${name}`);
    return encodeURIComponent(value);
  });
}

function normalisePath(route: string): string {
  const withSlash = route.startsWith('/') ? route : `/${route}`;
  return withSlash.length > 1 ? withSlash.replace(/\/+$/, '') : withSlash;
}
