import { describe, expect, it } from 'vitest';
import { teamSpec } from '../check/fixtures/teamSpec.ts';
import { resolve } from '../model/resolve.ts';
import { dashboardWidgets } from './dashboardWidgets.ts';

function model(widgets: Parameters<typeof resolve>[0]['screens'][string]['widgets']) {
  const s = teamSpec();
  s.screens.home = { route: '/', kind: 'dashboard', title: 'Home', entity: 'task', nav: ['member'], widgets };
  return resolve(s);
}

describe('dashboardWidgets: the widgets a person sees', () => {
  const m = model([
    { kind: 'byStatus' },
    { kind: 'waitingOnMe', roles: ['projectLead', 'teamOwner'] },
    { kind: 'targets', roles: ['member'] },
  ]);

  it('those for everyone and for a role held; inherited roles count', () => {
    expect(dashboardWidgets(m, 'home', [])).toEqual(['byStatus']);
    expect(dashboardWidgets(m, 'home', ['member'])).toEqual(['byStatus', 'targets']);
    // admin inherits member
    expect(dashboardWidgets(m, 'home', ['admin'])).toEqual(['byStatus', 'targets']);
  });

  it('a role held through a relationship on some row shows its widget, in the listed order', () => {
    expect(dashboardWidgets(m, 'home', ['member', 'teamOwner'])).toEqual([
      'byStatus',
      'waitingOnMe',
      'targets',
    ]);
    expect(dashboardWidgets(m, 'home', ['projectLead'])).toEqual(['byStatus', 'waitingOnMe']);
  });

  it('a dashboard that lists none shows every widget to everyone', () => {
    expect(dashboardWidgets(model(undefined), 'home', [])).toEqual(['byStatus', 'waitingOnMe', 'targets']);
  });
});
