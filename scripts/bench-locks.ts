/**
 * `npm run bench:locks`: what a customer's bulk insert does to everybody else (issue 28, finding 2).
 * On the PostgreSQL server at DATABASE_URL, in a fresh database `ninefold_bench_<random>` (dropped
 * at the end) with the helpdesk migration: an agent edits a ticket in the category the bulk insert
 * uses, edits an uncategorised one and comments on a third, over and over, first idle, then while
 * one customer inserts BENCH_ROWS tickets (default 10,000) in one statement, then while three
 * customers each insert a third of them at once — each insert one INSERT of many rows as role
 * `authenticated`, as PostgREST runs `POST /ticket` with an array. Prints a Markdown table: the
 * agent's latency (median, p95, max), its ratio to idle, the inserts' outcome and duration, and
 * the advisory locks the inserts held (read from pg_locks before they commit).
 *
 * Bounded: every statement has a 120 s statement_timeout, the agent stops when the inserts end.
 * Options (env): DATABASE_URL, BENCH_ROWS (default 10000), BENCH_IDLE (idle samples, default 60).
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import helpdesk from '../examples/helpdesk/spec.ts';
import { AUTH_STAND_IN_SQL } from '../src/sql/authStandIn.ts';
import { compileMigration } from '../src/sql/compileMigration.ts';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const IDLE = Number(process.env.BENCH_IDLE ?? 60);

function withDatabase(u: string, name: string): string {
  const x = new URL(u);
  x.pathname = `/${name}`;
  return x.toString();
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

/** Opens a client transaction as `user` (JWT claims, role authenticated), bounded to 120 s. */
async function begin(c: pg.Client, user: string): Promise<void> {
  await c.query('begin');
  await c.query(`set local statement_timeout = '120s'`);
  await c.query(`select set_config('request.jwt.claims', $1, true)`, [
    JSON.stringify({ sub: user, role: 'authenticated' }),
  ]);
  await c.query('set local role authenticated');
}

interface Fixture {
  agent: string;
  customers: string[];
  category: string;
  /** The agent's three tickets: in the bulk's category, uncategorised, commented on. */
  same: string;
  none: string;
  commented: string;
}

/** One round of the agent's writes, each its own transaction (as three REST requests); ms each. */
async function agentRound(c: pg.Client, f: Fixture, i: number): Promise<number[]> {
  const one = (sql: string, params: unknown[]) =>
    timed(async () => {
      await begin(c, f.agent);
      try {
        await c.query(sql, params);
        await c.query('commit');
      } catch (e) {
        await c.query('rollback');
        throw e;
      }
    });
  return [
    await one('update public.ticket set title = $2 where id = $1', [f.same, `Edited ${i}`]),
    await one('update public.ticket set priority = $2 where id = $1', [f.none, i % 2 ? 'high' : 'low']),
    await one(`insert into public.comment (ticket, body) values ($1, 'An agent at work')`, [f.commented]),
  ];
}

interface Insert {
  ok: boolean;
  outcome: string;
  ms: number;
  locks: number;
}

/** One customer's bulk insert of `rows` tickets (half in the category, half without), rolled back. */
async function bulkInsert(c: pg.Client, customer: string, category: string, rows: number): Promise<Insert> {
  const started = process.hrtime.bigint();
  const ms = () => Number(process.hrtime.bigint() - started) / 1e6;
  await begin(c, customer);
  try {
    await c.query(
      `insert into public.ticket (title, description, category)
       select 'Bulk ' || g, 'A ticket of a bulk insert', case when g % 2 = 0 then $1::uuid end
       from pg_catalog.generate_series(1, $2::int) g`,
      [category, rows],
    );
    const locks = await c.query<{ n: number }>(
      `select count(*)::int as n from pg_catalog.pg_locks where locktype = 'advisory' and pid = pg_catalog.pg_backend_pid()`,
    );
    // Rolled back: every phase starts from the same data (the lock table is what is measured).
    await c.query('rollback');
    return { ok: true, outcome: `${rows.toLocaleString('en')} rows`, ms: ms(), locks: locks.rows[0]?.n ?? 0 };
  } catch (e) {
    await c.query('rollback');
    const err = e as { code?: string; message?: string };
    return { ok: false, outcome: `${err.code} ${err.message}`, ms: ms(), locks: Number.NaN };
  }
}

interface Phase {
  name: string;
  samples: number[][];
  inserts: Insert[];
}

