/**
 * Enumerations whose values are not names (issue 16 item 2): numbers (`25 | 45` minutes, stored
 * as their text) and text with dashes or spaces (`in-review`, `on hold`), each with an optional
 * label. Checked in the specification, compared in rules (`minutes = 45`, `stage = "in-review"`),
 * enforced by the migration's check constraint, and shown by their labels in the document and
 * the UI's value options.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorContext, mapDatabaseError } from '../../src/backend/errors/mapDatabaseError.ts';
import { miniSpec } from '../../src/check/fixtures/miniSpec.ts';
import { validateSpec } from '../../src/check/validateSpec.ts';
import { renderEntities } from '../../src/doc/renderEntities.ts';
import { resolve } from '../../src/model/resolve.ts';
import { roleClosureOf } from '../../src/model/roleClosure.ts';
import { checkRule } from '../../src/rules/check.ts';
import { evaluateRule } from '../../src/rules/evaluate.ts';
import { formSchema } from '../../src/runtime/formSchema.ts';
import { valueOption, valueOptions } from '../../src/runtime/valueOptions.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import { compileMigration } from '../../src/sql/compileMigration.ts';
import { createPgliteDb } from '../../src/sql/testing/pgliteDb.ts';
import type { TestDb } from '../../src/sql/testing/testDb.ts';
import { applyMigration, createUser } from '../../src/sql/testing/users.ts';

function meetingSpec(): AppSpec {
  const s = miniSpec();
  const fields = s.entities.ticket!.fields as Record<string, AppSpec['entities'][string]['fields'][string]>;
  fields.minutes = { type: 'enum', values: [25, { value: 45, label: '45 minutes' }], default: 25 };
  fields.stage = {
    type: 'enum',
    values: ['in-review', { value: 'on hold', label: 'Waiting', color: 'orange' }, "it's done"],
  };
  // A read rule comparing with both kinds: the database and the browser must agree on it.
  s.roles.permissions.customer!.ticket!.read = 'requester = me and (minutes = 45 or stage = "in-review")';
  return s;
}

describe('enumeration values that are not names', () => {
  it('are accepted by check, numbers and text with dashes, spaces and quotes alike', () => {
    expect(validateSpec(meetingSpec()).diagnostics).toEqual([]);
  });

  it('are refused when listed twice (45 and "45" are one stored value), empty, or padded', () => {
    const s = meetingSpec();
    const fields = s.entities.ticket!.fields as Record<string, { type: 'enum'; values: unknown[] }>;
    fields.minutes!.values = [45, '45'];
    fields.stage!.values = ['in-review', ' padded'];
    const found = validateSpec(s).diagnostics.map((d) => [d.code, d.path, d.message]);
    expect(found).toEqual(
      expect.arrayContaining([
        ['spec/invalid-value', 'entities.ticket.fields.minutes.values', 'values are listed twice: "45"'],
        [
          'spec/invalid-value',
          'entities.ticket.fields.stage.values[1]',
          'value " padded" starts or ends with a space or holds a control character',
        ],
      ]),
    );
    fields.stage!.values = [''];
    expect(validateSpec(s).diagnostics.map((d) => [d.path, d.message])).toContainEqual([
      'entities.ticket.fields.stage.values[0]',
      'must not be empty',
    ]);
  });

  it('compare in rules: a number beside a numeric enum is its value; quoted text is checked', () => {
    const s = meetingSpec();
    const ok = (rule: string) => checkRule(s, rule, { entity: 'ticket' });
    for (const rule of [
      'minutes = 45',
      '45 = minutes',
      'minutes in (25, 45)',
      "minutes = '45'",
      'stage = "in-review"',
      "stage in ('on hold', \"it's done\")",
    ])
      expect(ok(rule).ok, rule).toBe(true);
    const wrong = ok('minutes = 30');
    expect(wrong.ok).toBe(false);
    expect(wrong.ok ? '' : wrong.errors[0]?.message).toBe('cannot compare one of (25, 45) with a number');
    const typo = ok('stage = "in-reveiw"');
    expect(typo.ok ? '' : typo.errors[0]?.hint).toBe("did you mean 'in-review'?");
    const r = ok('minutes = 45 and stage = "in-review"');
    if (!r.ok) throw new Error('does not check');
    const run = (row: Record<string, unknown>) =>
      evaluateRule(r.typed, { roleClosure: roleClosureOf(s), user: null, row, now: new Date() });
    expect(run({ minutes: '45', stage: 'in-review' })).toBe(true);
    expect(run({ minutes: '25', stage: 'in-review' })).toBe(false);
  });

  it('are shown by their labels: document, form options, list filters and badges', () => {
    const s = meetingSpec();
    const doc = renderEntities(resolve(s));
    expect(doc).toContain('`25`, `45` (label: 45 minutes)');
    expect(doc).toContain("`in-review`, `on hold` (label: Waiting, color: orange), `it's done`");
    expect(valueOptions(resolve(s), 'ticket', 'minutes')).toEqual([
      { value: '25', label: '25' },
      { value: '45', label: '45 minutes' },
    ]);
    expect(valueOption(resolve(s), 'ticket', 'stage', 'in-review').label).toBe('In review');
    expect(valueOption(resolve(s), 'ticket', 'stage', 'on hold')).toEqual({
      value: 'on hold',
      label: 'Waiting',
      color: 'orange',
    });
    const form = formSchema(resolve(s), 'ticket', 'create', ['customer']);
    expect(form.fields.find((f) => f.name === 'minutes')?.options?.map((o) => o.label)).toEqual([
      '25',
      '45 minutes',
    ]);
    // The number default is the stored text, so the select shows it chosen.
    expect(form.initialValues(null).minutes).toBe('25');
  });

  describe('on PGlite', () => {
    const spec = meetingSpec();
    let db: TestDb;
    let alice: string;
    beforeAll(async () => {
      db = await createPgliteDb();
      await applyMigration(db, compileMigration(spec));
      alice = await createUser(db, 'alice@example.com');
    }, 120_000);
    afterAll(async () => {
      await db?.close();
    });

    it('stores the values (a number default as its text), refuses others with INVALID_VALUE, reads them in policies', async () => {
      const insert = (stage: string, minutes?: string) =>
        db.asUser(alice, (q) =>
          minutes === undefined
            ? q.query(`insert into public.ticket (title, stage) values ('T', $1)`, [stage])
            : q.query(`insert into public.ticket (title, stage, minutes) values ('T', $1, $2)`, [
                stage,
                minutes,
              ]),
        );
      await insert('in-review');
      await insert("it's done", '45');
      await insert('on hold', '25');
      for (const [stage, minutes] of [
        ['in_review', '25'],
        ['on hold', '30'],
      ] as const) {
        const err = await insert(stage, minutes).then(
          () => null,
          (e: unknown) => e,
        );
        expect(mapDatabaseError(err, errorContext(spec)).code).toBe('INVALID_VALUE');
      }
      // The read rule compares with both kinds of value in the policy.
      const seen = await db.asUser(alice, (q) =>
        q.query<{ stage: string; minutes: string }>(
          'select stage, minutes from public.ticket order by stage',
        ),
      );
      expect(seen.rows).toEqual([
        { stage: 'in-review', minutes: '25' },
        { stage: "it's done", minutes: '45' },
      ]);
    });
  });
});
