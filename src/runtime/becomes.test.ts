import { describe, expect, it } from 'vitest';
import { resolve } from '../model/resolve.ts';
import type { AppSpec } from '../spec/types.ts';
import { becomesRefusal } from './becomes.ts';
import { formSchema } from './formSchema.ts';
import { fixtureSpec } from './testing/fixtureSpec.ts';

/** The fixture with an agent who may change a ticket's priority, but only an admin makes it urgent. */
function withBecomes(error?: string): AppSpec {
  const agent = { when: true, fields: ['priority', 'assignee'], becomes: 'priority != high or me is admin' };
  return {
    ...fixtureSpec,
    roles: {
      ...fixtureSpec.roles,
      permissions: {
        ...fixtureSpec.roles.permissions,
        agent: { ticket: { read: true, update: error ? { ...agent, error } : agent, delete: false } },
      },
    },
    errors: {
      ...fixtureSpec.errors,
      ONLY_ADMIN_RAISES: {
        message: 'Only an administrator makes a ticket urgent.',
        severity: 'error',
        field: 'ticket.priority',
      },
    },
  };
}

const model = resolve(withBecomes('ONLY_ADMIN_RAISES'));
const agent = { id: 'agent1', roles: ['agent'] };
const admin = { id: 'root', roles: ['admin'] };
const alice = { id: 'alice', roles: ['customer'] };
const stored = {
  id: 't1',
  requester: 'alice',
  status: 'open',
  title: 'Printer',
  body: '',
  priority: 'normal',
};

describe('becomesRefusal', () => {
  it('refuses with the catalogue code when no applying permission lets the new row through', () => {
    expect(becomesRefusal(model, agent, 'ticket', stored, { ...stored, priority: 'high' })).toBe(
      'ONLY_ADMIN_RAISES',
    );
    expect(becomesRefusal(model, agent, 'ticket', stored, { ...stored, priority: 'low' })).toBeUndefined();
    expect(becomesRefusal(model, admin, 'ticket', stored, { ...stored, priority: 'high' })).toBeUndefined();
  });
  it('lets a permission without becomes through, and ignores those that do not apply', () => {
    // Alice's own permission (no becomes) applies to her open ticket: the row is hers to write.
    expect(becomesRefusal(model, alice, 'ticket', stored, { ...stored, priority: 'high' })).toBeUndefined();
    const closed = { ...stored, requester: 'bob' };
    expect(becomesRefusal(model, alice, 'ticket', closed, { ...closed, priority: 'high' })).toBeUndefined();
  });
  it('falls back to FORBIDDEN when the permission names no error', () => {
    const m = resolve(withBecomes());
    expect(m.policies.find((p) => p.role === 'agent' && p.action === 'update')?.error).toBe('FORBIDDEN');
    expect(becomesRefusal(m, agent, 'ticket', stored, { ...stored, priority: 'high' })).toBe('FORBIDDEN');
  });
  it("the edit form shows the code's message on its field before submit", () => {
    const form = formSchema(model, 'ticket', 'edit', ['agent'], { row: stored, userId: agent.id });
    expect(form.validate({ ...stored, priority: 'high', body: 'Down' }, agent, stored)).toEqual({
      priority: 'Only an administrator makes a ticket urgent.',
    });
    expect(form.validate({ ...stored, priority: 'low' }, agent, stored)).toEqual({});
    const asAdmin = formSchema(model, 'ticket', 'edit', ['admin'], { row: stored, userId: admin.id });
    expect(asAdmin.validate({ ...stored, priority: 'high', body: 'Down' }, admin, stored)).toEqual({});
  });
});

describe('becomesRefusal on a create', () => {
  // Anyone signed up files tickets; only an administrator files one urgent.
  const spec = withBecomes('ONLY_ADMIN_RAISES');
  const m = resolve({
    ...spec,
    roles: {
      ...spec.roles,
      permissions: {
        ...spec.roles.permissions,
        customer: {
          ...spec.roles.permissions.customer,
          ticket: {
            ...spec.roles.permissions.customer?.ticket,
            create: { when: true, becomes: 'priority != high or me is admin', error: 'ONLY_ADMIN_RAISES' },
          },
        },
      },
    },
  });
  const draft = { requester: 'alice', title: 'Printer', body: 'Down', priority: 'high' };
  it('decides on the new row: refused for a customer and an agent, not for an admin', () => {
    expect(becomesRefusal(m, alice, 'ticket', null, draft)).toBe('ONLY_ADMIN_RAISES');
    expect(becomesRefusal(m, agent, 'ticket', null, draft)).toBe('ONLY_ADMIN_RAISES');
    expect(becomesRefusal(m, admin, 'ticket', null, draft)).toBeUndefined();
    expect(becomesRefusal(m, alice, 'ticket', null, { ...draft, priority: 'low' })).toBeUndefined();
  });
  it("the create form shows the code's message before submit", () => {
    const form = formSchema(m, 'ticket', 'create', ['customer'], { userId: alice.id });
    const errors = form.validate(draft, alice);
    expect(Object.values(errors)).toEqual(['Only an administrator makes a ticket urgent.']);
    expect(form.validate({ ...draft, priority: 'low' }, alice)).toEqual({});
  });
});
