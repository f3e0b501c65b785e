import { describe, expect, it } from 'vitest';
import { teamSpec } from '../check/fixtures/teamSpec.ts';
import { resolve } from '../model/resolve.ts';
import { heldQueries } from './relationRolesHeld.ts';
import { routeTable } from './routeTable.ts';

describe('screens for roles held through a relationship', () => {
  it('asks, per role, for a row that shows the user holds it somewhere', () => {
    expect(heldQueries(resolve(teamSpec()), 'u1')).toEqual([
      {
        role: 'teamMember',
        entity: 'membership',
        filters: [
          { field: 'person', op: 'eq', value: 'u1' },
          { field: 'role', op: 'in', value: ['member', 'owner'] },
        ],
      },
      {
        role: 'teamOwner',
        entity: 'membership',
        filters: [
          { field: 'person', op: 'eq', value: 'u1' },
          { field: 'role', op: 'in', value: ['owner'] },
        ],
      },
      { role: 'projectLead', entity: 'project', filters: [{ field: 'lead', op: 'eq', value: 'u1' }] },
    ]);
  });

  it('puts a screen in the navigation of those who hold the role somewhere, and only theirs', () => {
    const spec = teamSpec();
    spec.screens.myProjects = {
      route: '/my-projects',
      kind: 'list',
      title: 'Led by me',
      entity: 'project',
      nav: ['projectLead'],
    };
    const t = routeTable(resolve(spec));
    expect(t.navFor(['member']).map((r) => r.name)).not.toContain('myProjects');
    expect(t.navFor(['member', 'projectLead']).map((r) => r.name)).toContain('myProjects');
  });
});
