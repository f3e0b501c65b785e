/**
 * Routes in the order a first-match router must try them: the most specific first, as
 * react-router ranked them (a static segment outweighs a `:param`), so `/replies/new` is the
 * form even when the specification lists `/replies/:id` before it. Equal ranks keep their order.
 *
 * @example
 * rankRoutes([{ path: '/replies/:id' }, { path: '/replies/new' }]).map((r) => r.path)
 * // ['/replies/new', '/replies/:id']
 */
export function rankRoutes<R extends { path: string }>(routes: readonly R[]): R[] {
  return routes
    .map((route, i) => ({ route, i, score: score(route.path) }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map((r) => r.route);
}

/** react-router's score: one point per segment, then 10 per static segment, 3 per `:param`, −2 for `*`. */
function score(path: string): number {
  const segments = path.split('/').filter(Boolean);
  let total = segments.length;
  for (const s of segments) total += s === '*' ? -2 : s.startsWith(':') ? 3 : 10;
  return total;
}
