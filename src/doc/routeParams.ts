/**
 * The `:params` of a route, in order.
 *
 * @example
 * routeParams('/devices/:deviceId/borrow'); // ['deviceId']
 */
export function routeParams(route: string): string[] {
  return [...route.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] ?? '');
}
