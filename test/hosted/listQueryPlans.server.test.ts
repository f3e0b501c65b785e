import { afterAll, describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import tasks from '../../examples/tasks/spec.ts';
import { createServerDb, serverAvailable } from '../../src/sql/testing/pgDb.ts';
import type { TestDb } from '../../src/sql/testing/testDb.ts';
import { seedHostedLists } from './hostedListSeed.ts';
import { explainAnalyze, plannedListQueries } from './listQueryPlans.ts';

const hasServer = await serverAvailable();
if (!hasServer && process.env.CI === 'true')
  throw new Error('CI=true but no Postgres server at DATABASE_URL');

/** Rows in the busiest table: enough that a sequential scan is visible, small enough for a test. */
const ROWS = 20_000;
/** A bounded count may read this many rows (ESTIMATE_ABOVE + 1); a page far fewer. */
const READ_MAX = 10_001;

/**
 * Queries allowed to read the whole readable table, with why. An agent's full ticket list sorted
 * by title: text sorts by `lower(title)`, and an index on it made the planner walk it for the
 * filtered lists too (awaiting response, approvals: every row thrown away to find a few); a
 * top-N sort of the readable rows is the lesser cost.
 */
const ACCEPTED = new Set(['helpdesk tickets agent sorted by title']);

const open: TestDb[] = [];
afterAll(async () => {
  for (const db of open) await db.close();
});

describe.skipIf(!hasServer)('hosted list queries under row-level security', () => {
  for (const [name, spec] of [
    ['helpdesk', helpdesk],
    ['expenses', expenses],
    ['tasks', tasks],
  ] as const) {
    it(`${name}: no list query scans or throws away more than a bounded count may`, async () => {
      const db = await createServerDb();
      open.push(db);
      const { model, users, entity } = await seedHostedLists(db, name, spec, ROWS);
      const planUsers = users.map((u) => ({ role: u.label, id: u.id }));
      const queries = await plannedListQueries(db, model, planUsers, 'copy 1234');
      expect(queries.length).toBeGreaterThan(10);
      const bad: string[] = [];
      for (const q of queries) {
        // Every query past the JIT threshold (0): only the API roles' `jit = off`, applied as
        // PostgREST applies it, keeps them from compiling with LLVM.
        const cost = await explainAnalyze(db, q, false, 'set local jit_above_cost = 0');
        if (cost.jit) bad.push(`${q.screen} as ${q.role}, ${q.variant} (${q.kind}): compiled with JIT`);
        if (ACCEPTED.has(`${name} ${q.screen} ${q.role} ${q.variant}`)) continue;
        if (cost.removed > READ_MAX || cost.seqScanned > READ_MAX)
          bad.push(
            `${q.screen} as ${q.role}, ${q.variant} (${q.kind}): removed ${cost.removed}, seq-scanned ${cost.seqScanned}\n  ${q.sql.text}`,
          );
      }
      expect(bad, `${entity} at ${ROWS} rows`).toEqual([]);
    }, 240_000);
  }
});
