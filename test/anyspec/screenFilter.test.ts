/**
 * "Awaiting my action" screens (issue 16 item 10): a list or dashboard screen carries a filter in
 * the rule language (`status = open and count(vote where poll = this and member = me) = 0`),
 * compiled by the migration into a security-invoker function per screen and applied on the server
 * — in the embedded backend's list query and, on Supabase, as a PostgREST computed field. Checked
 * by `check` with the spec path, written in the document.
 */
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEmbeddedBackend,
  type EmbeddedBackend,
} from '../../src/backend/embedded/createEmbeddedBackend.ts';
import { entityInfo } from '../../src/backend/embedded/entityInfo.ts';
import { listQuery } from '../../src/backend/embedded/listQuery.ts';
import { pgliteExtensions } from '../../src/backend/embedded/pgliteExtensions.ts';
import { miniSpec } from '../../src/check/fixtures/miniSpec.ts';
import { validateSpec } from '../../src/check/validateSpec.ts';
import { renderScreens } from '../../src/doc/renderScreens.ts';
import { resolve } from '../../src/model/resolve.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import { compileMigration } from '../../src/sql/compileMigration.ts';
import { createServerDb, serverAvailable } from '../../src/sql/testing/pgDb.ts';
import { createPgliteDb } from '../../src/sql/testing/pgliteDb.ts';
import type { TestDb } from '../../src/sql/testing/testDb.ts';
import { applyMigration, createUser } from '../../src/sql/testing/users.ts';

const AWAITING = 'status = open and count(vote where poll = this and member = me) = 0';

function pollSpec(): AppSpec {
  const s = miniSpec();
  s.entities.poll = {
    label: 'Poll',
    title: 'title',
    fields: {
      title: { type: 'text', required: true },
      status: { type: 'enum', values: ['open', 'closed'], default: 'open', required: true },
      secret: { type: 'boolean', default: false },
      owner: { type: 'user', owner: true },
    },
  };
  s.entities.vote = {
    label: 'Vote',
    fields: {
      poll: { type: 'ref', ref: 'poll', required: true, onDelete: 'cascade' },
      member: { type: 'user', owner: true },
    },
  };
  const customer = s.roles.permissions.customer!;
  // A secret poll is its owner's alone: the screen must never list it to anyone else.
  customer.poll = {
    read: 'secret = false or owner = me',
    create: true,
    update: { when: 'owner = me', fields: ['status'] },
  };
  customer.vote = { read: 'member = me', create: true };
  s.screens.awaitingMyVote = {
    route: '/polls/awaiting',
    kind: 'list',
    title: 'Awaiting my vote',
    entity: 'poll',
    nav: ['customer'],
    where: AWAITING,
  };
  s.screens.polls = { route: '/polls', kind: 'list', title: 'Polls', entity: 'poll', nav: ['customer'] };
  s.screens.votes = { route: '/votes', kind: 'list', title: 'Votes', entity: 'vote', nav: ['customer'] };
  return s;
}

