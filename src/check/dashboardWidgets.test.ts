import { describe, expect, it } from 'vitest';
import { renderDoc } from '../doc/renderDoc.ts';
import { importDoc } from '../import/importDoc.ts';
import { resolve } from '../model/resolve.ts';
import type { AppSpec, ScreenSpec } from '../spec/types.ts';
import { teamSpec } from './fixtures/teamSpec.ts';
import { validateSpec } from './validateSpec.ts';

/** The team tracker with a dashboard whose widgets are for some roles, relationship roles included. */
function withDashboard(widgets: ScreenSpec['widgets'], change: (s: AppSpec) => void = () => {}): AppSpec {
  const s = teamSpec();
  s.screens = {
    home: { route: '/', kind: 'dashboard', title: 'Home', entity: 'task', nav: ['member'], widgets },
    ...s.screens,
  };
  change(s);
  return s;
}

const problems = (s: AppSpec) =>
  validateSpec(s).diagnostics.map((d) => ({ path: d.path, message: d.message, hint: d.hint }));

const WIDGETS: ScreenSpec['widgets'] = [
  { kind: 'byStatus' },
  { kind: 'waitingOnMe', roles: ['projectLead', 'teamOwner'] },
  { kind: 'targets', roles: ['admin'] },
];

describe('dashboard widgets for some roles: check', () => {
  it('accepts widgets for granted roles and roles held through a relationship', () => {
    expect(problems(withDashboard(WIDGETS))).toEqual([]);
  });

  it('refuses an unknown role with a suggestion', () => {
    expect(problems(withDashboard([{ kind: 'waitingOnMe', roles: ['projectLaed'] }]))).toEqual([
      expect.objectContaining({
        path: 'screens.home.widgets[0].roles[0]',
        message: 'unknown role "projectLaed"',
        hint: expect.stringContaining('projectLead'),
      }),
    ]);
  });

  it('refuses an unknown kind, listing the kinds', () => {
    const d = problems(withDashboard([{ kind: 'waitingOnYou' as 'waitingOnMe' }]));
    expect(d).toEqual([
      expect.objectContaining({
        path: 'screens.home.widgets[0].kind',
        hint: expect.stringContaining('waitingOnMe'),
      }),
    ]);
  });

  it('refuses widgets off a dashboard, none at all, a kind twice and a widget for no role', () => {
    expect(
      problems(
        withDashboard(WIDGETS, (s) => {
          (s.screens.tasks as ScreenSpec).widgets = [{ kind: 'targets' }];
        }),
      ).map((p) => p.path),
    ).toEqual(['screens.tasks.widgets']);
    expect(problems(withDashboard([])).map((p) => p.message)).toEqual([
      'a dashboard with no widgets shows nothing',
    ]);
    expect(
      problems(withDashboard([{ kind: 'targets' }, { kind: 'targets', roles: [] }])).map((p) => p.path),
    ).toEqual(['screens.home.widgets[1].kind', 'screens.home.widgets[1].roles']);
  });

  it('refuses counts by status of an entity without states, or of no entity', () => {
    const d = problems(
      withDashboard([{ kind: 'byStatus' }], (s) => {
        (s.screens.home as ScreenSpec).entity = 'project';
      }),
    );
    expect(d).toEqual([
      expect.objectContaining({
        path: 'screens.home.widgets[0].kind',
        message: '"project" has no states to count rows by',
      }),
    ]);
    const none = problems(
      withDashboard([{ kind: 'waitingOnMe' }, { kind: 'targets' }], (s) => {
        delete (s.screens.home as ScreenSpec).entity;
      }),
    );
    expect(none.map((p) => p.path)).toEqual(['screens.home.entity']);
  });
});

describe('dashboard widgets: model and document', () => {
  it('the model lists them with their roles, and nothing for a dashboard that names none', () => {
    const model = resolve(withDashboard(WIDGETS));
    expect(model.screens.get('home')?.widgets).toEqual([
      { kind: 'byStatus', roles: [] },
      { kind: 'waitingOnMe', roles: ['projectLead', 'teamOwner'] },
      { kind: 'targets', roles: ['admin'] },
    ]);
    expect(resolve(withDashboard(undefined)).screens.get('home')?.widgets).toBeUndefined();
  });

  it('the document writes one line per widget and reads it back byte for byte', () => {
    const spec = withDashboard(WIDGETS);
    const doc = renderDoc(resolve(spec));
    expect(doc).toContain('- Widget: counts by status\n');
    expect(doc).toContain('- Widget: waiting on me, for Project lead, Team owner\n');
    expect(doc).toContain('- Widget: targets, for Administrator\n');
    const back = importDoc(doc);
    expect(back.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(back.spec?.screens.home?.widgets).toEqual(WIDGETS);
    expect(renderDoc(resolve(back.spec as AppSpec))).toBe(doc);
  });

  it('the document reports an unknown widget and an unknown role with line and suggestion', () => {
    const doc = renderDoc(resolve(withDashboard(WIDGETS)))
      .replace('Widget: targets,', 'Widget: targetz,')
      .replace('for Project lead,', 'for Project laed,');
    const d = importDoc(doc).diagnostics.filter((x) => x.severity === 'error');
    expect(d).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          path: 'screens.home.widgets.2.kind',
          message: 'unknown dashboard widget "targetz"',
          hint: expect.stringContaining('targets'),
        }),
        expect.objectContaining({
          path: 'screens.home.widgets.1.roles',
          hint: expect.stringContaining('Project lead'),
        }),
      ]),
    );
    expect(d.every((x) => x.at !== undefined)).toBe(true);
  });
});
