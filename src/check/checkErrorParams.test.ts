import { describe, expect, it } from 'vitest';
import type { AppSpec } from '../spec/types.ts';
import { rooms } from '../sql/fixtures/rooms.ts';
import { unknownPlaceholders } from './lints/unknownPlaceholders.ts';
import { validateSpec } from './validateSpec.ts';

/** The rooms fixture with its errors changed. */
function withErrors(change: (errors: AppSpec['errors'], spec: AppSpec) => void): AppSpec {
  const spec = structuredClone(rooms) as AppSpec;
  change(spec.errors, spec);
  return spec;
}

const problems = (spec: AppSpec) =>
  validateSpec(spec).diagnostics.map((d) => ({
    code: d.code,
    path: d.path,
    message: d.message,
    hint: d.hint,
  }));

describe('declared message parameters', () => {
  it('accepts fields of the row, of the counted row, and the rule’s sum', () => {
    expect(validateSpec(rooms).diagnostics).toEqual([]);
  });

  it('refuses a field the row does not have, with a suggestion', () => {
    const spec = withErrors((e) => {
      e.DAY_FULL!.params = { logged: 'sum', on: 'dya' };
    });
    expect(problems(spec)).toEqual([
      {
        code: 'spec/unknown-name',
        path: 'errors.DAY_FULL.params.on',
        message: 'validation.shift[0].error: shift has no field "dya"',
        hint: 'did you mean "day"?',
      },
    ]);
  });

  it('refuses other.<field> the counted row does not have', () => {
    const spec = withErrors((e) => {
      e.ROOM_TAKEN!.params = { start: 'other.start', end: 'other.ends' };
    });
    expect(problems(spec)).toEqual([
      {
        code: 'spec/unknown-name',
        path: 'errors.ROOM_TAKEN.params.start',
        message: 'validation.booking[0].error: the counted booking has no field "start"',
        hint: 'did you mean "starts"?',
      },
    ]);
  });

  it('refuses a parameter that would show a field only some may read', () => {
    const spec = withErrors((_e, s) => {
      s.entities.booking!.fields.ends!.read = 'by = me';
      s.entities.shift!.fields.hours!.read = 'worker = me';
    });
    expect(problems(spec).map((p) => [p.path, p.message])).toEqual([
      [
        'errors.ROOM_TAKEN.params.end',
        'validation.booking[0].error: parameter "end" would show booking.ends, which only some may read (its `read` rule), to whoever the rule refuses',
      ],
      [
        'errors.DAY_FULL.params.logged',
        'validation.shift[0].error: parameter "logged" would show shift.hours, which only some may read (its `read` rule), to whoever the rule refuses',
      ],
    ]);
  });

  it('refuses a sum or a count the rule does not have', () => {
    const spec = withErrors((e) => {
      e.DAY_FULL!.params = { logged: 'count', day: 'day' };
    });
    const [p] = problems(spec);
    expect(p).toMatchObject({ code: 'spec/unknown-name', path: 'errors.DAY_FULL.params.logged' });
    expect(p?.message).toMatch(/no count\(\.\.\.\)/);
    expect(p?.hint).toMatch(/from the row .* or a constant/);
  });

  it('refuses a source of no known form, and names the server already sends', () => {
    const spec = withErrors((e) => {
      e.DAY_FULL!.params = { logged: 'sum(shift.hours)', entity: 'day' };
    });
    expect(problems(spec).map((p) => [p.code, p.path])).toEqual([
      ['spec/invalid-value', 'errors.DAY_FULL.params.logged'],
      ['spec/invalid-name', 'errors.DAY_FULL.params.entity'],
    ]);
  });

  it('refuses a parameter named like a field of the row it does not carry', () => {
    const spec = withErrors((e) => {
      e.ROOM_TAKEN!.params = { starts: 'other.starts', end: 'other.ends' };
      e.ROOM_TAKEN!.message = 'Taken from {starts} to {end}.';
    });
    expect(problems(spec)).toEqual([
      {
        code: 'spec/invalid-name',
        path: 'errors.ROOM_TAKEN.params.starts',
        message:
          'validation.booking[0].error: parameter "starts" is also a field of booking, whose value a form would show instead',
        hint: 'choose another name, e.g. "otherStarts"',
      },
    ]);
  });

  it('refuses parameters on a code that something other than a row rule raises', () => {
    const spec = withErrors((e, s) => {
      e.DAY_FULL!.params = { day: 'day' };
      s.validation.shift = [
        ...(s.validation.shift ?? []),
        { kind: 'field', field: 'hours', max: 'maxHours', error: 'DAY_FULL' },
      ];
    });
    const [p] = problems(spec);
    expect(p).toMatchObject({ code: 'spec/invalid-value', path: 'errors.DAY_FULL.params' });
    expect(p?.message).toBe(
      'validation.shift[1].error raises DAY_FULL, but only row rules send message parameters',
    );
  });

  it('lets a message name its declared parameters; an undeclared one gets a suggestion', () => {
    expect(unknownPlaceholders(rooms as AppSpec)).toEqual([]);
    const spec = withErrors((e) => {
      e.ROOM_TAKEN!.params = { start: 'other.starts' };
      e.ROOM_TAKEN!.message = 'Taken from {start} to {ends}.';
    });
    // `ends` is a field of booking (the row), so it is filled from the row: the one undeclared
    // placeholder below names no field at all.
    expect(unknownPlaceholders(spec)).toEqual([]);
    const other = withErrors((e) => {
      e.DAY_FULL!.message = 'Taken by {starts}.';
    });
    expect(unknownPlaceholders(other)).toEqual([
      expect.objectContaining({
        code: 'lint/unknown-placeholder',
        path: 'errors.DAY_FULL.message',
        hint: "declare it, e.g. params: { starts: 'other.starts' } for the row the rule's count finds",
      }),
    ]);
  });
});