describe('screens filtered by a rule', () => {
  it('are checked: an unknown field or a wrong type is a diagnostic at the screen’s path', () => {
    expect(validateSpec(pollSpec()).diagnostics).toEqual([]);
    const s = pollSpec();
    s.screens.awaitingMyVote!.where = 'status = open and count(vote where poll = this and membr = me) = 0';
    expect(validateSpec(s).diagnostics.map((d) => [d.code, d.path])).toEqual([
      ['rule/unknown-name', 'screens.awaitingMyVote.where'],
    ]);
    s.screens.awaitingMyVote!.where = 'count(vote where poll = this) = "none"';
    expect(validateSpec(s).diagnostics.map((d) => [d.code, d.path])).toEqual([
      ['rule/type', 'screens.awaitingMyVote.where'],
    ]);
  });

  it('are written in the document', () => {
    expect(renderScreens(resolve(pollSpec()))).toMatch(/Awaiting my vote[\s\S]*Shows only rows where/);
  });

  it('compile to one security-invoker function per screen, called by the embedded list query', () => {
    const sql = compileMigration(pollSpec());
    const fn = sql.slice(sql.indexOf('create or replace function public.poll__where_awaiting_my_vote'));
    expect(fn).toMatch(
      /^create or replace function public\.poll__where_awaiting_my_vote\(p_row public\.poll\)/,
    );
    expect(fn.slice(0, fn.indexOf('$fn$;'))).not.toContain('security definer');
    const q = listQuery(entityInfo(resolve(pollSpec()), 'poll'), { screen: 'awaitingMyVote' });
    expect(q.text).toContain('where public.poll__where_awaiting_my_vote(t)');
  });

  /**
   * Polls: p1 open (alice voted), p2 open, p3 closed, p4 open but secret to bob. Alice awaits p2
   * only (p4 is unreadable to her); bob, who voted nowhere, awaits p1, p2 and his own p4.
   */
  async function seed(db: TestDb) {
    const alice = await createUser(db, 'alice@example.com');
    const bob = await createUser(db, 'bob@example.com');
    const poll = (who: string, title: string, status: string, secret: boolean) =>
      db
        .asUser(who, (q) =>
          q.query<{ id: string }>(
            'insert into public.poll (title, status, secret) values ($1, $2, $3) returning id',
            [title, status, secret],
          ),
        )
        .then((r) => r.rows[0]?.id ?? '');
    const p1 = await poll(alice, 'p1', 'open', false);
    await poll(alice, 'p2', 'open', false);
    await poll(alice, 'p3', 'closed', false);
    await poll(bob, 'p4', 'open', true);
    await db.asUser(alice, (q) => q.query('insert into public.vote (poll) values ($1)', [p1]));
    return { alice, bob };
  }

  const awaited = (db: TestDb, who: string) =>
    db
      .asUser(who, (q) =>
        q.query<{ title: string }>(
          'select title from public.poll t where public.poll__where_awaiting_my_vote(t) order by title',
        ),
      )
      .then((r) => r.rows.map((x) => x.title));

  for (const kind of ['PGlite', 'server'] as const) {
    describe(`on ${kind}`, () => {
      let db: TestDb | undefined;
      beforeAll(async () => {
        if (kind === 'server' && !(await serverAvailable())) {
          if (process.env.CI === 'true') throw new Error('CI=true but no Postgres server answers');
          return;
        }
        db = kind === 'PGlite' ? await createPgliteDb() : await createServerDb();
        await applyMigration(db, compileMigration(pollSpec()));
      }, 120_000);
      afterAll(async () => {
        await db?.close();
      });

      it('return exactly the rows the rule holds for, never a row the user cannot read', async (t) => {
        if (!db) return t.skip();
        const { alice, bob } = await seed(db);
        expect(await awaited(db, alice)).toEqual(['p2']);
        expect(await awaited(db, bob)).toEqual(['p1', 'p2', 'p4']);
        // The function only filters: called on a row the user cannot read, it sees no row at all.
        const leak = await db.asUser(alice, (q) =>
          q.query<{ n: number }>(
            'select count(*)::int as n from public.poll t where public.poll__where_awaiting_my_vote(t) and secret',
          ),
        );
        expect(leak.rows[0]?.n).toBe(0);
      });
    });
  }

  describe('through the embedded backend', () => {
    let pg: PGlite;
    let backend: EmbeddedBackend;
    beforeAll(async () => {
      pg = await PGlite.create({ extensions: pgliteExtensions });
      backend = await createEmbeddedBackend({ spec: pollSpec(), db: pg });
    }, 120_000);
    afterAll(async () => {
      await backend?.close?.();
      await pg?.close();
    });

    it('lists and counts only the screen’s rows; another entity’s screen is refused', async () => {
      await backend.auth.signUp({ email: 'bob@example.com', password: 'correct-horse' });
      const mine = await backend.data.create('poll', { title: 'mine', status: 'open', secret: true });
      await backend.data.create('poll', { title: 'voted', status: 'open' });
      await backend.data.create('poll', { title: 'closed', status: 'closed' });
      const voted = (
        await backend.data.list('poll', { filters: [{ field: 'title', op: 'eq', value: 'voted' }] })
      ).rows[0];
      await backend.data.create('vote', { poll: voted?.id });
      const page = await backend.data.list('poll', { screen: 'awaitingMyVote' });
      expect(page.rows.map((r) => r.title)).toEqual(['mine']);
      expect(page.total).toBe(1);
      expect(page.rows[0]?.id).toBe(mine.id);
      await backend.auth.signOut();
      await backend.auth.signUp({ email: 'ana@example.com', password: 'correct-horse' });
      const hers = await backend.data.list('poll', {
        screen: 'awaitingMyVote',
        sort: [{ field: 'title', direction: 'asc' }],
      });
      expect(hers.rows.map((r) => r.title)).toEqual(['voted']);
      await expect(backend.data.list('vote', { screen: 'awaitingMyVote' })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
      });
    });
  });
});
