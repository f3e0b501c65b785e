import { describe, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { resolve } from './resolve.ts';

describe('issue 29: the model carries the state machines the runtime read from the raw spec', () => {
  it('field, first state, labels (or names spelled out), final flags, waitingOn', () => {
    const ticket = resolve(helpdesk).machines.get('ticket');
    expect(ticket?.field).toBe('status');
    expect(ticket?.initial).toBe('new');
    expect(ticket?.states.get('pending')).toMatchObject({ label: 'Waiting on customer', final: false });
    expect(ticket?.states.get('pending')?.waitingOn).toBe('requester = me');
    expect([...(ticket?.states.values() ?? [])].some((s) => s.final)).toBe(true);
    expect(resolve(helpdesk).machines.has('comment')).toBe(false);
  });
});
