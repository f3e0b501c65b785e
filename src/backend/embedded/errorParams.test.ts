import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from '../../model/resolve.ts';
import { dateText } from '../../runtime/dateText.ts';
import { formatMessage } from '../../runtime/formatMessage.ts';
import { rooms } from '../../sql/fixtures/rooms.ts';
import { BackendError } from '../types.ts';
import { createEmbeddedBackend, type EmbeddedBackend } from './createEmbeddedBackend.ts';
import { pgliteExtensions } from './pgliteExtensions.ts';

/** Message parameters from the trigger to the message a person reads, through the embedded backend. */
describe('message parameters through the embedded backend', () => {
  let db: PGlite;
  let backend: EmbeddedBackend;
  let room = '';
  beforeAll(async () => {
    db = await PGlite.create({ extensions: pgliteExtensions });
    backend = await createEmbeddedBackend({ spec: rooms, db });
    room = await backend.asOwner(async (tx) => {
      const r = await tx.query<{ id: string }>(`insert into public.room (name) values ('Blue') returning id`);
      return r.rows[0]!.id;
    });
  }, 180_000);
  afterAll(async () => {
    await backend?.close();
    await db?.close();
  });

  it('an overlap arrives as ROOM_TAKEN with the other booking’s times, shown in the person’s time zone', async () => {
    await backend.auth.signUp({ email: 'ann@example.com', password: 'correct horse battery' });
    const starts = '2026-11-26T09:00:00.000Z';
    const ends = '2026-11-26T11:00:00.000Z';
    await backend.data.create('booking', { room, starts, ends });
    await backend.auth.signOut();
    await backend.auth.signUp({ email: 'ben@example.com', password: 'correct horse battery' });
    const e = await backend.data
      .create('booking', { room, starts: '2026-11-26T10:00:00.000Z', ends: '2026-11-26T12:00:00.000Z' })
      .then(
        () => undefined,
        (x: unknown) => x,
      );
    expect(e).toBeInstanceOf(BackendError);
    const be = e as BackendError;
    expect(be.code).toBe('ROOM_TAKEN');
    expect(be.field).toBe('booking.starts');
    expect(new Date(String(be.params.start)).toISOString()).toBe(starts);
    expect(formatMessage(resolve(rooms), be.code, be.params)).toBe(
      `That room is taken from ${dateText(starts, { time: true })} to ${dateText(ends, { time: true })}.`,
    );
  });
});
