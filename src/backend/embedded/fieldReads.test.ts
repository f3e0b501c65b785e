/**
 * Per-field reads through the embedded backend's data port (the path the app uses): a patient's
 * reason and notes reach the patient and the staff, never another member, whichever way the
 * member asks (get, list, filter, sort, search, totals, a transition's answer, the history).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinicSpec } from '../../../test/enforcement/support/clinicSpec.ts';
import { HIDDEN_FIELDS, type Row } from '../types.ts';
import { createEmbeddedBackend, type EmbeddedBackend } from './createEmbeddedBackend.ts';

const PASSWORD = 'a long password';
let backend: EmbeddedBackend;
let ada: Row;
let bob: Row;

const as = (who: string) => backend.auth.signIn({ email: `${who}@example.com`, password: PASSWORD });

beforeAll(async () => {
  backend = await createEmbeddedBackend({ spec: clinicSpec, dataDir: 'memory://' });
  for (const who of ['staff', 'bob', 'ada'])
    await backend.auth.signUp({ email: `${who}@example.com`, password: PASSWORD, name: who });
  await backend.asOwner((tx) =>
    tx.query(
      `insert into app.user_roles (user_id, role) select id, 'staff' from auth.users where email = 'staff@example.com'`,
    ),
  );
  ada = await backend.data.create('appointment', {
    slot: 'Monday 9:00',
    start: '2027-03-01T09:00:00Z',
    reason: 'knee pain since the fall',
    notes: 'bring the x-ray',
  });
  await as('bob');
  bob = await backend.data.create('appointment', {
    slot: 'Monday 9:30',
    start: '2027-03-01T09:30:00Z',
    reason: 'annual check',
    notes: 'zzz',
  });
}, 180_000);
afterAll(async () => {
  await backend?.close();
});

describe('per-field reads on the embedded backend', () => {
  it('the patient reads their own reason, from the write and afterwards', async () => {
    expect(ada).toMatchObject({ reason: 'knee pain since the fall', notes: 'bring the x-ray' });
    expect(bob).toMatchObject({ reason: 'annual check' });
    await as('ada');
    expect(await backend.data.get('appointment', String(ada.id))).toMatchObject({
      reason: 'knee pain since the fall',
      fee: null,
    });
  });

  it('another member sees the slot and status but no reason, however they ask', async () => {
    await as('bob');
    const id = String(ada.id);
    expect(await backend.data.get('appointment', id)).toMatchObject({
      slot: 'Monday 9:00',
      status: 'booked',
      reason: null,
      notes: null,
    });
    const all = await backend.data.list('appointment', {});
    expect(all.rows.find((r) => r.id === id)).toMatchObject({ reason: null, notes: null });
    // Which nulls are withheld rather than empty, so a screen says "hidden" (fee: even where empty).
    expect((await backend.data.get('appointment', id))[HIDDEN_FIELDS]).toEqual(['reason', 'notes', 'fee']);
    expect(all.rows.find((r) => r.id === id)?.[HIDDEN_FIELDS]).toEqual(['reason', 'notes', 'fee']);
    expect(all.rows.find((r) => r.id === bob.id)?.[HIDDEN_FIELDS]).toEqual(['fee']);
    const filtered = await backend.data.list('appointment', {
      filters: [{ field: 'reason', op: 'contains', value: 'knee' }],
    });
    expect(filtered).toEqual({ rows: [], total: 0 });
    const notNull = await backend.data.list('appointment', { filters: [{ field: 'notes', op: 'notNull' }] });
    expect(notNull.rows.map((r) => r.id)).toEqual([bob.id]);
    // Sorting by the notes: Ada's (hidden) sorts as empty, after Bob's whichever her value is.
    for (const direction of ['asc', 'desc'] as const) {
      const sorted = await backend.data.list('appointment', { sort: [{ field: 'notes', direction }] });
      expect(sorted.rows.map((r) => r.id)).toEqual(direction === 'asc' ? [bob.id, ada.id] : [ada.id, bob.id]);
    }
    expect((await backend.data.list('appointment', { search: 'knee' })).rows).toEqual([]);
    // Checking Ada in answers her row as Bob may read it.
    const arrived = await backend.data.transition('appointment', id, 'checkIn');
    expect(arrived).toMatchObject({ status: 'arrived', reason: null, notes: null });
    const history = await backend.data.history('appointment', id);
    expect(history.length).toBe(1);
    expect(JSON.stringify(history)).not.toContain('knee');
  });

  it('the staff read every reason, and the fee only they may read', async () => {
    await as('staff');
    const updated = await backend.data.update('appointment', String(bob.id), Number(bob.version), {
      fee: 80,
    });
    expect(updated).toMatchObject({ reason: 'annual check', fee: 80 });
    const sorted = await backend.data.list('appointment', { sort: [{ field: 'notes', direction: 'asc' }] });
    expect(sorted.rows.map((r) => r.notes)).toEqual(['bring the x-ray', 'zzz']);
    expect(sorted.rows.map((r) => r[HIDDEN_FIELDS])).toEqual([undefined, undefined]);
    await as('bob');
    expect(await backend.data.get('appointment', String(bob.id))).toMatchObject({
      reason: 'annual check',
      fee: null,
    });
  });
});
