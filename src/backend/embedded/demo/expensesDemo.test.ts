import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import expenses from '../../../../examples/expenses/spec.ts';
import { createEmbeddedBackend, type EmbeddedBackend } from '../createEmbeddedBackend.ts';
import { expensesDemo } from './expensesDemo.ts';

let b: EmbeddedBackend;
beforeAll(async () => {
  b = await createEmbeddedBackend({ spec: expenses });
  await b.resetDemo();
}, 120_000);
afterAll(async () => {
  await b.close();
});

describe('expenses demo data', () => {
  it('is deterministic for a given day', () => {
    const day = new Date('2026-03-01T09:00:00Z');
    expect(JSON.stringify(expensesDemo(expenses, day))).toBe(JSON.stringify(expensesDemo(expenses, day)));
  });

  it('seeds within every constraint; each role sees its share', async () => {
    await b.auth.signIn({ email: 'finance@demo.test', password: 'demo-finance' });
    const visible = await b.data.list('claim', { limit: 0 });
    expect(visible.total).toBeGreaterThan(90);
    const paid = await b.data.list('claim', {
      filters: [{ field: 'status', op: 'eq', value: 'paid' }],
      limit: 0,
    });
    expect(paid.total).toBeGreaterThan(20);
    expect((await b.data.list('line', { limit: 0 })).total).toBeGreaterThan(200);
    await b.auth.signOut();
    await b.auth.signIn({ email: 'employee@demo.test', password: 'demo-employee' });
    const mine = await b.data.list('claim', { limit: 0 });
    expect(mine.total).toBeGreaterThan(10);
    expect(mine.total).toBeLessThan(60);
  });
});
