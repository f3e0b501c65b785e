/**
 * `npm run bench:sql`: list-page latency of the helpdesk migration on the PostgreSQL server at
 * DATABASE_URL, with row-level security (as `authenticated` with JWT claims) and without (the
 * same query as the owner, who bypasses RLS), at 100,000 and 1,000,000 tickets.
 *
 * A fresh database `ninefold_bench_<random>` is created and dropped. Tickets are bulk-loaded as
 * the owner with generate_series (triggers off: `session_replication_role = replica`), then
 * ANALYZEd. Prints a Markdown table and the EXPLAIN (ANALYZE) plans of the RLS queries.
 *
 * Options (env): DATABASE_URL, BENCH_RUNS (default 31), BENCH_SIZES (default "100000,1000000"),
 * BENCH_EXTRA_SQL (DDL run after the migration, for experiments).
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import helpdesk from '../examples/helpdesk/spec.ts';
import { AUTH_STAND_IN_SQL } from '../src/sql/authStandIn.ts';
import { compileMigration } from '../src/sql/compileMigration.ts';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const RUNS = Number(process.env.BENCH_RUNS ?? 31);
const WARMUP = 5;
const SIZES = (process.env.BENCH_SIZES ?? '100000,1000000').split(',').map(Number);
const CUSTOMERS = 1000;
const AGENTS = 25;

/** The list page: open and pending tickets, newest first, one page of 50. */
const LIST_SQL = `select id, title, status, priority, category, requester, assignee, due_at, created_at
from public.ticket
where status in ('open', 'pending')
order by created_at desc
limit 50`;

/** The same page with the customer's own filter spelled out, as a client does for "my tickets". */
const listOf = (requester: string): string =>
  LIST_SQL.replace(
    "where status in ('open', 'pending')",
    `where status in ('open', 'pending') and requester = '${requester}'`,
  );

