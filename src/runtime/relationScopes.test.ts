import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import demo from '../../examples/tasks/demo.ts';
import tasks from '../../examples/tasks/spec.ts';
import { createEmbeddedBackend, type EmbeddedBackend } from '../backend/embedded/createEmbeddedBackend.ts';
import { registerDemo } from '../backend/embedded/demo/appDemo.ts';
import { demoAccounts } from '../backend/embedded/demo/demoAccounts.ts';
import type { ListQuery } from '../backend/types.ts';
import { resolve } from '../model/resolve.ts';
import { impliedReadFilters } from './impliedReadFilters.ts';
import { loadRelationScopes, readsThroughRelation, relationVia } from './relationScopes.ts';

registerDemo(tasks, demo);
const model = resolve(tasks);

let b: EmbeddedBackend;
beforeAll(async () => {
  b = await createEmbeddedBackend({ spec: tasks });
  await b.resetDemo();
}, 120_000);
afterAll(async () => {
  await b.close();
});

const ids = async (entity: string, query: ListQuery): Promise<string[]> =>
  (await b.data.list(entity, { ...query, limit: 1000, count: 'none' })).rows.map((r) => r.id).sort();

describe('relationship scopes and the filters they imply', () => {
  it('finds the field naming the scope row, and which reads go through a relationship', () => {
    expect(relationVia(model, 'orgMember', 'task')).toBe('organisation');
    expect(relationVia(model, 'orgMember', 'organisation')).toBe('id');
    expect(relationVia(model, 'projectLead', 'task')).toBe('project');
    expect(relationVia(model, 'member', 'task')).toBeUndefined();
    expect(readsThroughRelation(model, 'task')).toBe(true);
    expect(readsThroughRelation(model, 'person')).toBe(false);
  });

  it('implies `organisation in (the person’s organisations)` for a task list, and nothing without scopes', () => {
    const user = { id: 'u1', roles: ['member'] };
    const scopes = new Map([
      ['orgMember', ['o1', 'o2']],
      ['orgAdmin', ['o2']],
    ]);
    expect(impliedReadFilters(model, 'task', user, scopes)).toEqual([
      { field: 'organisation', op: 'in', value: ['o1', 'o2'] },
    ]);
    expect(impliedReadFilters(model, 'task', user)).toEqual([]);
    // An organisation is read by its owner too (`owner = me or me is orgMember`): no one field
    // bounds both; the platform administrator reads every organisation.
    expect(impliedReadFilters(model, 'organisation', user, scopes)).toEqual([]);
    expect(impliedReadFilters(model, 'organisation', { id: 'u1', roles: ['admin'] }, scopes)).toEqual([]);
  });

  it('changes no answer: every demo person lists the same rows with the implied filters as without', async () => {
    const checked: string[] = [];
    for (const account of demoAccounts(tasks)) {
      await b.auth.signOut();
      const { user } = await b.auth.signIn({ email: account.email, password: account.password });
      const scopes = await loadRelationScopes(model, user.id, (e, q) => b.data.list(e, q));
      for (const entity of model.tables.keys()) {
        if (!readsThroughRelation(model, entity)) continue;
        const implied = impliedReadFilters(model, entity, user, scopes);
        const plain = await ids(entity, {});
        expect(await ids(entity, { filters: implied }), `${account.email} ${entity}`).toEqual(plain);
        if (implied.length > 0) checked.push(`${account.role} ${entity} ${plain.length}`);
      }
    }
    // The filters were sent where a member reads through their organisations (not vacuous).
    expect(checked).toContain(`member task ${(await taskCountOf('member@demo.test')).toString()}`);
  });
});

async function taskCountOf(email: string): Promise<number> {
  await b.auth.signOut();
  await b.auth.signIn({ email, password: `demo-${email.split('@')[0]}` });
  return (await ids('task', {})).length;
}
