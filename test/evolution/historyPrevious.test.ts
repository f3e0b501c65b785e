/**
 * An app deployed before edits kept their old values (issue 31) upgrades: the planner adds the
 * history's `previous` column to the existing table, every history row stays (the old edits read
 * as `{}`: the new value alone), new edits record old → new, and the schema is the one a fresh
 * migration creates. On PGlite and on the PostgreSQL server.
 */
import { afterAll, describe, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { lockModel } from '../../src/migrate/lockModel.ts';
import { planMigration } from '../../src/migrate/planMigration.ts';
import { catalogDump } from '../../src/migrate/testing/catalogDump.ts';
import { compileMigration } from '../../src/sql/compileMigration.ts';
import { createServerDb, serverAvailable } from '../../src/sql/testing/pgDb.ts';
import { createPgliteDb } from '../../src/sql/testing/pgliteDb.ts';
import type { TestDb } from '../../src/sql/testing/testDb.ts';
import { applyMigration, createUser } from '../../src/sql/testing/users.ts';

const hasServer = await serverAvailable();
if (!hasServer && process.env.CI === 'true')
  throw new Error('historyPrevious: CI=true but no Postgres server');

/**
 * The helpdesk's migration as the compiler wrote it before old values were kept: the history
 * table without `previous`, the edit trigger writing the new values only.
 */
function migrationBefore(): string {
  const now = compileMigration(helpdesk);
  const before = now
    .replace(
      /\n {2}input jsonb not null default '\{\}'::jsonb,\n {2}previous jsonb[^\n]*\n\);/g,
      "\n  input jsonb not null default '{}'::jsonb\n);",
    )
    .replace(/\nalter table [^\n]* add column if not exists previous [^\n]*/g, '')
    .replace(/ p jsonb := '\{\}'::jsonb;\n/g, '')
    .replace(/ p := p \|\| jsonb_build_object\([^;]*\);/g, '')
    .replace(/, input, previous\)/g, ', input)')
    .replace(/, v, p\);/g, ', v);');
  return before;
}

const BACKENDS = [
  { name: 'pglite', skip: false as string | false, open: () => createPgliteDb() },
  {
    name: 'server',
    skip: hasServer ? false : 'no Postgres server at DATABASE_URL',
    open: () => createServerDb(),
  },
];

describe.each(BACKENDS)('history before old values, upgraded on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => {});
    return;
  }
  const open: TestDb[] = [];
  afterAll(async () => {
    for (const db of open) await db.close();
  });

  it('issue 31: the migration adds `previous` to the existing history, keeps every row, and new edits record old → new', async () => {
    const before = migrationBefore();
    // The text the compiler wrote before: no trace of the column (the replacements all applied).
    expect(before).not.toMatch(/\bprevious\b/);
    const db = await backend.open();
    open.push(db);
    await applyMigration(db, before);
    const customer = await createUser(db, 'p.customer@example.com', { meta: { name: 'Customer' } });
    const agent = await createUser(db, 'p.agent@example.com', { roles: ['agent'], meta: { name: 'Agent' } });
    const id = (
      await db.query<{ id: string }>(
        `insert into public.ticket (title, description, requester, assignee, status) values ('Printer jams', 'It jams on every page', $1, $2, 'open') returning id`,
        [customer, agent],
      )
    ).rows[0]?.id;
    const edit = (priority: string) =>
      db.asUser(agent, (q) =>
        q.query('update public.ticket set priority = $1 where id = $2', [priority, id]),
      );
    await edit('high');
    await db.asUser(agent, (q) => q.query('select public.ticket_ask_customer($1::uuid)', [id]));
    const historyBefore = (
      await db.query<{ id: string }>('select id::text as id from public.ticket_history order by id')
    ).rows.map((r) => r.id);
    expect(historyBefore).toHaveLength(2);

    const plan = planMigration(
      lockModel(helpdesk, 'embedded', () => before),
      helpdesk,
    );
    expect(plan.refused).toEqual([]);
    expect(plan.losses).toEqual([]);
    expect(plan.sql).toContain(
      "alter table public.ticket_history add column previous jsonb default '{}'::jsonb not null;",
    );
    await db.exec(plan.sql);

    const rows = async () =>
      (
        await db.query<{ id: string; kind: string; input: unknown; previous: unknown }>(
          'select id::text as id, kind, input, previous from public.ticket_history where row_id = $1 order by at, id',
          [id],
        )
      ).rows;
    const kept = await rows();
    expect(kept.map((r) => r.id).sort()).toEqual(historyBefore);
    expect(kept.map((r) => [r.kind, r.input, r.previous])).toEqual([
      ['edit', { priority: 'high' }, {}],
      ['transition', {}, {}],
    ]);
    await edit('urgent');
    const [, , newer] = await rows();
    expect([newer?.kind, newer?.input, newer?.previous]).toEqual([
      'edit',
      { priority: 'urgent' },
      { priority: 'high' },
    ]);

    // The upgraded schema is a fresh migration's.
    const fresh = await backend.open();
    open.push(fresh);
    await applyMigration(fresh, compileMigration(helpdesk));
    const [chain, clean] = [await catalogDump(db), await catalogDump(fresh)];
    for (const kind of Object.keys(clean) as (keyof typeof clean)[])
      expect(chain[kind], kind).toEqual(clean[kind]);
  }, 240_000);
});