function withDatabase(u: string, name: string): string {
  const x = new URL(u);
  x.pathname = `/${name}`;
  return x.toString();
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

/** Runs `sql` in a transaction as a signed-in user (claims + role authenticated), timing only `sql`. */
async function asUser(c: pg.Client, userId: string, sql: string): Promise<{ ms: number; rows: unknown[] }> {
  await c.query('begin');
  try {
    await c.query(`select set_config('request.jwt.claims', $1, true)`, [
      JSON.stringify({ sub: userId, role: 'authenticated' }),
    ]);
    await c.query('set local role authenticated');
    let rows: unknown[] = [];
    const ms = await timed(async () => {
      rows = (await c.query(sql)).rows;
    });
    return { ms, rows };
  } finally {
    await c.query('commit');
  }
}

async function measure(fn: () => Promise<number>): Promise<number> {
  for (let i = 0; i < WARMUP; i++) await fn();
  const xs: number[] = [];
  for (let i = 0; i < RUNS; i++) xs.push(await fn());
  return median(xs);
}

/** Loads `n` more tickets: recent ones mostly new/open/pending, older ones mostly solved/closed. */
async function loadTickets(c: pg.Client, n: number, from: number): Promise<void> {
  await c.query('set session_replication_role = replica');
  await c.query(`
    with c as (select array_agg(p.id order by p.email) as ids from public.person p where p.email like 'customer%'),
         a as (select array_agg(p.id order by p.email) as ids from public.person p where p.email like 'agent%'),
         g as (
           select g, random() as age, random() as s, random() as pr, random() as who, random() as ag
           from generate_series(${from + 1}, ${from + n}) g
         ),
         t as (
           select g.*, now() - g.age * interval '730 days' as created,
             case
               when g.age < 0.02 then (array['new', 'open', 'open', 'pending', 'solved'])[1 + floor(g.s * 5)::int]
               when g.s < 0.04 then 'open'
               when g.s < 0.07 then 'pending'
               when g.s < 0.15 then 'solved'
               else 'closed'
             end as status
           from g
         )
    insert into public.ticket (created_at, updated_at, title, description, priority, requester, assignee, status,
                               first_response_at, solved_at, closed_at, reopen_count)
    select t.created, t.created, 'Ticket number ' || t.g, 'Something does not work as expected (ticket ' || t.g || ').',
      case when t.pr < 0.2 then 'low' when t.pr < 0.7 then 'normal' when t.pr < 0.92 then 'high' else 'urgent' end,
      -- a few customers file many tickets, most file a few
      c.ids[1 + floor(power(t.who, 2) * ${CUSTOMERS})::int],
      case when t.status = 'new' then null else a.ids[1 + floor(t.ag * ${AGENTS})::int] end,
      t.status,
      case when t.status = 'new' then null else t.created + interval '2 hours' end,
      case when t.status in ('solved', 'closed') then t.created + interval '1 day' end,
      case when t.status = 'closed' then t.created + interval '8 days' end,
      0
    from t, c, a`);
  await c.query('set session_replication_role = origin');
}

interface Row {
  rows: number;
  role: string;
  rls: number;
  noRls: number;
  note?: string;
}

async function main(): Promise<void> {
  const name = `ninefold_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const c = new pg.Client({ connectionString: withDatabase(url, name) });
  await c.connect();
  const results: Row[] = [];
  const plans: string[] = [];
  try {
    const version = (await c.query<{ v: string }>('select version() as v')).rows[0]?.v ?? '';
    await c.query(AUTH_STAND_IN_SQL);
    await c.query(compileMigration(helpdesk));
    // For experiments: extra DDL after the migration (e.g. an index being considered).
    if (process.env.BENCH_EXTRA_SQL) await c.query(process.env.BENCH_EXTRA_SQL);
    await c.query(`insert into auth.users (email, raw_user_meta_data)
      select 'customer' || lpad(g::text, 4, '0') || '@bench.test', jsonb_build_object('name', 'Customer ' || g)
      from generate_series(1, ${CUSTOMERS}) g`);
    await c.query(`insert into auth.users (email, raw_user_meta_data)
      select 'agent' || lpad(g::text, 3, '0') || '@bench.test', jsonb_build_object('name', 'Agent ' || g)
      from generate_series(1, ${AGENTS}) g`);
    await c.query(
      `delete from app.user_roles ur using public.person p where p.id = ur.user_id and p.email like 'agent%'`,
    );
    await c.query(
      `insert into app.user_roles (user_id, role) select id, 'agent' from public.person where email like 'agent%'`,
    );
    let loaded = 0;
    for (const size of SIZES) {
      const started = Date.now();
      await loadTickets(c, size - loaded, loaded);
      loaded = size;
      await c.query('analyze');
      console.log(
        `loaded ${size} tickets in ${((Date.now() - started) / 1000).toFixed(1)} s (incl. analyze)`,
      );
      // A customer with a typical number of tickets (the median), and an agent.
      const customer = (
        await c.query<{ id: string; n: number }>(`
          select requester as id, count(*)::int as n from public.ticket group by requester
          order by count(*) offset ${CUSTOMERS / 2} limit 1`)
      ).rows[0];
      const agent = (
        await c.query<{ id: string }>(`select id from public.person where email like 'agent%' limit 1`)
      ).rows[0];
      if (!customer || !agent) throw new Error('no users');
      for (const [role, id, sql, note] of [
        ['customer', customer.id, LIST_SQL, `${customer.n} tickets; RLS alone filters`],
        ['customer', customer.id, listOf(customer.id), `${customer.n} tickets; query adds requester = me`],
        ['agent', agent.id, LIST_SQL, 'reads every ticket'],
      ] as const) {
        const rls = await measure(async () => (await asUser(c, id, sql)).ms);
        const noRls = await measure(() => timed(() => c.query(sql)));
        results.push({ rows: size, role, rls, noRls, note });
        const check = await asUser(c, id, sql);
        console.log(
          `  ${role}: rls ${rls.toFixed(2)} ms, no rls ${noRls.toFixed(2)} ms (${check.rows.length} rows; ${note})`,
        );
        const plan = await asUser(c, id, `explain (analyze, buffers, costs off) ${sql}`);
        plans.push(
          `-- ${size} rows, ${role} (${note}), RLS\n${plan.rows.map((r) => (r as Record<string, string>)['QUERY PLAN']).join('\n')}`,
        );
      }
    }
    const table = [
      '| rows | role | RLS median ms | no-RLS median ms | ratio | note |',
      '| ---: | --- | ---: | ---: | ---: | --- |',
      ...results.map(
        (r) =>
          `| ${r.rows.toLocaleString('en')} | ${r.role} | ${r.rls.toFixed(2)} | ${r.noRls.toFixed(2)} | ${(r.rls / r.noRls).toFixed(2)}x | ${r.note ?? ''} |`,
      ),
    ].join('\n');
    console.log(
      `\nbench:sql: ${new Date().toISOString()}, ${os.cpus()[0]?.model ?? 'cpu'} x${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GB, ${version.split(' on ')[0]}`,
    );
    console.log(`median of ${RUNS} runs after ${WARMUP} warm-up runs; query:\n${LIST_SQL}\n`);
    console.log(table);
    console.log(`\n${plans.join('\n\n')}`);
  } finally {
    await c.end();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

await main();
