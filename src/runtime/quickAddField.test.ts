import { describe, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/spec.ts';
import polls from '../../test/anyspec/polls/spec.ts';
import { resolve } from '../model/resolve.ts';
import type { AppSpec } from '../spec/types.ts';
import { can } from './can.ts';
import { quickAddField } from './quickAddField.ts';

/** Issue 16, item 9: related lists. */
describe('quickAddField', () => {
  it('asks for the text of a child whose other required fields the server fills (a comment)', () => {
    expect(quickAddField(resolve(helpdesk), 'comment', 'ticket', { ticket: 't1' })).toBe('body');
  });
  it('sends a child with another required field to the full form (it would always fail)', () => {
    const spec = structuredClone(helpdesk) as AppSpec;
    const comment = spec.entities.comment as AppSpec['entities'][string];
    comment.fields.minutes = { type: 'integer', required: true };
    expect(quickAddField(resolve(spec), 'comment', 'ticket', { ticket: 't1' })).toBeUndefined();
    // …unless the parent gives it, or it has a default.
    expect(quickAddField(resolve(spec), 'comment', 'ticket', { ticket: 't1', minutes: 5 })).toBe('body');
    comment.fields.minutes = { type: 'integer', required: true, default: 0 };
    expect(quickAddField(resolve(spec), 'comment', 'ticket', { ticket: 't1' })).toBe('body');
  });
  it('offers no quick box for a child without a required long text (a vote)', () => {
    expect(quickAddField(resolve(polls), 'vote', 'poll', { poll: 'p1' })).toBeUndefined();
  });
  it('a role that may not read the child is shown no list (the related list asks `can read`)', () => {
    const spec = structuredClone(polls) as AppSpec;
    spec.roles.roles.guest = { label: 'Guest' };
    spec.roles.permissions.guest = { member: { read: true }, poll: { read: true } };
    expect(can(resolve(spec), { id: 'g', roles: ['guest'] }, 'vote', 'read').ok).toBe(false);
    expect(can(resolve(spec), { id: 'm', roles: ['member'] }, 'vote', 'read').ok).toBe(true);
  });
});
