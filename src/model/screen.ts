import type { ScreenKind, ScreenSpec } from '../spec/types.ts';
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
