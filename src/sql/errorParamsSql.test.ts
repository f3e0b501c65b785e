import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateSpec } from '../check/validateSpec.ts';
import { compileMigration } from './compileMigration.ts';
import { rooms } from './fixtures/rooms.ts';
import { createServerDb, serverAvailable } from './testing/pgDb.ts';
import { createPgliteDb } from './testing/pgliteDb.ts';
import { expectDbError, type TestDb } from './testing/testDb.ts';
import { applyMigration, createUser } from './testing/users.ts';

const migration = compileMigration(rooms);
const hasServer = await serverAvailable();
if (!hasServer && process.env.CI === 'true')
  throw new Error('CI=true but no Postgres server answers at DATABASE_URL');

const backends: { name: string; create: () => Promise<TestDb>; skip: boolean }[] = [
  { name: 'pglite', create: createPgliteDb, skip: false },
  { name: 'server', create: () => createServerDb(), skip: !hasServer },
];

it('the fixture is a valid specification', () => {
  expect(validateSpec(rooms).diagnostics).toEqual([]);
});

for (const backend of backends) {
  describe.skipIf(backend.skip)(`message parameters on ${backend.name}`, () => {
    let db: TestDb;
    let ann: string;
    let ben: string;
    let room: string;

    beforeAll(async () => {
      db = await backend.create();
      await applyMigration(db, migration);
      ann = await createUser(db, 'ann@example.com');
      ben = await createUser(db, 'ben@example.com');
      const r = await db.query<{ id: string }>(`insert into public.room (name) values ('Blue') returning id`);
      room = r.rows[0]!.id;
    }, 60_000);
    afterAll(async () => {
      await db?.close();
    });

    it('names the booking an overlap collides with', async () => {
      await db.asUser(ann, (q) =>
        q.query(`insert into public.booking (room, starts, ends) values ($1, $2, $3)`, [
          room,
          '2026-11-26T09:00:00Z',
          '2026-11-26T11:00:00Z',
        ]),
      );
      const e = await expectDbError(() =>
        db.asUser(ben, (q) =>
          q.query(`insert into public.booking (room, starts, ends) values ($1, $2, $3)`, [
            room,
            '2026-11-26T10:00:00Z',
            '2026-11-26T12:00:00Z',
          ]),
        ),
      );
      expect(e.message).toBe('ROOM_TAKEN');
      const params = JSON.parse(e.detail ?? '{}') as Record<string, string>;
      expect(params).toMatchObject({ entity: 'booking', field: 'starts' });
      expect(new Date(params.start!).toISOString()).toBe('2026-11-26T09:00:00.000Z');
      expect(new Date(params.end!).toISOString()).toBe('2026-11-26T11:00:00.000Z');
    });

    it('sends a sum over the rows the caller may read, and the row’s own field', async () => {
      // Ben's 6 hours count for the rule but are not Ann's to read: her error shows her own hours.
      await db.asUser(ben, (q) => q.query(`insert into public.shift (day, hours) values ('2026-11-20', 6)`));
      await db.asUser(ann, (q) => q.query(`insert into public.shift (day, hours) values ('2026-11-20', 3)`));
      const e = await expectDbError(() =>
        db.asUser(ann, (q) => q.query(`insert into public.shift (day, hours) values ('2026-11-20', 2)`)),
      );
      expect(e.message).toBe('DAY_FULL');
      expect(JSON.parse(e.detail ?? '{}')).toEqual({
        entity: 'shift',
        field: 'hours',
        logged: 5,
        day: '2026-11-20',
      });
    });

    it('the owner (a seed, a migration) sees every row in the sum', async () => {
      const e = await expectDbError(() =>
        db.asOwner((q) =>
          q.query(`insert into public.shift (day, hours, worker) values ('2026-11-20', 2, $1)`, [ann]),
        ),
      );
      expect(JSON.parse(e.detail ?? '{}')).toMatchObject({ logged: 11, day: '2026-11-20' });
    });
  });
}
