import { describe, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { resolve } from '../model/resolve.ts';
import { effectiveRoles } from './roles.ts';

describe('issue 29: roles come from the model’s resolved closure, not a walk of their own', () => {
  const model = resolve(helpdesk);

  it('is the union of each held role’s RoleNode.implied, in the order first reached', () => {
    expect(effectiveRoles(model, ['admin'])).toEqual(model.roles.get('admin')?.implied);
    expect(effectiveRoles(model, ['customer', 'agent'])).toEqual(['customer', 'agent']);
  });

  it('reads only the model: a closure the model says is the closure used', () => {
    const roles = new Map(model.roles);
    roles.set('agent', {
      ...(model.roles.get('agent') as NonNullable<ReturnType<typeof model.roles.get>>),
      implied: ['agent'],
    });
    expect(effectiveRoles({ roles }, ['agent'])).toEqual(['agent']);
  });

  it('a role the model does not know counts as itself only', () => {
    expect(effectiveRoles(model, ['ghost'])).toEqual(['ghost']);
  });
});
