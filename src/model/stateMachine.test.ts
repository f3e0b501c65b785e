import { describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { resolve } from './resolve.ts';

describe('issue 29: the model carries what the runtime read from the raw spec', () => {
  it('state machines: field, first state, labels (or names spelled out), final flags, waitingOn', () => {
    const ticket = resolve(helpdesk).machines.get('ticket');
    expect(ticket?.field).toBe('status');
    expect(ticket?.initial).toBe('new');
    expect(ticket?.states.get('pending')).toMatchObject({ label: 'Waiting on customer', final: false });
    expect(ticket?.states.get('pending')?.waitingOn).toBe('requester = me');
    expect([...(ticket?.states.values() ?? [])].some((s) => s.final)).toBe(true);
    expect(resolve(helpdesk).machines.has('comment')).toBe(false);
  });

  it('validation rules in spec order, each with the form field its message attaches to', () => {
    const rules = resolve(expenses).validation.get('line') ?? [];
    expect(rules.map((r) => r.index)).toEqual(rules.map((_, i) => i));
    const byCode = (code: string) => rules.find((r) => r.rule.error === code);
    // The rule's own field.
    expect(byCode('MILEAGE_DISTANCE_REQUIRED')?.target).toBe('distanceKm');
    // No field on the rule, none of this entity in the catalogue: the form's own message.
    expect(byCode('TOO_MANY_LINES')?.target).toBeUndefined();
  });
});
