import { describe, expect, it } from 'vitest';
import { miniSpec } from '../check/fixtures/miniSpec.ts';
import { resolve } from '../model/resolve.ts';
import { availableTransitions } from './availableTransitions.ts';
import { formSchema } from './formSchema.ts';
import { transitionDialogCheck } from './transitionDialogCheck.ts';

describe('transitionDialogCheck (issue 16 item 7)', () => {
  // A transition into `solved` asks for the resolution; a row rule requires it once solved.
  const spec = miniSpec();
  spec.entities.ticket!.fields.resolution = { type: 'longtext' };
  const solve = spec.states.ticket!.transitions.solve!;
  solve.input = ['resolution'];
  delete solve.guard;
  delete solve.guardError;
  spec.errors.RESOLUTION_REQUIRED = { message: 'Say how it was solved.', severity: 'error' };
  spec.errors.RESOLUTION_SHORT = {
    message: 'Say a little more.',
    severity: 'error',
    field: 'ticket.resolution',
  };
  spec.validation.ticket = [
    { kind: 'row', rule: 'resolution is not empty', when: 'status = solved', error: 'RESOLUTION_REQUIRED' },
    { kind: 'row', rule: 'length(resolution) >= 5', when: 'status = solved', error: 'RESOLUTION_SHORT' },
  ];
  const agent = { id: 'a1', roles: ['agent'] };
  const row = { id: 't1', status: 'open', title: 'T', resolution: null };
  const option = availableTransitions(resolve(spec), agent, 'ticket', row).find((o) => o.name === 'solve')!;
  const schema = formSchema(resolve(spec), 'ticket', 'create', agent.roles, {
    fields: option.input,
    allEditable: true,
    allRequired: true,
  });
  const check = (resolution: unknown) =>
    transitionDialogCheck(resolve(spec), agent, 'ticket', row, option, schema, { resolution });

  it('the button that opens the dialog is enabled before any input exists', () => {
    expect(option.allowed).toBe(true);
  });

  it('an empty input breaks the rule: the dialog shows its message and cannot submit', () => {
    expect(check(null)).toEqual({
      errors: { resolution: 'This field is required.' },
      reason: 'Say how it was solved.',
    });
    expect(check('')).toMatchObject({ reason: 'Say how it was solved.' });
  });

  it('rules are judged with the target status: a rule on the field shows on the field', () => {
    // On the row as it is (status open) the `when` does not hold and nothing would be said.
    expect(schema.validate({ ...row, resolution: 'abc' }, agent)).toEqual({});
    expect(check('abc')).toEqual({
      errors: { resolution: 'Say a little more.' },
      reason: 'Say a little more.',
    });
  });

  it('once the input satisfies the rules the dialog may submit', () => {
    expect(check('Rebooted the router')).toEqual({ errors: {} });
  });
});
