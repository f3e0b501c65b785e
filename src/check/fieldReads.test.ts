import { describe, expect, it } from 'vitest';
import tasksApp from '../../examples/tasks/spec.ts';
import { clinicSpec } from '../../test/enforcement/support/clinicSpec.ts';
import type { AppSpec } from '../spec/types.ts';
import { validateSpec } from './validateSpec.ts';

const spec = () => structuredClone(tasksApp) as AppSpec;
const entryFields = (s: AppSpec) => s.entities.timeEntry?.fields as AppSpec['entities'][string]['fields'];
const problems = (s: AppSpec) =>
  validateSpec(s).diagnostics.map((d) => ({ path: d.path, message: d.message, hint: d.hint }));

describe('per-field reads: check', () => {
  it('accepts the Team Tasks time entries (rate and billable amount for administrators)', () => {
    expect(problems(spec())).toEqual([]);
  });

  it('reports an unknown field in a read rule at the rule, with a did-you-mean', () => {
    const s = spec();
    (entryFields(s).rate as { read?: string }).read = 'persn = me';
    expect(problems(s)).toEqual([
      expect.objectContaining({
        path: 'entities.timeEntry.fields.rate.read',
        message: expect.stringContaining('persn'),
        hint: expect.stringContaining('person'),
      }),
    ]);
  });

  it('refuses a rule that is not a condition', () => {
    const s = spec();
    (entryFields(s).rate as { read?: string }).read = 'hours';
    expect(problems(s)).toEqual([expect.objectContaining({ path: 'entities.timeEntry.fields.rate.read' })]);
  });

  it.each([
    ['the title', 'timeEntry', 'note', 'title'],
    ['the status field', 'timeEntry', 'status', 'status field'],
    ['an owner field', 'timeEntry', 'person', 'owner field'],
    ['a field of a unique key', 'membership', 'person', 'unique key'],
    ['a field of the profile entity', 'person', 'name', 'profile entity'],
  ])('refuses hiding %s, saying why', (_, entity, field, why) => {
    const s = spec();
    (s.entities[entity]?.fields[field] as { read?: string }).read = 'me is orgAdmin';
    expect(problems(s)).toContainEqual(
      expect.objectContaining({
        path: expect.stringMatching(new RegExp(`fields\\.${field}\\.read$`)),
        message: expect.stringContaining(why),
        hint: 'remove "read" here',
      }),
    );
  });

  it('refuses a read permission or a read rule that reads a hidden field (its result would tell)', () => {
    const s = spec();
    const member = s.roles.permissions.member?.timeEntry as { read?: string };
    member.read = 'person = me or rate > 50';
    (entryFields(s).billableAmount as { read?: string }).read = 'rate is empty';
    expect(problems(s)).toEqual([
      expect.objectContaining({
        path: 'entities.timeEntry.fields.billableAmount.read',
        message: expect.stringContaining('"timeEntry.rate"'),
      }),
      expect.objectContaining({
        path: 'roles.permissions.member.timeEntry.read',
        message: expect.stringContaining('"timeEntry.rate"'),
      }),
    ]);
  });

  it('refuses a create, update or delete permission that reads a hidden field (a policy: every such write would fail)', () => {
    const s = spec();
    const admin = s.roles.permissions.orgAdmin as Record<string, object>;
    // Found by the generated specifications: `sum(poll.amount ...)` in an update rule of another
    // entity made every update of it "permission denied", for every role.
    admin.task = { update: { when: 'sum(timeEntry.rate where task = this) < 100', fields: ['title'] } };
    admin.timeEntry = { read: true, delete: 'rate > 50', create: 'rate is empty' };
    expect(problems(s).map((p) => [p.path, p.hint])).toEqual([
      ['roles.permissions.orgAdmin.timeEntry.create', expect.stringContaining('who may write')],
      ['roles.permissions.orgAdmin.timeEntry.delete', expect.stringContaining('who may write')],
      ['roles.permissions.orgAdmin.task.update.when', expect.stringContaining('who may write')],
    ]);
  });

  it('refuses a computed field everyone reads over a hidden one', () => {
    const s = spec();
    const amount = entryFields(s).billableAmount as { read?: string; computed?: string };
    delete amount.read;
    amount.computed = 'hours * rate';
    delete s.states.timeEntry?.transitions.approve?.set?.billableAmount;
    expect(problems(s)).toEqual([
      expect.objectContaining({
        path: 'entities.timeEntry.fields.billableAmount.computed',
        hint: 'give "billableAmount" a "read" rule no weaker than theirs',
      }),
    ]);
  });

  it('refuses per-field reads on an entity whose permissions read its own rows (whole-row helpers)', () => {
    const s = structuredClone(clinicSpec);
    const member = s.roles.permissions.member?.appointment as { read?: string };
    member.read = 'count(appointment where slot = this.slot) < 10';
    expect(problems(s)).toEqual([
      expect.objectContaining({
        path: 'entities.appointment.fields.reason.read',
        message: expect.stringContaining('its own rows'),
      }),
    ]);
    expect(problems(clinicSpec)).toEqual([]);
  });
});
