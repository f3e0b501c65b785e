/**
 * Per-field reads across `ninefold migrate`: a field gains a `read` rule (its column is then no
 * longer the client's, the masking view appears), a read-restricted field is dropped and another
 * added (the view is re-created around the table's new columns), and the rule is removed again
 * (the table is the client's to read whole). Each plan applies on a database holding the previous
 * version and leaves what a fresh migration leaves. On PGlite.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { lockModel } from '../../src/migrate/lockModel.ts';
import { planMigration } from '../../src/migrate/planMigration.ts';
import { catalogDump } from '../../src/migrate/testing/catalogDump.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import { compileMigration } from '../../src/sql/compileMigration.ts';
import { createPgliteDb } from '../../src/sql/testing/pgliteDb.ts';
import type { TestDb } from '../../src/sql/testing/testDb.ts';
import { applyMigration, createUser } from '../../src/sql/testing/users.ts';
import { clinicSpec } from '../enforcement/support/clinicSpec.ts';

type Fields = AppSpec['entities'][string]['fields'];
const withFields = (edit: (f: Fields) => void): AppSpec => {
  const s = structuredClone(clinicSpec);
  edit(s.entities.appointment?.fields as Fields);
  return s;
};
const open = (f: Fields, name: string) => {
  const { read: _, ...rest } = f[name] as Fields[string];
  f[name] = rest;
};
const versions: [string, AppSpec][] = [
  [
    'no field restricted',
    withFields((f) => {
      for (const n of ['reason', 'notes', 'fee']) open(f, n);
    }),
  ],
  ['reason, notes and fee restricted', clinicSpec],
  [
    'notes dropped, a restricted diagnosis added',
    withFields((f) => {
      delete f.notes;
      f.diagnosis = { type: 'text', read: 'me is staff' };
    }),
  ],
  [
    'no field restricted again',
    withFields((f) => {
      delete f.notes;
      for (const n of ['reason', 'fee']) open(f, n);
    }),
  ],
];

describe('per-field reads across migrations (PGlite)', () => {
  const dbs: TestDb[] = [];
  afterAll(async () => {
    for (const db of dbs) await db.close();
  });

  it('each version migrates from the one before, to the schema a fresh migration creates', async () => {
    const db = await createPgliteDb();
    dbs.push(db);
    const [first, ...rest] = versions;
    await applyMigration(db, compileMigration(first?.[1] as AppSpec));
    const user = await createUser(db, 'pat@example.com', { meta: { name: 'Pat' } });
    let before = first?.[1] as AppSpec;
    for (const [label, spec] of rest) {
      const plan = planMigration(lockModel(before, 'embedded'), spec, { allowDestructive: true });
      expect(plan.refused, label).toEqual([]);
      await db.exec(plan.sql);
      // The patient writes and reads their appointment through what the clients read.
      const view = spec === versions[3]?.[1] ? 'public.appointment' : 'public.appointment__readable';
      const read = await db.asUser(user, async (q) => {
        await q.query(`insert into public.appointment (slot, start, reason) values ($1, now(), $2)`, [
          label,
          'why',
        ]);
        return q.query<{ reason: string | null }>(`select reason from ${view} where slot = $1`, [label]);
      });
      expect(read.rows, label).toEqual([{ reason: 'why' }]);
      const fresh = await createPgliteDb();
      dbs.push(fresh);
      await applyMigration(fresh, compileMigration(spec));
      expect(await catalogDump(db), label).toEqual(await catalogDump(fresh));
      before = spec;
    }
  }, 120_000);
});
