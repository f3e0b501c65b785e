/**
 * Several guards per transition, each with its own error: the first failing guard's code is raised
 * by the transition function, and the browser shows that same guard's message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorContext, mapDatabaseError } from '../../src/backend/errors/mapDatabaseError.ts';
import { miniSpec } from '../../src/check/fixtures/miniSpec.ts';
import { validateSpec } from '../../src/check/validateSpec.ts';
import { renderStates } from '../../src/doc/renderStates.ts';
import { resolve } from '../../src/model/resolve.ts';
import { availableTransitions } from '../../src/runtime/availableTransitions.ts';
import { formatMessage } from '../../src/runtime/formatMessage.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import { compileMigration } from '../../src/sql/compileMigration.ts';
import { createPgliteDb } from '../../src/sql/testing/pgliteDb.ts';
import type { TestDb } from '../../src/sql/testing/testDb.ts';
import { applyMigration, createUser } from '../../src/sql/testing/users.ts';

function guardedSpec(): AppSpec {
  const s = miniSpec();
  const solve = s.states.ticket!.transitions.solve!;
  solve.guards = [
    { rule: "title != 'locked'", error: 'ticket.locked' },
    { rule: 'length(title) > 3', error: 'TITLE_TOO_SHORT_TO_SOLVE' },
  ];
  s.errors['ticket.locked'] = { message: 'This ticket is locked.', severity: 'error' };
  s.errors.TITLE_TOO_SHORT_TO_SOLVE = { message: 'Give it a real title first.', severity: 'error' };
  return s;
}

describe('several guards per transition', () => {
  const spec = guardedSpec();

  it('are checked and documented in order', () => {
    expect(validateSpec(spec).diagnostics).toEqual([]);
    const s = guardedSpec();
    s.states.ticket!.transitions.solve!.guards = [{ rule: 'titel = 1', error: 'NOPE' }];
    const paths = validateSpec(s).diagnostics.map((d) => d.path);
    expect(paths).toContain('states.ticket.transitions.solve.guards[0].error');
    expect(renderStates(resolve(spec))).toMatch(
      /otherwise `NOT_ASSIGNEE`<br>then .*otherwise `ticket\.locked`<br>then .*otherwise `TITLE_TOO_SHORT_TO_SOLVE`/,
    );
  });

  it('the browser gives the first failing guard’s message', () => {
    const agent = { id: 'a1', roles: ['agent'] };
    const reason = (row: Record<string, unknown>) =>
      availableTransitions(resolve(spec), agent, 'ticket', { status: 'open', ...row }).find(
        (o) => o.name === 'solve',
      )?.reason;
    expect(reason({ assignee: 'a1', title: 'locked' })).toBe(formatMessage(resolve(spec), 'ticket.locked'));
    expect(reason({ assignee: 'a1', title: 'abc' })).toBe(
      formatMessage(resolve(spec), 'TITLE_TOO_SHORT_TO_SOLVE'),
    );
    expect(reason({ assignee: 'a1', title: 'a good title' })).toBeUndefined();
  });

  describe('on PGlite', () => {
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

    async function solveCode(title: string): Promise<string | null> {
      const t = await db.asUser(alice, (q) =>
        q.query<{ id: string }>('insert into public.ticket (title) values ($1) returning id', [title]),
      );
      const id = t.rows[0]?.id;
      await db.asOwner((q) => q.query('update public.ticket set assignee = $1 where id = $2', [agent, id]));
      return db
        .asUser(agent, (q) => q.query('select public.ticket_solve($1)', [id]))
        .then(
          () => null,
          (e: unknown) => mapDatabaseError(e, errorContext(spec)).code,
        );
    }

    it('raises the first failing guard’s own code, as the browser says', async () => {
      expect(await solveCode('locked')).toBe('ticket.locked');
      expect(await solveCode('abc')).toBe('TITLE_TOO_SHORT_TO_SOLVE');
      expect(await solveCode('a good title')).toBeNull();
    });
  });
});
