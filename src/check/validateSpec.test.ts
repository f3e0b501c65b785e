import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../diagnostics.ts';
import { miniSpec } from './fixtures/miniSpec.ts';
import { validateSpec } from './validateSpec.ts';

function problems(input: unknown): Diagnostic[] {
  return validateSpec(input).diagnostics;
}

function withSpec(change: (s: Record<string, unknown> & ReturnType<typeof miniSpec>) => void): Diagnostic[] {
  const s = miniSpec() as Record<string, unknown> & ReturnType<typeof miniSpec>;
  change(s);
  return problems(s);
}

describe('validateSpec', () => {
  it('accepts a clean specification', () => {
    const result = validateSpec(miniSpec());
    expect(result.diagnostics).toEqual([]);
    expect(result.spec).not.toBeNull();
  });

  it('rejects values that are not objects', () => {
    for (const v of [null, 1, 'x', [], true]) {
      const r = validateSpec(v);
      expect(r.spec).toBeNull();
      expect(r.diagnostics[0]?.code).toBe('spec/type');
    }
  });

  it('names missing sections and suggests for misspelt ones', () => {
    const d = withSpec((s) => {
      s.constans = s.constants;
      delete (s as Partial<typeof s>).constants;
    });
    expect(d).toContainEqual(expect.objectContaining({ code: 'spec/missing', path: 'constants' }));
    expect(d).toContainEqual(
      expect.objectContaining({
        code: 'spec/unknown-key',
        path: 'constans',
        hint: 'did you mean "constants"?',
      }),
    );
  });

  it('reports wrong value types with the path', () => {
    const d = withSpec((s) => {
      (s.entities.ticket!.fields.title as { required: unknown }).required = 'yes';
    });
    expect(d).toEqual([
      expect.objectContaining({ code: 'spec/type', path: 'entities.ticket.fields.title.required' }),
    ]);
  });

  it('suggests a field type for a misspelt one', () => {
    const d = withSpec((s) => {
      (s.entities.ticket!.fields.title as { type: string }).type = 'txt';
    });
    expect(d[0]).toMatchObject({ path: 'entities.ticket.fields.title.type', hint: 'did you mean "text"?' });
  });

  it('rejects SQL reserved words and unsafe names as field names', () => {
    const d = withSpec((s) => {
      s.entities.ticket!.fields.select = { type: 'text' };
      s.entities.ticket!.fields['x"; drop table'] = { type: 'text' };
      s.entities.ticket!.fields.currentUser = { type: 'text' };
    });
    expect(d.map((x) => [x.code, x.path])).toEqual([
      ['spec/invalid-name', 'entities.ticket.fields.select'],
      ['spec/invalid-name', 'entities.ticket.fields["x\\"; drop table"]'],
      ['spec/invalid-name', 'entities.ticket.fields.currentUser'],
    ]);
    expect(d[0]?.message).toContain('reserved SQL word');
    expect(d[2]?.message).toContain('current_user');
  });

  it('rejects fields named like the implicit columns and built-in names', () => {
    const d = withSpec((s) => {
      s.entities.ticket!.fields.createdAt = { type: 'datetime' };
      Object.assign(s.entities, JSON.parse('{"constructor": {"label": "X", "fields": {}}}'));
    });
    expect(d.map((x) => x.path)).toEqual(['entities.ticket.fields.createdAt', 'entities.constructor']);
  });

  it('checks the patterns of state, transition and error names', () => {
    const d = withSpec((s) => {
      s.states.ticket!.states.Open = {};
      s.errors['bad-code'] = { message: 'x', severity: 'error' };
    });
    expect(d.map((x) => x.path)).toEqual(['states.ticket.states.Open', 'errors["bad-code"]']);
  });

  it('reports unknown references with suggestions', () => {
    const d = withSpec((s) => {
      s.entities.comment!.fields.ticket!.ref = 'tiket';
      s.states.ticket!.transitions.solve!.to = 'solvd';
      s.states.ticket!.transitions.solve!.roles = ['agnt'];
      s.validation.ticket = [
        { kind: 'field', field: 'titel', maxLength: 'maxTitleLen', error: 'TITLE_TO_LONG' },
      ];
      s.screens.tickets!.entity = 'tickets';
    });
    const byPath = Object.fromEntries(d.map((x) => [x.path, x.hint]));
    expect(byPath).toMatchObject({
      'entities.comment.fields.ticket.ref': 'did you mean "ticket"?',
      'states.ticket.transitions.solve.to': 'did you mean "solved"?',
      'states.ticket.transitions.solve.roles[0]': 'did you mean "agent"?',
      'validation.ticket[0].field': 'did you mean "title"?',
      'validation.ticket[0].maxLength': 'did you mean "maxTitleLength"?',
      'validation.ticket[0].error': 'did you mean "TITLE_TOO_LONG"?',
      'screens.tickets.entity': 'did you mean "ticket"?',
    });
  });

  it('suggests known keys for misspelt nested keys', () => {
    const d = withSpec((s) => {
      const solve = s.states.ticket!.transitions.solve as unknown as Record<string, unknown>;
      solve.gaurd = solve.guard;
      delete solve.guard;
    });
    expect(d).toEqual([
      expect.objectContaining({
        code: 'spec/unknown-key',
        path: 'states.ticket.transitions.solve.gaurd',
        hint: 'did you mean "guard"?',
      }),
    ]);
  });

  it('reads screen sort orders in every accepted form', () => {
    for (const sort of ['-solvedAt', 'solvedAt desc', 'createdAt:asc', '+title']) {
      expect(withSpec((s) => (s.screens.tickets!.sort = sort))).toEqual([]);
    }
    expect(withSpec((s) => (s.screens.tickets!.sort = '-titel'))).toEqual([
      expect.objectContaining({ path: 'screens.tickets.sort', hint: 'did you mean "title"?' }),
    ]);
  });

  it('requires exactly one profile entity when user fields exist', () => {
    expect(withSpec((s) => delete s.entities.person!.profile)).toContainEqual(
      expect.objectContaining({ code: 'spec/missing', path: 'entities' }),
    );
    expect(withSpec((s) => (s.entities.comment!.profile = true))).toContainEqual(
      expect.objectContaining({ path: 'entities.comment.profile' }),
    );
  });

  it('requires the states field to be a status field', () => {
    const d = withSpec((s) => {
      s.states.ticket!.field = 'title';
    });
    expect(d.map((x) => x.path)).toContain('states.ticket.field');
  });

  it('requires constants used as limits to be numbers', () => {
    const d = withSpec((s) => {
      s.constants.maxTitleLength = { value: 'long', label: 'x' };
    });
    expect(d).toEqual([expect.objectContaining({ path: 'validation.ticket[0].maxLength' })]);
  });

  it('finds role inheritance cycles', () => {
    const d = withSpec((s) => {
      s.roles.roles.customer!.inherits = ['agent'];
    });
    expect(d[0]?.message).toContain('circle');
  });

  it('reports a misspelt name in a guard with path and suggestion', () => {
    const d = withSpec((s) => {
      s.states.ticket!.transitions.solve!.guard = 'asignee = me';
    });
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({
      path: 'states.ticket.transitions.solve.guard',
      hint: 'did you mean "assignee"?',
    });
    expect(d[0]?.code.startsWith('rule/')).toBe(true);
  });

  it('checks permission rules, row rules and set expressions', () => {
    const d = withSpec((s) => {
      s.roles.permissions.customer!.ticket!.read = 'requester = ';
      s.validation.ticket = [{ kind: 'row', rule: 'title', error: 'TITLE_TOO_LONG' }];
      s.states.ticket!.transitions.solve!.set = { solvedAt: 'me' };
    });
    expect(d.map((x) => [x.code, x.path])).toEqual([
      ['rule/type', 'states.ticket.transitions.solve.set.solvedAt'],
      ['rule/type', 'validation.ticket[0].rule'],
      ['rule/syntax', 'roles.permissions.customer.ticket.read'],
    ]);
  });

  it('checks initial states chosen by a rule: the state by name, the rule at its path', () => {
    const d = withSpec((s) => {
      (s.states.ticket as { initialWhen?: unknown }).initialWhen = [
        { state: 'solvd', when: 'title is not empty' },
        { state: 'solved', when: 'titel = 1' },
        { state: 'closed', when: 'title' },
      ];
    });
    expect(d).toContainEqual(
      expect.objectContaining({
        code: 'spec/unknown-name',
        path: 'states.ticket.initialWhen[0].state',
        hint: 'did you mean "solved"?',
      }),
    );
    const r = withSpec((s) => {
      (s.states.ticket as { initialWhen?: unknown }).initialWhen = [
        { state: 'solved', when: 'titel = 1' },
        { state: 'closed', when: 'title' },
      ];
    });
    expect(r.map((x) => x.path)).toEqual([
      'states.ticket.initialWhen[0].when',
      'states.ticket.initialWhen[1].when',
    ]);
    expect(r[0]?.message).toContain('titel');
  });

  it('refuses unique ignoring case on a field that has no case, and a key without text', () => {
    const d = withSpec((s) => {
      (s.entities.ticket!.fields.title as { unique?: unknown }).unique = 'ignoreCase';
      s.entities.ticket!.fields.seats = { type: 'number', unique: 'ignoreCase' };
      (s.entities.ticket as { unique?: unknown }).unique = [
        { fields: ['seats'], error: 'NOT_ASSIGNEE', ignoreCase: true },
      ];
    });
    expect(d.map((x) => [x.code, x.path])).toEqual([
      ['spec/invalid-value', 'entities.ticket.fields.seats.unique'],
      ['spec/invalid-value', 'entities.ticket.unique[0].ignoreCase'],
    ]);
  });
});
