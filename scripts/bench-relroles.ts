/**
 * `npm run bench:relroles`: a policy of a role held through a relationship at 1,000,000 rows, on
 * the PostgreSQL server at DATABASE_URL. The team tracker (src/check/fixtures/teamSpec.ts): 1,000
 * teams, 2,000 people each in two teams (a membership row: person, team, role), 5,000 projects
 * with a lead, BENCH_TASKS tasks (default 1,000,000) spread over the teams. A team member reads
 * tasks through `teamMember` (the person's teams, read once per statement on (person, team)); a
 * project's lead updates them through `projectLead` (the projects they lead, likewise). People are read by those who
 * share a team with them (`count(membership where person = this.id and me is teamMember) >= 1`):
 * BENCH_PEOPLE=50000 BENCH_TASKS=100000 measures it at 100,000 memberships.
 *
 * A fresh database `ninefold_bench_<random>` is created and dropped. Rows are bulk-loaded as the
 * owner (triggers off), then ANALYZEd. Prints median latencies and the EXPLAIN (ANALYZE) plans.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { teamSpec } from '../src/check/fixtures/teamSpec.ts';
import { AUTH_STAND_IN_SQL } from '../src/sql/authStandIn.ts';
import { compileMigration } from '../src/sql/compileMigration.ts';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const RUNS = Number(process.env.BENCH_RUNS ?? 11);
const TASKS = Number(process.env.BENCH_TASKS ?? 1_000_000);
const TEAMS = Number(process.env.BENCH_TEAMS ?? 1000);
// Each person is in two teams: BENCH_PEOPLE=50000 makes 100,000 memberships.
const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 2000);
/** The team tracker, people read by those who share a team with them (a role on a counted row). */
function benchSpec(): ReturnType<typeof teamSpec> {
  const s = teamSpec();
  const member = s.roles.permissions.member;
  if (member)
    member.person = { read: 'id = me or count(membership where person = this.id and me is teamMember) >= 1' };
  return s;
}

function withDatabase(u: string, name: string): string {
  const x = new URL(u);
  x.pathname = `/${name}`;
  return x.toString();
}

async function asUser<T>(c: pg.Client, userId: string, fn: () => Promise<T>): Promise<T> {
  await c.query('begin');
  try {
    await c.query(`select set_config('request.jwt.claims', $1, true)`, [
      JSON.stringify({ sub: userId, role: 'authenticated' }),
    ]);
    await c.query('set local role authenticated');
    return await fn();
  } finally {
    await c.query('rollback');
  }
}

