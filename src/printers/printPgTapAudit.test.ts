/**
 * The catalog audit of issue 28 ("Done when"): the pgTAP suite `ninefold tests` prints checks,
 * over the catalog of every table in the app's schemas, that no table lacks forced row-level
 * security, no client chooses a row id, no client-writable text lacks a ceiling and no
 * client-writable number accepts NaN or Infinity. Run on the PostgreSQL server for both reference
 * apps, as the hosted (Supabase) target's migration and as the embedded target's schema.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { embeddedSchemaSql } from '../backend/embedded/upgradeSchema.ts';
import { resolve } from '../model/resolve.ts';
import type { AppSpec } from '../spec/types.ts';
import { AUTH_STAND_IN_SQL } from '../sql/authStandIn.ts';
import { compileMigration } from '../sql/compileMigration.ts';
import { STORAGE_STAND_IN_SQL } from '../sql/storageStandIn.ts';
import { createServerDb, quietOnTermination, serverAvailable } from '../sql/testing/pgDb.ts';
import type { TestDb } from '../sql/testing/testDb.ts';
import { printPgTap } from './printPgTap.ts';

const server = await serverAvailable();
if (!server && process.env.CI === 'true') throw new Error('CI=true but no Postgres server answers');

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

const TARGETS = {
  hosted: (spec: AppSpec) =>
    AUTH_STAND_IN_SQL + STORAGE_STAND_IN_SQL + compileMigration(spec, { target: 'supabase' }),
  embedded: (spec: AppSpec) => AUTH_STAND_IN_SQL + embeddedSchemaSql(resolve(spec), 'embedded'),
};

/** The audit's lines of a TAP output: the assertion and, when it fails, pgTAP's diagnostics. */
function auditLines(lines: readonly string[]): string[] {
  const out: string[] = [];
  let inAudit = false;
  for (const l of lines) {
    if (/^(not )?ok \d+/.test(l)) inAudit = l.includes(' - catalog: ');
    if (inAudit) out.push(l.replace(/^(not )?ok \d+ - /, '$1ok - '));
  }
  return out;
}

describe.skipIf(!server)('finding 28 (done when): the catalog audit in the pgTAP suite', () => {
  const dbs: TestDb[] = [];
  afterAll(async () => {
    for (const db of dbs) await db.close();
  });

  it.each([
    ['helpdesk', 'hosted', helpdesk],
    ['helpdesk', 'embedded', helpdesk],
    ['expenses', 'hosted', expenses],
    ['expenses', 'embedded', expenses],
  ] as const)(
    'the %s app, %s target: no table without forced RLS, no client-chosen id, no text without a ceiling, no NaN',
    async (_app, target, spec) => {
      const db = await createServerDb();
      dbs.push(db);
      await db.exec(TARGETS[target](spec as AppSpec));
      const lines = await runSuite(db, printPgTap(spec as AppSpec));
      expect(auditLines(lines)).toEqual([
        'ok - catalog: every table has row-level security enabled and forced',
        'ok - catalog: no client chooses a row id (no uuid key column is client-writable)',
        'ok - catalog: every client-writable text has a length ceiling (or a list of values)',
        'ok - catalog: no client-writable number accepts NaN or Infinity',
      ]);
    },
  );

  it('finds what a hand edit weakens: RLS not forced, a writable id, a text without its ceiling, a NaN', async () => {
    const db = await createServerDb();
    dbs.push(db);
    await db.exec(TARGETS.hosted(expenses as AppSpec));
    await db.exec(`
      alter table public.claim no force row level security;
      grant insert (id) on public.claim to authenticated;
      alter table public.claim drop constraint claim__title_too_long__1;
      alter table public.line drop constraint line__amount__values;
    `);
    const failed = auditLines(await runSuite(db, printPgTap(expenses as AppSpec))).filter((l) =>
      l.startsWith('not ok'),
    );
    expect(failed).toHaveLength(4);
    const [rls, ids, texts, numbers] = failed;
    expect(rls).toMatch(/have: \{.*public\.claim\b/);
    expect(ids).toMatch(/have: \{.*public\.claim\.id\b/);
    expect(texts).toMatch(/have: \{.*public\.claim\.title\b/);
    expect(numbers).toMatch(/have: \{public\.line\.amount\}/);
  });
});
