import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEmbeddedBackend,
  type EmbeddedBackend,
} from '../../src/backend/embedded/createEmbeddedBackend.ts';
import { registerDemo } from '../../src/backend/embedded/demo/appDemo.ts';
import demo from './demo.ts';
import { helpdeskDemo } from './demoData.ts';
import helpdesk from './spec.ts';

// The app's demo is its own (examples/helpdesk/demo.ts); the app entry registers it the same way.
registerDemo(helpdesk, demo);

const now = new Date('2026-06-15T12:00:00Z');
let b: EmbeddedBackend;
beforeAll(async () => {
  b = await createEmbeddedBackend({ spec: helpdesk, now: () => now });
  await b.resetDemo();
}, 120_000);
afterAll(async () => {
  await b.close();
});

describe('helpdesk demo data', () => {
  it('issue 31 (low): no two tickets share a title', () => {
    const titles = helpdeskDemo(helpdesk, now)
      .rows.filter((r) => r.entity === 'ticket')
      .map((r) => String(r.values.title));
    expect(new Set(titles).size).toBe(titles.length);
  });
  it('is deterministic', () => {
    const a = helpdeskDemo(helpdesk, now);
    const c = helpdeskDemo(helpdesk, now);
    expect(JSON.stringify(a)).toBe(JSON.stringify(c));
    expect(a.rows.filter((r) => r.entity === 'ticket').length).toBeGreaterThanOrEqual(200);
  });

  it('seeds within every constraint and signs in with the demo accounts', async () => {
    await b.auth.signIn({ email: 'agent@demo.test', password: 'demo-agent' });
    const all = await b.data.list('ticket', { limit: 1 });
    expect(all.total).toBe(260);
    const byStatus = await Promise.all(
      ['new', 'open', 'pending', 'solved', 'closed'].map(
        async (s) =>
          (
            await b.data.list('ticket', {
              filters: [{ field: 'status', op: 'eq', value: s }],
              count: 'exact',
              limit: 0,
            })
          ).total,
      ),
    );
    expect(byStatus.every((n) => (n ?? 0) > 0)).toBe(true);
    const comments = await b.data.list('comment', { limit: 0 });
    expect(comments.total).toBeGreaterThan(300);
    const oldest = await b.data.list('ticket', {
      sort: [{ field: 'createdAt', direction: 'asc' }],
      limit: 1,
    });
    expect(Date.parse(oldest.rows[0]!.createdAt)).toBeLessThan(now.getTime() - 30 * 24 * 3600_000);
    await b.auth.signOut();
    await b.auth.signIn({ email: 'customer@demo.test', password: 'demo-customer' });
    const mine = await b.data.list('ticket', { limit: 0 });
    expect(mine.total).toBeGreaterThan(10);
    expect(mine.total).toBeLessThan(260);
  });

  it('resets to the same data', async () => {
    await b.auth.signIn({ email: 'admin@demo.test', password: 'demo-admin' });
    const before = await b.data.list('category', { sort: [{ field: 'name', direction: 'asc' }] });
    await b.data.create('category', { name: 'Temporary category' });
    await b.resetDemo();
    expect(await b.auth.session()).toBeNull();
    await b.auth.signIn({ email: 'admin@demo.test', password: 'demo-admin' });
    const after = await b.data.list('category', { sort: [{ field: 'name', direction: 'asc' }] });
    expect(after.rows.map((c) => c.name)).toEqual(before.rows.map((c) => c.name));
    expect((await b.admin.listUsers()).length).toBe(48);
  });
});

describe('helpdesk demo data tells one story (issue 14: seed data that contradicts itself)', () => {
  const plan = helpdeskDemo(helpdesk, now);
  const tickets = new Map(plan.rows.filter((r) => r.entity === 'ticket').map((r) => [r.key, r]));

  it('a conversation happens after the ticket was filed and before it was solved', () => {
    for (const c of plan.rows.filter((r) => r.entity === 'comment')) {
      const t = tickets.get((c.values.ticket as { $ref: string }).$ref);
      if (!t) throw new Error(`comment ${c.key} without its ticket`);
      expect(c.createdAt.getTime(), c.key).toBeGreaterThanOrEqual(t.createdAt.getTime());
      const solved = t.values.solvedAt as Date | null;
      if (solved) expect(c.createdAt.getTime(), c.key).toBeLessThanOrEqual(solved.getTime());
    }
  });

  it('an attached log is from before its ticket, and a bad rating does not claim a wait the ticket never had', () => {
    for (const a of plan.rows.filter((r) => r.entity === 'attachment' && r.file)) {
      const t = tickets.get((a.values.ticket as { $ref: string }).$ref);
      const stamp = /(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) ERROR/.exec(
        new TextDecoder().decode(a.file?.bytes),
      )?.[1];
      expect(stamp, a.key).toBeDefined();
      expect(new Date(`${stamp}Z`).getTime(), a.key).toBeLessThanOrEqual(t?.createdAt.getTime() ?? 0);
    }
    for (const t of tickets.values())
      if (t.values.rating === 'bad')
        expect(String(t.values.ratingComment)).not.toMatch(/days to get an answer/);
  });
});
