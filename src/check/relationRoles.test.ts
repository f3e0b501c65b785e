import { describe, expect, it } from 'vitest';
import { renderDoc } from '../doc/renderDoc.ts';
import { importDoc } from '../import/importDoc.ts';
import { normalizeSpec } from '../import/normalizeSpec.ts';
import { resolve } from '../model/resolve.ts';
import { checkRule } from '../rules/check.ts';
import { evaluateRule } from '../rules/evaluate.ts';
import { compileMigration } from '../sql/compileMigration.ts';
import { compileRuleSql } from '../sql/compileRuleSql.ts';
import { teamSpec } from './fixtures/teamSpec.ts';
import { validateSpec } from './validateSpec.ts';

const diagnostics = (mutate: (s: ReturnType<typeof teamSpec>) => void) => {
  const s = teamSpec();
  mutate(s);
  return validateSpec(s).diagnostics.map((d) => ({ path: d.path, message: d.message, hint: d.hint }));
};

describe('roles held through a relationship: check', () => {
  it('accepts the team tracker', () => {
    expect(validateSpec(teamSpec()).diagnostics).toEqual([]);
  });

  it('refuses a permission on an entity with no path to the scope, with a hint', () => {
    const d = diagnostics((s) => {
      s.roles.permissions.projectLead!.membership = { read: true };
    });
    expect(d).toEqual([
      expect.objectContaining({
        path: 'roles.permissions.projectLead.membership',
        message: expect.stringContaining('membership has no reference to project'),
        hint: expect.stringContaining("{ type: 'ref', ref: 'project' }"),
      }),
    ]);
  });

  it('refuses an ambiguous path (two references to the scope)', () => {
    const d = diagnostics((s) => {
      s.entities.task!.fields.otherTeam = { type: 'ref', ref: 'team' };
    });
    expect(d.map((x) => x.path)).toContain('roles.permissions.teamMember.task');
    expect(d.find((x) => x.path === 'roles.permissions.teamMember.task')?.message).toMatch(
      /through team and otherTeam/,
    );
  });

  it('refuses malformed through, inheritance and calls naming a relationship role', () => {
    const d = diagnostics((s) => {
      s.roles.roles.projectLead!.through = { entity: 'project', field: 'team' };
      s.roles.roles.teamOwner!.through!.values = ['boss'];
      s.roles.roles.teamMember!.inherits = ['member'];
      s.roles.roles.member!.inherits = ['teamMember'];
    });
    const paths = d.map((x) => x.path);
    expect(paths).toContain('roles.roles.projectLead.through.field');
    expect(paths).toContain('roles.roles.teamOwner.through.values[0]');
    expect(paths).toContain('roles.roles.teamMember.inherits');
    expect(paths).toContain('roles.roles.member.inherits[0]');
    expect(d.find((x) => x.path === 'roles.roles.teamOwner.through.values[0]')?.hint).toMatch(
      /member, owner/,
    );
  });

  it('refuses a transition whose entity the role cannot reach', () => {
    const d = diagnostics((s) => {
      s.states.task!.transitions.finish!.roles = ['teamMember', 'projectLead'];
      delete s.entities.task!.fields.project;
      s.roles.permissions.projectLead!.task = undefined as never;
      delete s.roles.permissions.projectLead!.task;
      s.screens.newTask!.fields = ['title', 'team'];
    });
    expect(d.map((x) => x.path)).toContain('states.task.transitions.finish.roles[1]');
  });
});

