/**
 * `npm run bench:hosted [-- --rows 1000000 --runs 5 --apps helpdesk,expenses,tasks]`: every list
 * query of the reference apps (test/hosted/listQueryPlans.ts: every list screen × role that opens
 * it × opened, next page, each filter, sorted by another column, a search; page and total) on the
 * PostgreSQL server at DATABASE_URL, under row-level security as the role's user and as the table
 * owner (no RLS), with EXPLAIN (ANALYZE): rows thrown away, p50 execution time, the RLS/owner ratio.
 * A fresh database per app (test/hosted/hostedListSeed.ts) is dropped at the end. Prints Markdown.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import expenses from '../examples/expenses/spec.ts';
import helpdesk from '../examples/helpdesk/spec.ts';
import tasks from '../examples/tasks/spec.ts';
import type { AppSpec } from '../src/spec/types.ts';
import { createServerDb } from '../src/sql/testing/pgDb.ts';
import { seedHostedLists } from '../test/hosted/hostedListSeed.ts';
import { explainAnalyze, type PlanCost, plannedListQueries } from '../test/hosted/listQueryPlans.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '5' },
    apps: { type: 'string', default: 'helpdesk,expenses,tasks' },
  },
});
const ROWS = Number(values.rows);
const RUNS = Number(values.runs);
const APPS: Record<string, AppSpec> = { helpdesk, expenses, tasks } as Record<string, AppSpec>;
const REMOVED_MAX = 10_000;
const P50_MAX_MS = 10;
const RATIO_MAX = 1.5;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

async function benchApp(name: string, spec: AppSpec): Promise<string> {
  const db = await createServerDb();
  try {
    const started = Date.now();
    const { model, users, entity } = await seedHostedLists(db, name, spec, ROWS);
    const seeded = ((Date.now() - started) / 1000).toFixed(0);
    const queries = await plannedListQueries(
      db,
      model,
      users.map((u) => ({ role: u.label, id: u.id })),
      'copy 1234',
    );
    const lines = [
      `### ${name}: ${ROWS.toLocaleString('en')} rows in ${entity} (seeded in ${seeded} s); ${queries.length} queries, ${RUNS} runs each`,
      '',
      '| screen | role | query | rows thrown away | p50 RLS ms | p50 owner ms | ratio | checks |',
      '| --- | --- | --- | ---: | ---: | ---: | ---: | --- |',
    ];
    let passed = 0;
    for (const q of queries) {
      await explainAnalyze(db, q);
      const rls: PlanCost[] = [];
      const owner: PlanCost[] = [];
      for (let i = 0; i < RUNS; i++) {
        rls.push(await explainAnalyze(db, q));
        owner.push(await explainAnalyze(db, q, true));
      }
      const removed = Math.max(
        ...rls.map((c) => Math.max(c.removed, c.seqScanned > REMOVED_MAX + 1 ? c.seqScanned : 0)),
      );
      const p50 = median(rls.map((c) => c.executionMs));
      const p50Owner = median(owner.map((c) => c.executionMs));
      const ratio = p50Owner > 0 ? p50 / p50Owner : 1;
      const fails = [
        removed > REMOVED_MAX ? 'rows' : '',
        p50 > P50_MAX_MS ? 'p50' : '',
        ratio > RATIO_MAX && p50 - p50Owner >= 1 ? 'ratio' : '',
      ].filter(Boolean);
      if (fails.length === 0) passed++;
      lines.push(
        `| ${q.screen} | ${q.role} | ${q.variant} (${q.kind}) | ${removed.toLocaleString('en')} | ${p50.toFixed(2)} | ${p50Owner.toFixed(2)} | ${ratio.toFixed(2)} | ${fails.length ? `✗ ${fails.join(', ')}` : '✓'} |`,
      );
    }
    lines.push('', `${passed} of ${queries.length} queries met every check.`);
    return lines.join('\n');
  } finally {
    await db.close();
  }
}

async function main(): Promise<void> {
  const out: string[] = [
    `bench:hosted, ${new Date().toISOString()}, ${os.cpus().length} cores, load ${os.loadavg()[0]?.toFixed(1)}`,
    `Checks: rows thrown away ≤ ${REMOVED_MAX.toLocaleString('en')} (filter, recheck, join filter, or a sequential scan's rows), p50 ≤ ${P50_MAX_MS} ms, RLS p50 ≤ ${RATIO_MAX}x the owner's (differences under 1 ms ignored).`,
  ];
  for (const name of values.apps.split(',')) {
    const spec = APPS[name];
    if (!spec) throw new Error(`unknown app ${name} (helpdesk, expenses, tasks)`);
    out.push('', await benchApp(name, spec));
    console.error(`${name} done`);
  }
  console.log(out.join('\n'));
}

await main();
