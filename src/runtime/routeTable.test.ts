import { describe, expect, it } from 'vitest';
import { resolve } from '../model/resolve.ts';
import { buildPath, routeTable } from './routeTable.ts';
import { fixtureSpec } from './testing/fixtureSpec.ts';

describe('routeTable', () => {
  const t = routeTable(resolve(fixtureSpec));
  it('has one route per screen with params', () => {
    expect(t.routes).toHaveLength(Object.keys(fixtureSpec.screens).length);
    expect(t.routes.find((r) => r.name === 'editTicket')?.params).toEqual(['id']);
  });
  it('tells create forms from edit forms', () => {
    expect(t.find('form', 'ticket', 'create')?.path).toBe('/tickets/new');
    expect(t.find('form', 'ticket', 'edit')?.path).toBe('/tickets/:id/edit');
  });
  it('builds navigation per role with inheritance', () => {
    expect(t.navFor(['customer']).map((r) => r.name)).toEqual(['home', 'tickets']);
    expect(t.navFor(['agent']).map((r) => r.name)).toEqual(['home', 'tickets', 'board']);
    expect(t.navFor(['admin']).map((r) => r.name)).toEqual(['home', 'tickets', 'board', 'admin']);
    expect(t.navFor([])).toEqual([]);
  });
  it('home is the first navigation entry', () => {
    expect(t.home(['agent'])?.name).toBe('home');
  });
  it('builds paths and refuses missing params', () => {
    expect(buildPath(t.find('detail', 'ticket')!, { id: 'a b' })).toBe('/tickets/a%20b');
    expect(() => buildPath(t.find('detail', 'ticket')!, {})).toThrow(/:id/);
  });
  it("links to a row through the route's own param, whatever its name", () => {
    const named = routeTable(
      resolve({
        ...fixtureSpec,
        screens: {
          thing: { route: '/things/:thingId', kind: 'detail', title: 'Thing', entity: 'ticket' },
          editThing: { route: '/things/:thingId/edit', kind: 'form', title: 'Edit', entity: 'ticket' },
          nested: { route: '/p/:project/t/:taskId', kind: 'detail', title: 'Task', entity: 'ticket' },
        },
      }),
    );
    const [thing, edit, nested] = named.routes;
    expect(thing?.rowParam).toBe('thingId');
    expect(buildPath(thing!, { id: 't1' })).toBe('/things/t1');
    expect(buildPath(edit!, { id: 't 2' })).toBe('/things/t%202/edit');
    expect(edit?.mode).toBe('edit');
    expect(buildPath(nested!, { project: 'p1', id: 't3' })).toBe('/p/p1/t/t3');
  });
});