describe('roles held through a relationship: rules', () => {
  const spec = teamSpec();
  const model = resolve(spec);

  it('`me is r` is the relationship on the rule’s row, never unknown', () => {
    const r = checkRule(spec, 'me is teamMember', { entity: 'task' });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const sql = compileRuleSql(r.typed, { model, row: 'task' });
    // The person's teams, read once per statement (never null: coalesce; an empty team is in none).
    expect(sql).toBe(
      "coalesce((task.team in (select _c1.team from public.membership _c1 where _c1.team is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('member', 'owner'))))), false)",
    );
    const data = {
      rows: (e: string) =>
        e === 'membership' ? [{ id: 'm1', person: 'u1', team: 't1', role: 'member' }] : [],
      get: () => null,
      profile: () => null,
    };
    const run = (user: string | null, team: string | null) =>
      evaluateRule(r.typed, {
        row: { id: 'x', team },
        user: user ? { id: user, roles: [] } : null,
        now: new Date(),
        roleClosure: model.roleClosure,
        data,
      });
    expect([run('u1', 't1'), run('u2', 't1'), run('u1', 't2'), run(null, 't1'), run('u1', null)]).toEqual([
      true,
      false,
      false,
      false,
      false,
    ]);
  });

  it('`x is r` asks about another person; a direct field compares columns', () => {
    const other = checkRule(spec, 'assignee is not projectLead', { entity: 'task' });
    if (!other.ok) throw new Error(JSON.stringify(other.errors));
    expect(compileRuleSql(other.typed, { model, row: 'task' })).toContain('(_c1.lead = task.assignee)');
    const own = checkRule(spec, 'me is projectLead', { entity: 'project' });
    if (!own.ok) throw new Error(JSON.stringify(own.errors));
    expect(compileRuleSql(own.typed, { model, row: 'project' })).toBe(
      '(((not ((select auth.uid()) is null)) and (not (project.lead is null))) and (project.lead = (select auth.uid())))',
    );
  });

  it('inside count, is held on the counted row: a person shares a team with me', () => {
    const r = checkRule(spec, 'count(membership where person = this.id and me is teamMember) >= 1', {
      entity: 'person',
    });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(compileRuleSql(r.typed, { model, row: 'person' })).toBe(
      "coalesce((person.id in (select _c1.person from public.membership _c1 where _c1.person is not null and ((exists (select 1 from public.membership _c2 where (((_c2.team = _c1.team) and (_c2.person = (select auth.uid()))) and (_c2.role in ('member', 'owner')))))))), false)",
    );
    const memberships = [
      { id: 'm1', person: 'u1', team: 't1', role: 'member' },
      { id: 'm2', person: 'u2', team: 't1', role: 'owner' },
      { id: 'm3', person: 'u3', team: 't2', role: 'member' },
    ];
    const data = {
      rows: (e: string) => (e === 'membership' ? memberships : []),
      get: () => null,
      profile: () => null,
    };
    const run = (user: string, person: string) =>
      evaluateRule(r.typed, {
        row: { id: person },
        user: { id: user, roles: [] },
        now: new Date(),
        roleClosure: model.roleClosure,
        data,
      });
    expect([run('u1', 'u2'), run('u1', 'u3'), run('u3', 'u3'), run('u3', 'u1')]).toEqual([
      true,
      false,
      true,
      false,
    ]);
  });

  it('is refused where it cannot hold, with where and why', () => {
    const noRow = checkRule(spec, 'count(project where me is teamMember) > 0', { entity: 'person' });
    expect(noRow.ok).toBe(true);
    const inSelf = checkRule(spec, 'count(membership where me is projectLead) > 0', { entity: 'person' });
    expect(inSelf.ok).toBe(false);
    if (!inSelf.ok) expect(inSelf.errors[0]?.hint).toMatch(/add a field/);
    const noPath = checkRule(spec, 'me is projectLead', { entity: 'membership' });
    expect(noPath.ok).toBe(false);
    if (!noPath.ok) expect(noPath.errors[0]?.hint).toMatch(/add a field/);
  });

  it('indexes the membership on (person, team)', () => {
    expect(compileMigration(spec)).toContain(
      'create index if not exists membership__person__team__idx on public.membership (person, team);',
    );
  });
});

describe('roles held through a relationship: the nine-point document', () => {
  it('writes the relationship and `import` reads it back', () => {
    const doc = renderDoc(teamSpec());
    expect(doc).toContain(
      '| `teamOwner` | Team | a Membership naming them (Person) and the team (Team), Role owner: `membership(person, team, role in (owner))` |',
    );
    expect(doc).toContain('`project.lead`');
    const back = importDoc(doc);
    expect(back.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(back.spec?.roles.roles).toEqual(teamSpec().roles.roles);
    expect(normalizeSpec(back.spec as never)).toEqual(normalizeSpec(teamSpec()));
  });
});
