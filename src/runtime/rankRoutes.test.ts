import { describe, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { resolve } from '../model/resolve.ts';
import { rankRoutes } from './rankRoutes.ts';
import { routeTable } from './routeTable.ts';

// wouter's Switch takes the first route that matches; react-router took the most specific one.
// Without the ranking a spec listing `/replies/:id` before `/replies/new` opens "new" as a row.
const first = (paths: string[], url: string) =>
  rankRoutes(paths.map((path) => ({ path }))).find((r) =>
    new RegExp(`^${r.path.replace(/:\w+/g, '[^/]+')}$`).test(url),
  )?.path;

describe('rankRoutes', () => {
  it('puts a static segment before a param in the same place', () => {
    expect(first(['/replies/:id', '/replies/new'], '/replies/new')).toBe('/replies/new');
    expect(first(['/replies/:id', '/replies/new'], '/replies/r1')).toBe('/replies/:id');
  });

  it('keeps the specification order between equally specific routes', () => {
    const routes = [{ path: '/a/:x', n: 1 }, { path: '/b' }, { path: '/a/:y', n: 2 }];
    expect(rankRoutes(routes).filter((r) => r.path.startsWith('/a/'))).toEqual([routes[0], routes[2]]);
  });

  it('ranks the helpdesk so every screen path opens its own screen', () => {
    const ranked = rankRoutes(routeTable(resolve(helpdesk)).routes);
    for (const r of ranked) {
      const url = r.path.replace(/:\w+/g, 'x1');
      const hit = ranked.find((o) => new RegExp(`^${o.path.replace(/:\w+/g, '[^/]+')}$`).test(url));
      expect(hit?.name, url).toBe(r.name);
    }
    // The spec lists the saved reply's detail before its create form: the ranking is what saves it.
    const order = routeTable(resolve(helpdesk)).routes.map((r) => r.path);
    expect(order.indexOf('/replies/:id')).toBeLessThan(order.indexOf('/replies/new'));
  });
});
