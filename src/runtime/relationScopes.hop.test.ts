import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import demo from '../../examples/expenses/demo.ts';
import expenses from '../../examples/expenses/spec.ts';
import { createEmbeddedBackend, type EmbeddedBackend } from '../backend/embedded/createEmbeddedBackend.ts';
import { registerDemo } from '../backend/embedded/demo/appDemo.ts';
import { demoAccounts } from '../backend/embedded/demo/demoAccounts.ts';
import type { ListQuery } from '../backend/types.ts';
import { resolve } from '../model/resolve.ts';
import { listScreenQueries } from './listScreenQueries.ts';
import { hopBounds, hopFilters, withHops } from './relationScopes.ts';

registerDemo(expenses, demo);
const model = resolve(expenses);

let b: EmbeddedBackend;
beforeAll(async () => {
  b = await createEmbeddedBackend({ spec: expenses });
  await b.resetDemo();
}, 120_000);
afterAll(async () => {
  await b.close();
});

const ids = async (query: ListQuery): Promise<string[]> =>
  (await b.data.list('claim', { ...query, offset: 0, limit: 1000, count: 'none' })).rows
    .map((r) => r.id)
    .sort();

describe('a screen rule through a reference (`submitter.manager = me`)', () => {
  it('becomes `submitter in (my reports)`, found through the references the rule reads', () => {
    expect(hopBounds(model, 'approvals')).toEqual([{ ref: 'submitter', via: 'person', field: 'manager' }]);
    expect(hopBounds(model, 'myClaims')).toEqual([]);
  });

  it('changes no answer: every demo person sees the same approvals with the filter as without', async () => {
    const sizes: string[] = [];
    for (const account of demoAccounts(expenses)) {
      await b.auth.signOut();
      const { user } = await b.auth.signIn({ email: account.email, password: account.password });
      const { page } = listScreenQueries(model, 'approvals', 'claim', new URLSearchParams(), user);
      const hops = await hopFilters(hopBounds(model, 'approvals'), user.id, (e, q) => b.data.list(e, q));
      const plain = await ids(page);
      expect(await ids({ ...page, filters: [...hops, ...(page.filters ?? [])] }), account.email).toEqual(
        plain,
      );
      // As the app sends it: the hop filter in place of the screen's function.
      const sent = withHops(model, page, hops, user) ?? page;
      expect(sent.screen, account.email).toBeUndefined();
      expect(await ids(sent), account.email).toEqual(plain);
      sizes.push(`${account.role} ${plain.length}`);
    }
    // The manager has claims to approve (the filter was not vacuous).
    expect(sizes.find((s) => s.startsWith('manager '))).not.toBe('manager 0');
  });
});

describe('withHops', () => {
  const user = { id: 'u1', roles: ['manager'] };
  const { page } = listScreenQueries(model, 'approvals', 'claim', new URLSearchParams(), user);
  const hop = { field: 'submitter', op: 'in' as const, value: ['p1', 'p2'] };

  it('sends the hop filter first, and leaves the screen function out once it adds nothing', () => {
    expect(page.screen).toBe('approvals');
    expect(withHops(model, page, [hop], user)).toEqual({
      ...Object.fromEntries(Object.entries(page).filter(([k]) => k !== 'screen')),
      filters: [hop, ...(page.filters ?? [])],
    });
  });

  it('keeps the screen function when the hop was not sent (too many rows to list)', () => {
    expect(withHops(model, page, [], user)).toBe(page);
  });
});
