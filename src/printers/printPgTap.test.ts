import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import tasks from '../../examples/tasks/spec.ts';
import type { AppSpec } from '../spec/types.ts';
import { AUTH_STAND_IN_SQL } from '../sql/authStandIn.ts';
import { compileMigration } from '../sql/compileMigration.ts';
import { mini } from '../sql/fixtures/mini.ts';
import { STORAGE_STAND_IN_SQL } from '../sql/storageStandIn.ts';
import { createServerDb, quietOnTermination, serverAvailable } from '../sql/testing/pgDb.ts';
import type { TestDb } from '../sql/testing/testDb.ts';
import { printPgTap } from './printPgTap.ts';
import { expectGolden, goldenFile } from './testing/golden.ts';

const server = await serverAvailable();

/** Runs a pgTAP script and returns its TAP lines (every row of every statement's result). */
async function runSuite(db: TestDb, sql: string): Promise<string[]> {
  const client = quietOnTermination(new pg.Client({ connectionString: db.connectionString }), 'pgTAP');
  await client.connect();
  try {
    const results = (await client.query(sql)) as unknown as pg.QueryResult[] | pg.QueryResult;
    const lines: string[] = [];
    for (const r of Array.isArray(results) ? results : [results])
      for (const row of r.rows ?? [])
        for (const v of Object.values(row as object)) if (typeof v === 'string') lines.push(v);
    return lines;
  } finally {
    await client.end();
  }
}

/** A fresh database with what a hosted project has and the app's Supabase migration pushed. */
async function hosted(spec: AppSpec): Promise<TestDb> {
  const db = await createServerDb();
  await db.exec(AUTH_STAND_IN_SQL);
  await db.exec(STORAGE_STAND_IN_SQL);
  await db.exec(compileMigration(spec, { target: 'supabase' }));
  return db;
}

const failures = (lines: readonly string[]) => lines.filter((l) => l.startsWith('not ok'));
/** Failures outside the catalog audit (printPgTapAudit.test.ts covers that). */
const specFailures = (lines: readonly string[]) => failures(lines).filter((l) => !l.includes(' - catalog: '));
const passes = (lines: readonly string[]) => lines.filter((l) => /^ok \d+/.test(l));

describe('printPgTap', () => {
  it('matches the golden suites', () => {
    expectGolden(goldenFile('helpdesk.pgtap.sql'), printPgTap(helpdesk));
    expectGolden(goldenFile('expenses.pgtap.sql'), printPgTap(expenses));
    expectGolden(goldenFile('mini.pgtap.sql'), printPgTap(mini));
  });
});

describe.skipIf(!server)('the pgTAP suite on the PostgreSQL server', () => {
  const dbs: TestDb[] = [];
  const open = async (spec: AppSpec) => {
    const db = await hosted(spec);
    dbs.push(db);
    return db;
  };
  beforeAll(() => undefined);
  afterAll(async () => {
    for (const db of dbs) await db.close();
  });

  it.each([
    ['helpdesk', helpdesk],
    ['expenses', expenses],
    ['tasks', tasks],
  ])('passes on the %s app', async (_name, spec) => {
    const db = await open(spec);
    const suite = printPgTap(spec);
    const lines = await runSuite(db, suite);
    expect(failures(lines)).toEqual([]);
    const planned = Number(/select plan\((\d+)\)/.exec(suite)?.[1]);
    expect(planned).toBeGreaterThan(50);
    expect(passes(lines)).toHaveLength(planned);
  });

  it('fails when a policy is dropped by hand, or a transition is opened to anon', async () => {
    const db = await open(helpdesk);
    await db.exec('drop policy ticket__customer__read on public.ticket;');
    await db.exec('grant execute on function public.ticket_solve(uuid, integer, jsonb) to anon;');
    const lines = await runSuite(db, printPgTap(helpdesk));
    const failed = failures(lines).join('\n');
    expect(failed).toContain('ticket: exactly the policies the permissions grant');
    expect(failed).toContain('ticket__customer__read');
    expect(failed).toContain('transition ticket.solve: not callable signed out');
    expect(specFailures(lines)).toHaveLength(4);
  });

  it('fails when a read-restricted column is granted to clients or its view runs as the owner', async () => {
    const db = await open(tasks);
    await db.exec('grant select (rate) on table public.time_entry to authenticated;');
    await db.exec('alter view public.time_entry__readable set (security_invoker = false);');
    const failed = specFailures(await runSuite(db, printPgTap(tasks))).join('\n');
    expect(failed).toContain('timeEntry.rate (read only when');
    expect(failed).toContain(': its column is granted to no client');
    expect(failed).toContain('runs as the caller (row-level security applies)');
  });

  it('finding 11: fails when a client may write the outbox or run the deliverer', async () => {
    const db = await open(helpdesk);
    await db.exec('grant insert on table app.outbox to authenticated;');
    await db.exec(
      'grant execute on function public.outbox_claim(text[], integer, integer) to authenticated;',
    );
    const lines = await runSuite(db, printPgTap(helpdesk));
    const failed = specFailures(lines);
    expect(failed.join('\n')).toContain('outbox: authenticated may not insert');
    expect(failed.join('\n')).toContain('outbox: authenticated may not execute public.outbox_claim');
    expect(failed).toHaveLength(2);
    // The catalog audit sees the table grant too: clients could choose an outbox row's id.
    expect(failures(lines).join('\n')).toMatch(
      /no client chooses a row id[\s\S]*have: \{[^}]*app\.outbox\.id/,
    );
  });
});
