import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEmbeddedBackend,
  type EmbeddedBackend,
} from '../../src/backend/embedded/createEmbeddedBackend.ts';
import { registerDemo } from '../../src/backend/embedded/demo/appDemo.ts';
import { demoAccounts } from '../../src/backend/embedded/demo/demoAccounts.ts';
import { resolve } from '../../src/model/resolve.ts';
import { heldQueries } from '../../src/runtime/relationRolesHeld.ts';
import demo from './demo.ts';
import { tasksDemo } from './demoData.ts';
import tasks from './spec.ts';

// The app's demo is its own (examples/tasks/demo.ts); the app entry registers it the same way.
registerDemo(tasks, demo);

let b: EmbeddedBackend;
beforeAll(async () => {
  b = await createEmbeddedBackend({ spec: tasks });
  await b.resetDemo();
}, 120_000);
afterAll(async () => {
  await b.close();
});

async function as(email: string, password: string): Promise<void> {
  await b.auth.signOut();
  await b.auth.signIn({ email, password });
}

/** email → the organisations (by name) and role of each of that person's memberships. */
async function memberships(): Promise<Record<string, string[]>> {
  const r = await b.asOwner((tx) =>
    tx.query<{ email: string; name: string; role: string }>(
      `select p.email, o.name, m.role from public.membership m join public.person p on p.id = m.person
         join public.organisation o on o.id = m.organisation where p.email like '%@demo.test' order by o.name`,
    ),
  );
  const out: Record<string, string[]> = {};
  for (const row of r.rows) out[row.email] = [...(out[row.email] ?? []), `${row.name}: ${row.role}`];
  return out;
}

describe('Team Tasks demo data', () => {
  it('is deterministic for a given day', () => {
    const day = new Date('2026-03-01T09:00:00Z');
    expect(JSON.stringify(tasksDemo(tasks, day))).toBe(JSON.stringify(tasksDemo(tasks, day)));
  });

  it('has a demo account for every role, in an organisation or on the platform', async () => {
    expect(demoAccounts(tasks).map((a) => [a.email, a.role, a.holds])).toEqual([
      ['member@demo.test', 'member', undefined],
      ['orgadmin@demo.test', 'member', 'orgAdmin'],
      ['orgowner@demo.test', 'member', 'orgOwner'],
      ['projectlead@demo.test', 'member', 'projectLead'],
      ['admin@demo.test', 'admin', undefined],
    ]);
    expect(await memberships()).toEqual({
      'member@demo.test': ['Bluefin Labs: member', 'Northwind Studio: member'],
      'orgadmin@demo.test': ['Bluefin Labs: member', 'Northwind Studio: admin'],
      'orgowner@demo.test': ['Northwind Studio: owner'],
      'projectlead@demo.test': ['Northwind Studio: member'],
    });
  });

  it('gives each account made for a relationship role that role, as the app decides it', async () => {
    const model = resolve(tasks);
    for (const a of demoAccounts(tasks).filter((x) => x.holds !== undefined)) {
      const session = await b.auth.signIn({ email: a.email, password: a.password });
      const held: string[] = [];
      for (const q of heldQueries(model, session.user.id)) {
        const { rows } = await b.data.list(q.entity, { filters: q.filters, limit: 1, count: 'none' });
        if (rows.length > 0) held.push(q.role);
      }
      expect(held, a.email).toContain(a.holds);
      await b.auth.signOut();
    }
  });

  it('keeps the organisations apart: each account sees only the organisations it belongs to', async () => {
    const names = async () =>
      (await b.data.list('organisation', { limit: 50 })).rows.map((o) => String(o.name)).sort();
    await as('orgowner@demo.test', 'demo-orgOwner');
    expect(await names()).toEqual(['Northwind Studio']);
    const ownTasks = await b.data.list('task', { limit: 0 });
    expect(ownTasks.total).toBeGreaterThan(15);
    await as('member@demo.test', 'demo-member');
    expect(await names()).toEqual(['Bluefin Labs', 'Northwind Studio']);
    const both = await b.data.list('task', { limit: 0 });
    expect(both.total).toBeGreaterThan(ownTasks.total ?? 0);
    await as('projectlead@demo.test', 'demo-projectLead');
    expect((await b.data.list('task', { limit: 0 })).total).toBe(ownTasks.total);
    await as('admin@demo.test', 'demo-admin');
    expect(await names()).toEqual(['Bluefin Labs', 'Northwind Studio']);
    expect((await b.data.list('task', { limit: 0 })).total).toBe(0);
  });

  it('shows rates to owners and administrators only', async () => {
    await as('orgowner@demo.test', 'demo-orgOwner');
    const northwindRates = (await b.data.list('rate', { limit: 0 })).total;
    expect(northwindRates).toBe(9);
    await as('orgadmin@demo.test', 'demo-orgAdmin');
    expect((await b.data.list('rate', { limit: 0 })).total).toBe(northwindRates);
    for (const [email, password] of [
      ['member@demo.test', 'demo-member'],
      ['projectlead@demo.test', 'demo-projectLead'],
    ] as const) {
      await as(email, password);
      expect((await b.data.list('rate', { limit: 0 })).total, email).toBe(0);
    }
  });

  it('has tasks in every state, overdue ones past their due date, and approved time billed at the rate', async () => {
    await as('member@demo.test', 'demo-member');
    const count = async (entity: string, field: string, value: string) =>
      (await b.data.list(entity, { filters: [{ field, op: 'eq', value }], limit: 0 })).total;
    for (const s of ['open', 'in_progress', 'overdue', 'done'])
      expect(await count('task', 'status', s), s).toBeGreaterThan(0);
    const overdue = await b.data.list('task', {
      filters: [{ field: 'status', op: 'eq', value: 'overdue' }],
      limit: 200,
    });
    const today = new Date().toISOString().slice(0, 10);
    for (const t of overdue.rows) expect(String(t.dueDate) < today, String(t.title)).toBe(true);
    await as('orgowner@demo.test', 'demo-orgOwner');
    const approved = await b.data.list('timeEntry', {
      filters: [{ field: 'status', op: 'eq', value: 'approved' }],
      limit: 500,
    });
    expect(approved.total).toBeGreaterThan(10);
    for (const e of approved.rows)
      expect(Number(e.billableAmount)).toBeCloseTo(Number(e.hours) * Number(e.rate), 2);
    expect(await count('timeEntry', 'status', 'logged')).toBeGreaterThan(0);
  });
});
