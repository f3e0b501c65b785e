/**
 * On the embedded backend, transitions that happen by time need no background job: every call runs
 * what is due by the backend's clock first, so a read never shows a state time has left. The clock
 * is moved (the backend's `now` option), nothing sleeps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loanSpec } from '../../../test/enforcement/support/loanSpec.ts';
import type { Change } from '../types.ts';
import { createEmbeddedBackend, type EmbeddedBackend } from './createEmbeddedBackend.ts';

describe('transitions by time on the embedded backend', () => {
  let clock = new Date('2027-10-31T12:00:00Z');
  let backend: EmbeddedBackend;
  beforeAll(async () => {
    backend = await createEmbeddedBackend({ spec: loanSpec, now: () => clock });
    await backend.auth.signUp({ email: 'reader@example.com', password: 'a long password', name: 'Reader' });
  }, 180_000);
  afterAll(async () => {
    await backend?.close();
  });

  it('shows a loan overdue once its day has passed in Berlin, as the system, and announces it', async () => {
    const loan = await backend.data.create('loan', { title: 'A book', dueDate: '2027-10-31' });
    expect(loan.status).toBe('on_loan');
    const heard: Change[] = [];
    const stop = backend.live.subscribe({ entity: 'loan' }, (c) => heard.push(c));
    // 23:59:59.999 UTC on the 31st is 00:59 on 1 November in Berlin (CET): overdue since 23:00 UTC.
    clock = new Date('2027-10-31T22:59:59.999Z');
    expect((await backend.data.get('loan', loan.id)).status).toBe('on_loan');
    clock = new Date('2027-10-31T23:00:00Z');
    const moved = await backend.data.get('loan', loan.id);
    expect(moved.status).toBe('overdue');
    // `set: { overdueSince: 'now' }` reads the job's clock, the backend's.
    expect(new Date(String(moved.overdueSince)).toISOString()).toBe('2027-10-31T23:00:00.000Z');
    const { rows } = await backend.data.list('loan', {});
    expect(rows.find((r) => r.id === loan.id)?.status).toBe('overdue');
    const history = await backend.data.history('loan', loan.id);
    expect(history.map((h) => [h.transition, h.fromState, h.toState, h.actor])).toEqual([
      // The system is no one: its entries have an empty actor on every backend.
      ['overdue', 'on_loan', 'overdue', ''],
    ]);
    stop();
    expect(heard).toContainEqual({ entity: 'loan', id: '*', kind: 'update' });
  });

  it('runs by itself while the backend is open, and announces the rows that moved', async () => {
    let now = new Date('2027-03-28T12:00:00Z');
    const idle = await createEmbeddedBackend({ spec: loanSpec, now: () => now, timedIntervalMs: 10 });
    try {
      await idle.auth.signUp({ email: 'idle@example.com', password: 'a long password', name: 'Idle' });
      const loan = await idle.data.create('loan', { title: 'Left open', dueDate: '2027-03-28' });
      const heard = new Promise<Change>((done) => {
        idle.live.subscribe({ entity: 'loan' }, done);
      });
      // No call from here on: the next round of the timer sees the moved clock.
      now = new Date('2027-03-28T22:00:00Z');
      expect(await heard).toEqual({ entity: 'loan', id: '*', kind: 'update' });
      expect((await idle.data.get('loan', loan.id)).status).toBe('overdue');
    } finally {
      await idle.close();
    }
  }, 60_000);
});
