import { describe, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { miniSpec } from '../check/fixtures/miniSpec.ts';
import { validateSpec } from '../check/validateSpec.ts';
import { resolve } from '../model/resolve.ts';
import type { AppSpec } from '../spec/types.ts';
import { availableTransitions } from './availableTransitions.ts';
import { bulkTransitions } from './bulkTransitions.ts';
import { formSchema } from './formSchema.ts';
import { transitionDialogCheck } from './transitionDialogCheck.ts';

/** Issue 31: a transition asks for optional input (the rating's comment) beside required input. */
describe('optional transition input', () => {
  const model = resolve(helpdesk as AppSpec);
  const customer = { id: 'c1', roles: ['customer'] };
  const row = { id: 't1', status: 'solved', requester: 'c1', rating: null, ratingComment: null };
  const rate = availableTransitions(model, customer, 'ticket', row).find((o) => o.name === 'rate');
  if (!rate) throw new Error('the customer is offered no rating');
  const schema = formSchema(model, 'ticket', 'create', customer.roles, {
    fields: rate.input,
    allEditable: true,
    allRequired: true,
    optional: rate.optional,
  });
  const check = (input: Record<string, unknown>) =>
    transitionDialogCheck(model, customer, 'ticket', row, rate, schema, input);

  it('the dialog asks for the rating and its comment, and only the rating is required', () => {
    expect(rate.input).toEqual(['rating', 'ratingComment']);
    expect(rate.optional).toEqual(['ratingComment']);
    expect(schema.fields.map((f) => [f.name, f.required])).toEqual([
      ['rating', true],
      ['ratingComment', false],
    ]);
  });

  it('a rating without a comment may be sent; a comment without a rating may not', () => {
    expect(check({ rating: 'good', ratingComment: null })).toEqual({ errors: {} });
    expect(check({ rating: null, ratingComment: 'Kind people' }).errors).toEqual({
      rating: 'This field is required.',
    });
  });

  it('the comment’s own rule still holds in the dialog', () => {
    const long = 'x'.repeat(Number(model.constants.get('commentMaxLength')?.value) + 1);
    expect(Object.keys(check({ rating: 'good', ratingComment: long }).errors)).toEqual(['ratingComment']);
  });

  it('a transition that asks for anything, even optional input only, is not run in bulk', () => {
    const spec = miniSpec();
    const solve = spec.states.ticket!.transitions.solve!;
    delete solve.guard;
    delete solve.guardError;
    spec.entities.ticket!.fields.note = { type: 'longtext' };
    solve.optionalInput = ['note'];
    const agent = { id: 'a1', roles: ['agent'] };
    const open = { id: 't1', status: 'open', title: 'T' };
    const m = resolve(spec);
    expect(availableTransitions(m, agent, 'ticket', open).find((o) => o.name === 'solve')?.input).toEqual([
      'note',
    ]);
    expect(bulkTransitions(m, agent, 'ticket', [open]).map((b) => b.name)).not.toContain('solve');
  });

  it('check names an unknown optional input field, and one listed as both required and optional', () => {
    const spec = miniSpec();
    const solve = spec.states.ticket!.transitions.solve!;
    solve.optionalInput = ['titel'];
    const unknown = validateSpec(spec).diagnostics;
    expect(unknown.map((d) => d.path)).toContain('states.ticket.transitions.solve.optionalInput[0]');
    solve.input = ['title'];
    solve.optionalInput = ['title'];
    const both = validateSpec(spec).diagnostics;
    expect(both.map((d) => [d.path, d.message])).toContainEqual([
      'states.ticket.transitions.solve.optionalInput[0]',
      '"title" is both required (input) and optional (optionalInput)',
    ]);
  });
});
