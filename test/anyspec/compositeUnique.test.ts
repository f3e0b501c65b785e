/**
 * Unique keys over several fields ("one vote per member per poll"): checked in the specification,
 * a named constraint in the migration (so two racing inserts cannot both pass), mapped back to the
 * key's own catalogue code, and written in the document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorContext, mapDatabaseError } from '../../src/backend/errors/mapDatabaseError.ts';
import { miniSpec } from '../../src/check/fixtures/miniSpec.ts';
import { lintSpec } from '../../src/check/lintSpec.ts';
import { validateSpec } from '../../src/check/validateSpec.ts';
import { renderEntities } from '../../src/doc/renderEntities.ts';
import { resolve } from '../../src/model/resolve.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import { compileMigration } from '../../src/sql/compileMigration.ts';
import { createPgliteDb } from '../../src/sql/testing/pgliteDb.ts';
import type { TestDb } from '../../src/sql/testing/testDb.ts';
import { applyMigration, createUser } from '../../src/sql/testing/users.ts';

function voteSpec(): AppSpec {
  const s = miniSpec();
  s.entities.vote = {
    label: 'Vote',
    fields: {
      ticket: { type: 'ref', ref: 'ticket', required: true, onDelete: 'cascade' },
      member: { type: 'user', owner: true },
      score: { type: 'integer' },
    },
    unique: [{ fields: ['ticket', 'member'], error: 'vote.once' }],
  };
  s.errors['vote.once'] = { message: 'You have voted on this ticket already.', severity: 'error' };
  const customer = s.roles.permissions.customer;
  if (customer) {
    customer.vote = { read: true, create: true };
    customer.ticket = { ...customer.ticket, read: true };
  }
  s.screens.votes = { route: '/votes', kind: 'list', title: 'Votes', entity: 'vote', nav: ['customer'] };
  return s;
}

describe('composite unique keys', () => {
  it('are checked: fields and code must exist; the code counts as used', () => {
    const s = voteSpec();
    expect(validateSpec(s).diagnostics).toEqual([]);
    expect(lintSpec(s).filter((d) => d.path.startsWith('errors'))).toEqual([]);
    s.entities.vote!.unique = [{ fields: ['ticket', 'membr', 'ticket'], error: 'vote.twice' }];
    const paths = validateSpec(s).diagnostics.map((d) => d.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'entities.vote.unique[0].fields[1]',
        'entities.vote.unique[0].fields',
        'entities.vote.unique[0].error',
      ]),
    );
  });

  it('are written in the document', () => {
    expect(renderEntities(resolve(voteSpec()))).toContain(
      'No two rows have the same Ticket, Member together (error `vote.once`).',
    );
  });

  describe('on PGlite', () => {
    const spec = voteSpec();
    let db: TestDb;
    let alice: string;
    let ticket: string;
    beforeAll(async () => {
      db = await createPgliteDb();
      await applyMigration(db, compileMigration(spec));
      alice = await createUser(db, 'alice@example.com');
      const t = await db.asUser(alice, (q) =>
        q.query<{ id: string }>(`insert into public.ticket (title) values ('Poll') returning id`),
      );
      ticket = t.rows[0]?.id ?? '';
    }, 120_000);
    afterAll(async () => {
      await db?.close();
    });

    it('refuse a second row with the same key with the key’s code', async () => {
      const vote = () =>
        db.asUser(alice, (q) => q.query('insert into public.vote (ticket, score) values ($1, 1)', [ticket]));
      await vote();
      const err = await vote().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).not.toBeNull();
      const mapped = mapDatabaseError(err, errorContext(spec));
      expect(mapped.code).toBe('vote.once');
      const bob = await createUser(db, 'bob@example.com');
      await db.asUser(bob, (q) =>
        q.query('insert into public.vote (ticket, score) values ($1, 1)', [ticket]),
      );
    });
  });
});
