import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEmbeddedBackend,
  type EmbeddedBackend,
} from '../../src/backend/embedded/createEmbeddedBackend.ts';
import { registerDemo } from '../../src/backend/embedded/demo/appDemo.ts';
import { wipeAppData } from '../../src/backend/embedded/demo/seedDemo.ts';
import { seedDemoAccounts } from '../../src/backend/embedded/demo/seedDemoAccounts.ts';
import { resolve } from '../../src/model/resolve.ts';
import demo from './demo.ts';
import { expensesDemo } from './demoData.ts';
import expenses from './spec.ts';

// The app's demo is its own (examples/expenses/demo.ts); the app entry registers it the same way.
registerDemo(expenses, demo);

/** email → the manager's email, for the demo accounts and the director. */
async function reportingLines(b: EmbeddedBackend): Promise<Record<string, string | null>> {
  const r = await b.asOwner((tx) =>
    tx.query<{ email: string; manager: string | null }>(
      `select p.email, m.email as manager from public.person p left join public.person m on m.id = p.manager
        where p.email like '%@demo.test' or p.email = 'ingrid.vos@example.test'`,
    ),
  );
  return Object.fromEntries(r.rows.map((row) => [row.email, row.manager]));
}

const DEMO_LINES = {
  'employee@demo.test': 'manager@demo.test',
  'finance@demo.test': 'manager@demo.test',
  'finance2@demo.test': 'manager@demo.test',
  'admin@demo.test': 'manager@demo.test',
  'manager@demo.test': 'ingrid.vos@example.test',
  'ingrid.vos@example.test': null,
};

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

  it('gives the demo accounts reporting lines: the whole approval flow works without SQL', async () => {
    expect(await reportingLines(b)).toEqual(DEMO_LINES);
    // Accounts only (`?memory`, snapshots without demo data): the same lines.
    await b.asOwner(async (tx) => {
      await wipeAppData(tx, resolve(expenses));
      await seedDemoAccounts(tx, expenses);
      await seedDemoAccounts(tx, expenses); // idempotent
    });
    expect(await reportingLines(b)).toEqual(DEMO_LINES);
    await b.auth.signIn({ email: 'manager@demo.test', password: 'demo-manager' });
    const costCentres = await b.asOwner((tx) =>
      tx.query<{ n: number }>(`select count(*)::int as n from public.person where cost_centre is not null`),
    );
    expect(costCentres.rows[0]?.n).toBe(6); // five demo accounts (two in finance) and the director
    await b.auth.signOut();
  });
});

describe('expenses demo data tells one story (issue 14: seed data that contradicts itself)', () => {
  const now = new Date('2026-06-15T12:00:00Z');
  const plan = expensesDemo(expenses, now);

  it('every step of a claim comes after the one before it, and none after now', () => {
    const steps = ['submittedAt', 'approvedAt', 'financeApprovedAt', 'paidAt'];
    for (const c of plan.rows.filter((r) => r.entity === 'claim')) {
      const times = steps
        .map((s) => c.after?.[s])
        .filter((v): v is Date => v instanceof Date)
        .map((d) => d.getTime());
      expect(times, c.key).toEqual([...times].sort((a, b) => a - b));
      for (const t of times) expect(t, c.key).toBeLessThan(now.getTime());
      for (const t of times) expect(t, c.key).toBeGreaterThanOrEqual(c.createdAt.getTime());
    }
  });

  it('issue 31 (low): a returned claim says when it was submitted', () => {
    const returned = plan.rows.filter((r) => r.entity === 'claim' && r.after?.status === 'returned');
    expect(returned.length).toBeGreaterThan(0);
    for (const c of returned) expect(c.after?.submittedAt, c.key).toBeInstanceOf(Date);
  });

  it('a rejection reason fits the claim (no "more than 90 days" on a recent one)', () => {
    for (const c of plan.rows.filter((r) => r.entity === 'claim' && r.after?.rejectionReason))
      expect(String(c.after?.rejectionReason)).not.toMatch(/90 days/);
  });
});
