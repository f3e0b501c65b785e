/**
 * Dotted/namespaced catalogue codes (`claim.locked`) next to UPPER_SNAKE: accepted by `check`,
 * raised unchanged by the migration's guards and validation triggers, mapped back by the error
 * mapper (named CHECK constraints included), and refused when two codes differ only in shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorContext, mapDatabaseError } from '../../src/backend/errors/mapDatabaseError.ts';
import { miniSpec } from '../../src/check/fixtures/miniSpec.ts';
import { validateSpec } from '../../src/check/validateSpec.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import { compileMigration } from '../../src/sql/compileMigration.ts';
import { createPgliteDb } from '../../src/sql/testing/pgliteDb.ts';
import type { TestDb } from '../../src/sql/testing/testDb.ts';
import { applyMigration, createUser } from '../../src/sql/testing/users.ts';

/** miniSpec with every code in the dotted shape. */
function dottedSpec(): AppSpec {
  const s = miniSpec();
  const rename: Record<string, string> = {
    NOT_ASSIGNEE: 'ticket.notAssignee',
    REOPEN_WINDOW: 'ticket/reopen.window',
    TITLE_TOO_LONG: 'ticket.title_too_long',
  };
  const errors: AppSpec['errors'] = {};
  for (const [code, e] of Object.entries(s.errors)) errors[rename[code] ?? code] = e;
  const t = s.states.ticket?.transitions;
  if (t?.solve) t.solve.guardError = 'ticket.notAssignee';
  if (t?.reopen) t.reopen.guardError = 'ticket/reopen.window';
  s.validation.ticket = [
    { kind: 'field', field: 'title', maxLength: 'maxTitleLength', error: 'ticket.title_too_long' },
  ];
  return { ...s, errors };
}

describe('dotted error codes', () => {
  it('are accepted by check alongside UPPER_SNAKE', () => {
    const s = dottedSpec();
    s.errors.PLAIN_CODE = { message: 'x', severity: 'error' };
    expect(validateSpec(s).diagnostics).toEqual([]);
  });

  it('are refused when malformed or when two codes differ only in case or separators', () => {
    for (const bad of ['Claim.locked', 'claim..locked', 'claim.', '.claim', 'claim locked', 'claim-locked']) {
      const s = dottedSpec();
      s.errors[bad] = { message: 'x', severity: 'error' };
      expect(
        validateSpec(s).diagnostics.map((d) => d.code),
        bad,
      ).toContain('spec/invalid-name');
    }
    const s = dottedSpec();
    s.errors.TICKET_NOTASSIGNEE = { message: 'x', severity: 'error' };
    expect(validateSpec(s).diagnostics).toContainEqual(
      expect.objectContaining({ code: 'spec/invalid-name', path: 'errors.TICKET_NOTASSIGNEE' }),
    );
  });

  describe('on PGlite', () => {
    const spec = dottedSpec();
    let db: TestDb;
    let alice: string;
    let agent: string;
    beforeAll(async () => {
      db = await createPgliteDb();
      await applyMigration(db, compileMigration(spec));
      alice = await createUser(db, 'alice@example.com');
      agent = await createUser(db, 'agent@example.com', { roles: ['agent'] });
    }, 120_000);
    afterAll(async () => {
      await db?.close();
    });

    it('raise the dotted code from a guard and map it back', async () => {
      const t = await db.asUser(alice, (q) =>
        q.query<{ id: string }>(`insert into public.ticket (title) values ('Flow') returning id`),
      );
      const id = t.rows[0]?.id;
      const err = await db
        .asUser(agent, (q) => q.query('select public.ticket_solve($1)', [id]))
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(err).not.toBeNull();
      expect(mapDatabaseError(err, errorContext(spec)).code).toBe('ticket.notAssignee');
    });

    it('map a named CHECK constraint of a dotted code back to the code', async () => {
      const err = await db
        .asUser(alice, (q) => q.query('insert into public.ticket (title) values ($1)', ['x'.repeat(200)]))
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(err).not.toBeNull();
      const mapped = mapDatabaseError(err, errorContext(spec));
      expect(mapped.code).toBe('ticket.title_too_long');
    });
  });
});