/** The agent's rounds while `work` runs (at least one round), or `IDLE` rounds when there is none. */
async function phase(
  name: string,
  agent: pg.Client,
  f: Fixture,
  work?: () => Promise<Insert[]>,
): Promise<Phase> {
  const samples: number[][] = [];
  if (!work) {
    for (let i = 0; i < IDLE; i++) samples.push(await agentRound(agent, f, i));
    return { name, samples, inserts: [] };
  }
  let done = false;
  const running = work().finally(() => {
    done = true;
  });
  // Let the inserts start before the agent's first round.
  await new Promise((ok) => setTimeout(ok, 100));
  let i = 0;
  do samples.push(await agentRound(agent, f, i++));
  while (!done);
  return { name, samples, inserts: await running };
}

async function setUp(c: pg.Client): Promise<Fixture> {
  await c.query(AUTH_STAND_IN_SQL);
  await c.query(compileMigration(helpdesk));
  const user = async (email: string) =>
    (
      await c.query<{ id: string }>(
        'insert into auth.users (email, raw_user_meta_data) values ($1, $2::jsonb) returning id',
        [email, JSON.stringify({ name: email.split('@')[0] })],
      )
    ).rows[0]?.id as string;
  const agent = await user('agent@bench.test');
  await c.query(`insert into app.user_roles (user_id, role) values ($1, 'agent') on conflict do nothing`, [
    agent,
  ]);
  const customers = [await user('c1@bench.test'), await user('c2@bench.test'), await user('c3@bench.test')];
  const category = (
    await c.query<{ id: string }>(
      `insert into public.category (name, active) values ('Billing', true) returning id`,
    )
  ).rows[0]?.id as string;
  const ticket = async (cat: string | null) =>
    (
      await c.query<{ id: string }>(
        `insert into public.ticket (title, description, requester, category) values ('Agent work', 'A ticket an agent works on', $1, $2) returning id`,
        [customers[0], cat],
      )
    ).rows[0]?.id as string;
  return {
    agent,
    customers,
    category,
    same: await ticket(category),
    none: await ticket(null),
    commented: await ticket(null),
  };
}

function row(p: Phase, idle: number[] | undefined): string {
  const all = p.samples.flat();
  const med = quantile(all, 0.5);
  const ratio = idle ? med / (quantile(idle, 0.5) || 1) : 1;
  const inserts = p.inserts.length
    ? p.inserts
        .map(
          (x) =>
            `${x.ok ? 'ok' : 'refused'} (${x.outcome}) in ${(x.ms / 1000).toFixed(1)} s, ${x.locks} locks`,
        )
        .join('; ')
    : '—';
  return `| ${p.name} | ${all.length} | ${med.toFixed(1)} | ${quantile(all, 0.95).toFixed(1)} | ${Math.max(...all).toFixed(1)} | ${ratio.toFixed(2)}x | ${inserts} |`;
}

async function main(): Promise<void> {
  const name = `ninefold_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const conn = () => new pg.Client({ connectionString: withDatabase(url, name) });
  const clients = [conn(), conn(), conn(), conn()];
  try {
    for (const c of clients) await c.connect();
    const [agent, b1, b2, b3] = clients as [pg.Client, pg.Client, pg.Client, pg.Client];
    const version = (await agent.query<{ v: string }>('select version() as v')).rows[0]?.v ?? '';
    const f = await setUp(agent);
    const third = Math.round(ROWS / 3);
    const phases: Phase[] = [];
    phases.push(await phase('idle', agent, f));
    phases.push(
      await phase(`one ${ROWS.toLocaleString('en')}-row insert`, agent, f, async () => [
        await bulkInsert(b1, f.customers[0] as string, f.category, ROWS),
      ]),
    );
    phases.push(
      await phase(`three ${third.toLocaleString('en')}-row inserts at once`, agent, f, () =>
        Promise.all([b1, b2, b3].map((c, i) => bulkInsert(c, f.customers[i] as string, f.category, third))),
      ),
    );
    phases.push(await phase('idle again', agent, f));
    const idle = phases[0]?.samples.flat();
    console.log(
      `\nbench:locks: ${new Date().toISOString()}, ${os.cpus()[0]?.model ?? 'cpu'} x${os.cpus().length}, load ${os.loadavg()[0]?.toFixed(1)}, ${version.split(' on ')[0]}`,
    );
    console.log(
      'agent writes (ticket edit in the bulk’s category, edit of an uncategorised ticket, comment), ms per request\n',
    );
    console.log('| phase | requests | median | p95 | max | median vs idle | bulk inserts |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- |');
    for (const p of phases) console.log(row(p, idle));
  } finally {
    for (const c of clients) await c.end().catch(() => undefined);
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

await main();
