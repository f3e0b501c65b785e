import type { DashboardWidgetKind, ScreenKind, ScreenSpec } from '../spec/types.ts';
import type { CheckedRule } from './checkedRule.ts';

/** A screen with its route resolved into parts. */
export interface ScreenNode {
  name: string;
  route: string;
  /** `:params` of the route, in order. */
  params: readonly string[];
  kind: ScreenKind;
  title: string;
  entity?: string;
  /** Roles that see it in the navigation. */
  nav: readonly string[];
  /** A dashboard's widgets as the specification lists them; absent: every widget, for everyone. */
  widgets?: readonly WidgetNode[];
  /** Its `where` filter, checked. */
  whereRule?: CheckedRule;
  spec: ScreenSpec;
}

/**
 * The `:params` of a route.
 *
 * @example
 * routeParams('/tickets/:id/edit'); // ['id']
 */
export function routeParams(route: string): string[] {
  return [...route.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] as string);
}

/** A dashboard widget and the roles that see it (empty: everyone who opens the dashboard). */
export interface WidgetNode {
  kind: DashboardWidgetKind;
  roles: readonly string[];
}
