import { describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import tasks from '../../examples/tasks/spec.ts';
import { resolve } from '../model/resolve.ts';
import { fieldRuleHolds, formSchema } from './formSchema.ts';
import { fixtureSpec as spec } from './testing/fixtureSpec.ts';

const alice = { id: 'alice', roles: ['customer'] };

describe('formSchema', () => {
  const create = formSchema(resolve(spec), 'ticket', 'create', ['customer'], {
    fields: spec.screens.newTicket?.fields ?? [],
  });
  it('lists the screen fields with widgets and limits', () => {
    expect(create.fields.map((f) => [f.name, f.widget, f.required])).toEqual([
      ['title', 'text', true],
      ['body', 'textarea', false],
      ['priority', 'select', true],
      ['budget', 'money', false],
    ]);
    expect(create.fields[0]?.limits).toEqual({ minLength: 5, maxLength: 80 });
    expect(create.fields[3]?.limits).toEqual({ min: 0, max: 1000 });
    expect(create.fields[2]?.values).toEqual(['low', 'normal', 'high']);
  });
  it('never offers status or owner fields', () => {
    const all = formSchema(resolve(spec), 'ticket', 'create', ['customer']);
    expect(all.fields.map((f) => f.name)).not.toContain('status');
    expect(all.fields.map((f) => f.name)).not.toContain('requester');
  });
  it('starts from defaults', () => {
    expect(create.initialValues(alice)).toEqual({ priority: 'normal' });
  });
  it('validates with catalogue messages and constants', () => {
    expect(create.validate({ title: 'Hi', priority: 'low' }, alice)).toEqual({
      title: 'A title has 5 to 80 characters.',
    });
    expect(create.validate({ priority: 'low' }, alice)).toEqual({ title: 'This field is required.' });
    expect(create.validate({ title: 'Printer broken', priority: 'low', budget: 5000 }, alice)).toEqual({
      // The constant is money (unit EUR): it reads as money (issue 31.3).
      budget: 'Budget is between 0 and €1,000.00.',
    });
    expect(create.validate({ title: 'Printer broken', priority: 'low', budget: 'abc' }, alice).budget).toBe(
      'Enter a number.',
    );
  });
  it('checks row rules and attaches them to their field', () => {
    expect(create.validate({ title: 'Printer broken', priority: 'high' }, alice)).toEqual({
      body: 'High priority tickets need a description.',
    });
    expect(create.validate({ title: 'Printer broken', priority: 'high', body: 'It smokes' }, alice)).toEqual(
      {},
    );
  });
  it('edit mode marks fields the role may not change', () => {
    const row = { id: 't', requester: 'alice', status: 'open' };
    const edit = formSchema(resolve(spec), 'ticket', 'edit', ['customer'], { row, userId: 'alice' });
    const editable = Object.fromEntries(edit.fields.map((f) => [f.name, f.editable]));
    expect(editable).toMatchObject({ title: true, body: true, priority: false, assignee: false });
    // fields the user cannot edit are not validated
    expect(edit.validate({ title: 'Long enough', priority: null }, alice)).toEqual({});
  });
  it('transition input: every field is required and editable', () => {
    const input = formSchema(resolve(spec), 'ticket', 'create', ['customer'], {
      fields: ['body'],
      allEditable: true,
      allRequired: true,
    });
    expect(input.fields.map((f) => [f.name, f.required, f.editable])).toEqual([['body', true, true]]);
    expect(input.validate({ body: '' }, alice).body).toBe('This field is required.');
  });
  it('field rules: patterns and formats', () => {
    expect(
      fieldRuleHolds(resolve(spec), { kind: 'field', field: 'x', pattern: '^[A-Z]+$', error: 'E' }, 'ABC'),
    ).toBe(true);
    expect(
      fieldRuleHolds(resolve(spec), { kind: 'field', field: 'x', pattern: '^[A-Z]+$', error: 'E' }, 'abc'),
    ).toBe(false);
    expect(
      fieldRuleHolds(resolve(spec), { kind: 'field', field: 'x', format: 'email', error: 'E' }, 'a@b.co'),
    ).toBe(true);
    expect(
      fieldRuleHolds(resolve(spec), { kind: 'field', field: 'x', format: 'email', error: 'E' }, 'a@b'),
    ).toBe(false);
  });
});

describe('formSchema: row rules as the database checks them', () => {
  const emp = { id: 'emp', roles: ['employee'] };
  const line = formSchema(resolve(expenses), 'line', 'create', ['employee'], {
    fields: ['date', 'category', 'description', 'distanceKm', 'amount', 'currency'],
    userId: 'emp',
  });
  const base = {
    date: new Date().toISOString().slice(0, 10),
    description: 'Drive',
    amount: 10,
    currency: 'EUR',
  };
  it('an empty input is an empty value: unknown refuses, like coalesce(rule, false)', () => {
    const errors = line.validate({ ...base, category: 'mileage' }, emp);
    expect(errors.distanceKm).toBe('Enter the distance driven for mileage.');
  });
  it('rules that read other rows are left to the server', () => {
    expect(line.validate({ ...base, category: 'travel', currency: 'USD' }, emp)).toEqual({});
  });
});

describe('formSchema: a rule checked on change (onChange, DUE_IN_PAST)', async () => {
  const helpdesk = (await import('../../examples/helpdesk/spec.ts')).default;
  const agent = { id: 'agent', roles: ['agent'] };
  const past = new Date(Date.now() - 3_600_000).toISOString();
  const future = new Date(Date.now() + 3_600_000).toISOString();
  const stored = {
    id: 't1',
    title: 'Printer jam',
    description: 'The printer jams on every page.',
    priority: 'normal',
    status: 'open',
    dueAt: past,
    createdAt: new Date(Date.now() - 7_200_000).toISOString(),
  };
  const edit = formSchema(resolve(helpdesk), 'ticket', 'edit', ['agent'], { row: stored });

  it('leaves an overdue ticket’s unchanged due date alone, and refuses setting a past one', () => {
    expect(edit.validate({ ...stored, title: 'Printer jams' }, agent, stored).dueAt).toBeUndefined();
    const moved = new Date(Date.now() - 1_800_000).toISOString();
    expect(edit.validate({ ...stored, dueAt: moved }, agent, stored).dueAt).toBe(
      'The due date has passed; choose a time from now on.',
    );
    expect(edit.validate({ ...stored, dueAt: future }, agent, stored).dueAt).toBeUndefined();
  });

  it('judges the value on create (no stored row)', () => {
    const create = formSchema(resolve(helpdesk), 'ticket', 'create', ['agent']);
    expect(create.validate({ title: 'Printer jam', dueAt: past }, agent).dueAt).toBe(
      'The due date has passed; choose a time from now on.',
    );
  });
});

describe("a bound in the currency of the amount it bounds (Team Tasks' highest hourly rate)", () => {
  const model = resolve(tasks);
  const stored = { id: 'r1', organisation: 'o1', person: 'p1', hourlyRate: 100, currency: 'JPY' };
  const edit = formSchema(model, 'rate', 'edit', ['member'], { row: stored });
  const who = { id: 'p0', roles: ['member'] };

  it("an edit form names the highest rate in the stored row's currency, not a fixed one", () => {
    expect(edit.validate({ hourlyRate: 900 }, who, stored).hourlyRate).toBe(
      'An hourly rate may be at most ¥500.',
    );
    expect(edit.validate({ hourlyRate: 400 }, who, stored).hourlyRate).toBeUndefined();
  });
});