async function median(fn: () => Promise<unknown>): Promise<number> {
  const xs: number[] = [];
  for (let i = 0; i < RUNS + 2; i++) {
    const t = process.hrtime.bigint();
    await fn();
    if (i >= 2) xs.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  xs.sort((a, b) => a - b);
  return xs[Math.floor(xs.length / 2)] ?? 0;
}

async function load(c: pg.Client): Promise<void> {
  await c.query(`insert into auth.users (email, raw_user_meta_data)
    select 'p' || g || '@bench.test', jsonb_build_object('name', 'Person ' || g) from generate_series(1, ${PEOPLE}) g`);
  await c.query('set session_replication_role = replica');
  await c.query(`insert into public.team (name) select 'Team ' || g from generate_series(1, ${TEAMS}) g`);
  await c.query(`
    with p as (select id, row_number() over (order by id) as i from public.person),
         t as (select id, row_number() over (order by name) as j from public.team)
    insert into public.membership (person, team, role)
    select p.id, t.id, case when p.i % 10 = 0 then 'owner' else 'member' end
    from p join t on t.j = 1 + (p.i % ${TEAMS}) or t.j = 1 + ((p.i * 7 + 3) % ${TEAMS})`);
  await c.query(`
    with t as (select id, row_number() over (order by name) as j from public.team),
         p as (select array_agg(id order by id) as ids from public.person)
    insert into public.project (name, team, lead)
    select 'Project ' || t.j || '.' || k, t.id, p.ids[1 + ((t.j * 5 + k) % ${PEOPLE})]
    from t, p, generate_series(1, 5) k`);
  await c.query(`
    with pr as (select array_agg(id order by name) as ids, array_agg(team order by name) as teams from public.project),
         p as (select array_agg(id order by id) as ids from public.person),
         g as (select g, floor(random() * ${TEAMS * 5})::int + 1 as k, random() as r from generate_series(1, ${TASKS}) g)
    insert into public.task (created_at, updated_at, title, team, project, assignee, status)
    select now() - g.r * interval '365 days', now(), 'Task ' || g.g, pr.teams[g.k], pr.ids[g.k],
      p.ids[1 + (g.g % ${PEOPLE})], 'open'
    from g, pr, p`);
  await c.query('set session_replication_role = origin');
  await c.query('analyze');
}

async function main(): Promise<void> {
  const name = `ninefold_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const c = new pg.Client({ connectionString: withDatabase(url, name) });
  await c.connect();
  try {
    await c.query(AUTH_STAND_IN_SQL);
    await c.query(compileMigration(benchSpec()));
    const started = Date.now();
    await load(c);
    console.log(`loaded ${TASKS} tasks in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const member = (
      await c.query<{ id: string }>(
        'select person as id from public.membership order by person limit 1 offset 10',
      )
    ).rows[0]?.id as string;
    // Picked as the owner: under RLS the member sees no membership of a stranger.
    const pick = async (sql: string) => (await c.query<{ id: string }>(sql, [member])).rows[0]?.id as string;
    const stranger = await pick(
      'select person as id from public.membership where team not in (select team from public.membership where person = $1) and person <> $1 limit 1',
    );
    const teammate = await pick(
      'select person as id from public.membership where team in (select team from public.membership where person = $1) and person <> $1 limit 1',
    );
    const lead = (
      await c.query<{ lead: string; id: string }>(
        // A lead who is also a member of the project's team (reads its tasks, so may update them).
        'select p.lead, p.id from public.project p join public.membership m on m.person = p.lead and m.team = p.team limit 1',
      )
    ).rows[0];
    if (!lead) throw new Error('no project');
    const queries: [string, string, string][] = [
      [
        'member, list page (50 newest)',
        member,
        'select id, title from public.task order by created_at desc limit 50',
      ],
      ['member, count of readable tasks', member, 'select count(*) from public.task'],
      [
        'member, one team’s page',
        member,
        `select id, title from public.task where team = (select team from public.membership where person = '${member}' limit 1) order by created_at desc limit 50`,
      ],
      [
        'member, people sharing a team (50 by name)',
        member,
        'select id, name from public.person order by name limit 50',
      ],
      ['member, count of readable people', member, 'select count(*) from public.person'],
      [
        'member, another team’s person by id',
        member,
        `select name from public.person where id = '${stranger}'`,
      ],
      ['member, a teammate by id', member, `select name from public.person where id = '${teammate}'`],
      [
        'lead, update a project’s tasks',
        lead.lead,
        `update public.task set title = title || '' where project = '${lead.id}'`,
      ],
    ];
    const lines = ['| query | median ms | rows |', '| --- | ---: | ---: |'];
    const plans: string[] = [];
    for (const [label, who, sql] of queries) {
      let rows = 0;
      const ms = await median(() =>
        asUser(c, who, async () => {
          const r = await c.query(sql);
          rows = r.rowCount ?? r.rows.length;
        }),
      );
      lines.push(`| ${label} | ${ms.toFixed(2)} | ${rows} |`);
      const plan = await asUser(c, who, () => c.query(`explain (analyze, buffers, costs off) ${sql}`));
      plans.push(
        `-- ${label}\n${plan.rows.map((r) => (r as Record<string, string>)['QUERY PLAN']).join('\n')}`,
      );
    }
    const version = (await c.query<{ v: string }>('select version() as v')).rows[0]?.v.split(' on ')[0];
    console.log(
      `\nbench:relroles: ${TASKS} tasks, ${version}, median of ${RUNS} runs\n${lines.join('\n')}\n`,
    );
    console.log(plans.join('\n\n'));
  } finally {
    await c.end();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

await main();
