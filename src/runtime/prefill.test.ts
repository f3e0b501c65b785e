import { describe, expect, it } from 'vitest';
import { teamSpec } from '../check/fixtures/teamSpec.ts';
import { resolve } from '../model/resolve.ts';
import { formSchema } from './formSchema.ts';
import { prefillValues } from './prefill.ts';

describe('a create form prefilled from its query string', () => {
  const model = resolve(teamSpec());
  const schema = formSchema(model, 'task', 'create', ['member'], {
    fields: ['title', 'team', 'project'],
    userId: 'u1',
  });

  it('takes the fields the form shows, typed', () => {
    expect(prefillValues(schema.fields, '?team=t1&title=Fix%20it&project=p9')).toEqual({
      team: 't1',
      title: 'Fix it',
      project: 'p9',
    });
  });

  it('ignores fields the form does not show and values a field cannot hold', () => {
    expect(prefillValues(schema.fields, '?assignee=u2&status=done&team=t1')).toEqual({ team: 't1' });
    const m = resolve(teamSpec());
    const membership = formSchema(m, 'membership', 'create', ['admin'], { userId: 'u1' });
    expect(prefillValues(membership.fields, '?role=boss')).toEqual({});
    expect(prefillValues(membership.fields, '?role=owner&team=t2')).toEqual({ role: 'owner', team: 't2' });
  });
});
