/**
 * Finding 11 of the attack review (issue 11): declared calls go through an outbox. A transition
 * that declares a call queues it in its own transaction; clients cannot write or deliver outbox
 * rows; the deliverer sends with retries, backoff and an idempotency key to a real HTTP server on
 * 127.0.0.1, never twice. On PGlite and on the PostgreSQL server (racing deliverers: server only,
 * PGlite has one connection). See docs/security.md and docs/hosting.md ("Declared calls").
 */

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolve } from '../../src/model/resolve.ts';
import {
  type DeliveryReport,
  deliverDue,
  type OutboxStore,
  sqlOutboxStore,
} from '../../src/outbox/deliver.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import { emitOutbox } from '../../src/sql/emitOutbox.ts';
import { quietOnTermination } from '../../src/sql/testing/pgDb.ts';
import { expectDbError, type Queryable, type TestDb } from '../../src/sql/testing/testDb.ts';
import { createUser } from '../../src/sql/testing/users.ts';
import { enforcementBackends } from './support/backends.ts';
import { APPS } from './support/model.ts';

const backends = await enforcementBackends('outbox.test');
afterAll(async () => {
  for (const b of backends) await b.closeAll();
});

const helpdesk = APPS.find((a) => a.name === 'helpdesk')?.spec as AppSpec;

/** A real HTTP endpoint: answers each request with `reply(n)` (n from 1) and records what came. */
interface Endpoint {
  url: string;
  requests: { headers: IncomingHttpHeaders; body: string; url: string; at: number }[];
  reply: (n: number) => { status: number; body: string };
  close(): Promise<void>;
}

async function endpoint(reply: Endpoint['reply']): Promise<Endpoint> {
  const e: Endpoint = { url: '', requests: [], reply, close: async () => {} };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      e.requests.push({ headers: req.headers, body, url: req.url ?? '', at: Date.now() });
      const r = e.reply(e.requests.length);
      res.writeHead(r.status, { 'Content-Type': 'application/json' });
      res.end(r.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  e.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  e.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return e;
}

const OK = { status: 200, body: '{"id":"mail-1","queued":true}' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function storeOf(q: Queryable): OutboxStore {
  return sqlOutboxStore(async <T>(sql: string, params: unknown[]) => (await q.query<T>(sql, params)).rows);
}

const mail = { to: 'f.customer@example.com', subject: 'Your ticket was solved', body: 'We restarted it.' };

/** The e-mail the helpdesk spec's fill makes for a ticket "Mail is down" solved by the agent. */
const mailFor = (ticketId: string) => ({
  ticketId,
  to: 'f.customer@example.com',
  subject: 'Solved: Mail is down',
  body:
    'Hello Customer,\n\nyour ticket "Mail is down" was solved by Agent:\n\nRestarted the mail server\n\n' +
    'If the problem is still there, reopen the ticket within 7 days.',
});

describe.each(backends)('finding 11: calls through an outbox, on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => {});
    return;
  }
  let db: TestDb;
  let customer: string;
  let agent: string;
  let admin: string;
  beforeAll(async () => {
    db = await backend.open(helpdesk);
    customer = await createUser(db, 'f.customer@example.com', { meta: { name: 'Customer' } });
    agent = await createUser(db, 'f.agent@example.com', { roles: ['agent'], meta: { name: 'Agent' } });
    admin = await createUser(db, 'f.admin@example.com', { roles: ['admin'], meta: { name: 'Admin' } });
  }, 120_000);
  afterAll(async () => {
    if (db) await backend.release(db);
  });
  beforeEach(async () => {
    await db.query('delete from app.outbox');
  });

  async function openTicket(): Promise<string> {
    const r = await db.query<{ id: string }>(
      `insert into public.ticket (title, description, requester) values ('Mail is down', 'Nothing arrives since this morning', $1) returning id`,
      [customer],
    );
    const id = r.rows[0]?.id as string;
    await db.query(`update public.ticket set status = 'open' where id = $1`, [id]);
    return id;
  }

  const solve = (q: Queryable, id: string, input: Record<string, unknown>) =>
    q.query('select public.ticket_solve($1, null, $2::jsonb)', [id, JSON.stringify(input)]);

  const rows = async () =>
    (
      await db.query<{
        id: string;
        call: string;
        payload: Record<string, unknown>;
        transition: string | null;
        row_id: string | null;
        status: string;
        attempts: number;
        idempotency_key: string;
        last_error: string | null;
        delivered_at: string | null;
      }>(
        'select id, call, payload, transition, row_id, status, attempts, idempotency_key, last_error, delivered_at from app.outbox order by created_at, id',
      )
    ).rows;

  it('finding 11: a transition that declares a call queues it exactly when it commits', async () => {
    // Refused transitions (missing input; a customer) and a committed-then-rolled-back one leave nothing.
    const t1 = await openTicket();
    await expectDbError(() => db.asUser(agent, (q) => solve(q, t1, { calls: { notifyRequester: mail } })));
    await expectDbError(() =>
      db.asUser(customer, (q) =>
        solve(q, t1, { resolution: 'Restarted the mail server', calls: { notifyRequester: mail } }),
      ),
    );
    await expect(
      db.asUser(agent, async (q) => {
        await solve(q, t1, { resolution: 'Restarted the mail server', calls: { notifyRequester: mail } });
        throw new Error('the client’s transaction rolls back after the transition');
      }),
    ).rejects.toThrow('rolls back');
    expect(await rows()).toEqual([]);

    // The committed transition: one row, filled by the database from the ticket (the spec's fill),
    // whatever the client sent for those keys; a stable key.
    await db.asUser(agent, (q) =>
      solve(q, t1, {
        resolution: 'Restarted the mail server',
        calls: {
          notifyRequester: {
            to: 'attacker@example.com',
            subject: 'Chosen by the client',
            body: 'Chosen by the client',
            ticketId: '00000000-0000-4000-8000-000000000011',
          },
        },
      }),
    );
    const [row, ...more] = await rows();
    expect(more).toEqual([]);
    expect(row).toMatchObject({
      call: 'notifyRequester',
      transition: 'solve',
      row_id: t1,
      status: 'pending',
      attempts: 0,
      delivered_at: null,
      payload: mailFor(t1),
    });
    expect(row?.idempotency_key).toBe(`ninefold-outbox-${row?.id}`);
  });

  it('finding 11: the transition checks the call’s payload (a key the spec does not declare refuses the whole transition)', async () => {
    const t = await openTicket();
    const extra = await expectDbError(() =>
      db.asUser(agent, (q) =>
        solve(q, t, {
          resolution: 'Restarted the mail server',
          calls: { notifyRequester: { bcc: 'x@example.com' } },
        }),
      ),
    );
    expect(extra.message).toBe('INVALID_INPUT');
    expect(JSON.parse(extra.detail ?? '{}')).toMatchObject({
      issues: [{ path: 'bcc', problem: 'unexpected' }],
    });
    const notObject = await expectDbError(() =>
      db.asUser(agent, (q) =>
        solve(q, t, { resolution: 'Restarted the mail server', calls: { notifyRequester: 'x' } }),
      ),
    );
    expect(notObject.message).toBe('INVALID_INPUT');
    const status = await db.query<{ status: string }>('select status from public.ticket where id = $1', [t]);
    expect(status.rows[0]?.status).toBe('open');
    expect(await rows()).toEqual([]);
  });

  it('finding 11: a client cannot write, change or deliver outbox rows, nor ask for a transition’s call', async () => {
    const t = await openTicket();
    await db.asUser(agent, (q) =>
      solve(q, t, { resolution: 'Restarted the mail server', calls: { notifyRequester: mail } }),
    );
    const [row] = await rows();
    const id = row?.id as string;
    for (const user of [customer, agent, admin]) {
      for (const sql of [
        `insert into app.outbox (call, payload) values ('notifyRequester', '{}'::jsonb)`,
        `update app.outbox set status = 'delivered' where id = '${id}'`,
        `delete from app.outbox where id = '${id}'`,
        'select * from public.outbox_claim()',
        `select public.outbox_delivered('${id}')`,
        `select public.outbox_failed('${id}', 'x')`,
        `select app.outbox_write('notifyRequester', '{}'::jsonb, '{}'::jsonb, 'ticket', '${t}', 'solve')`,
      ]) {
        const e = await expectDbError(() => db.asUser(user, (q) => q.query(sql)));
        expect(e.code, `${sql} as ${user}`).toBe('42501');
      }
      // Asking for the call directly, for a ticket that was never solved: refused for everyone.
      const e = await expectDbError(() =>
        db.asUser(user, (q) =>
          q.query('select public.record_call($1, $2::jsonb)', [
            'notifyRequester',
            JSON.stringify({ ...mail, ticketId: t }),
          ]),
        ),
      );
      expect(e.message).toBe('FORBIDDEN');
    }
    expect(await rows()).toMatchObject([{ id, status: 'pending', attempts: 0 }]);
    // Failures are for admins to see; nobody else reads the outbox.
    const seen = async (user: string) =>
      (await db.asUser(user, (q) => q.query('select id from app.outbox'))).rows.length;
    expect(await seen(admin)).toBe(1);
    expect(await seen(agent)).toBe(0);
    expect(await seen(customer)).toBe(0);
  });

  it('finding 11: the deliverer retries with exponential backoff and the same idempotency key, then never sends again', async () => {
    const server = await endpoint((n) => (n <= 2 ? { status: 503, body: 'busy' } : OK));
    try {
      const t = await openTicket();
      await db.asUser(agent, (q) =>
        solve(q, t, { resolution: 'Restarted the mail server', calls: { notifyRequester: mail } }),
      );
      const retry = { maxAttempts: 5, baseSeconds: 0.4 };
      const round = () =>
        deliverDue({ store: storeOf(db), destination: () => ({ url: server.url }), fetch, retry });
      const due = async () =>
        (
          await db.query<{ wait: number }>(
            'select extract(epoch from next_attempt_at - now())::float8 as wait from app.outbox',
          )
        ).rows[0]?.wait ?? Number.NaN;

      expect(await round()).toEqual<DeliveryReport>({ delivered: 0, retried: 1, failed: 0 });
      const wait1 = await due();
      expect(wait1).toBeGreaterThan(0.25);
      expect(wait1).toBeLessThanOrEqual(0.4);
      // Not due yet: nothing is sent before the backoff has passed.
      expect(await round()).toEqual({ delivered: 0, retried: 0, failed: 0 });
      expect(server.requests).toHaveLength(1);
      await sleep(450);
      expect(await round()).toEqual({ delivered: 0, retried: 1, failed: 0 });
      const wait2 = await due();
      expect(wait2).toBeGreaterThan(0.65); // 2 × base after the second failure
      expect(wait2).toBeLessThanOrEqual(0.8);
      await sleep(850);
      expect(await round()).toEqual({ delivered: 1, retried: 0, failed: 0 });

      const [row] = await rows();
      expect(row).toMatchObject({ status: 'delivered', attempts: 3, last_error: null });
      expect(row?.delivered_at).not.toBeNull();
      expect(server.requests).toHaveLength(3);
      for (const r of server.requests) {
        expect(r.headers['idempotency-key']).toBe(row?.idempotency_key);
        expect(r.url).toBe('/functions/v1/notify-email');
        expect(JSON.parse(r.body)).toEqual(mailFor(t));
      }
      // Delivered: another round sends nothing.
      await sleep(50);
      expect(await round()).toEqual({ delivered: 0, retried: 0, failed: 0 });
      expect(server.requests).toHaveLength(3);
    } finally {
      await server.close();
    }
  });

  it('finding 11: a failing endpoint is marked failed after the last attempt, its error visible to admins', async () => {
    const server = await endpoint(() => ({ status: 500, body: 'mail relay down' }));
    try {
      const t = await openTicket();
      await db.asUser(agent, (q) =>
        solve(q, t, { resolution: 'Restarted the mail server', calls: { notifyRequester: mail } }),
      );
      const round = () =>
        deliverDue({
          store: storeOf(db),
          destination: () => ({ url: server.url }),
          fetch,
          retry: { maxAttempts: 2, baseSeconds: 0.05 },
        });
      expect(await round()).toEqual({ delivered: 0, retried: 1, failed: 0 });
      await sleep(80);
      expect(await round()).toEqual({ delivered: 0, retried: 0, failed: 1 });
      await sleep(150);
      expect(await round()).toEqual({ delivered: 0, retried: 0, failed: 0 });
      expect(server.requests).toHaveLength(2);
      const seen = await db.asUser(admin, (q) =>
        q.query<{ status: string; attempts: number; last_error: string }>(
          'select status, attempts, last_error from app.outbox',
        ),
      );
      expect(seen.rows).toEqual([{ status: 'failed', attempts: 2, last_error: 'HTTP 500: mail relay down' }]);
    } finally {
      await server.close();
    }
  });

  it('finding 11: solving a ticket without any call input queues the complete e-mail, and a deliverer delivers it', async () => {
    const server = await endpoint(() => OK);
    try {
      const t = await openTicket();
      // Refused (a customer may not solve): nothing is queued.
      await expectDbError(() =>
        db.asUser(customer, (q) => solve(q, t, { resolution: 'Restarted the mail server' })),
      );
      expect(await rows()).toEqual([]);
      // What the UI sends: the transition's input only.
      await db.asUser(agent, (q) => solve(q, t, { resolution: 'Restarted the mail server' }));
      expect(await rows()).toMatchObject([{ status: 'pending', payload: mailFor(t) }]);
      const report = await deliverDue({
        store: storeOf(db),
        destination: () => ({ url: server.url }),
        fetch,
      });
      expect(report).toEqual({ delivered: 1, retried: 0, failed: 0 });
      const [row] = await rows();
      expect(row).toMatchObject({ status: 'delivered', attempts: 1, last_error: null });
      expect(server.requests).toHaveLength(1);
      const [req] = server.requests;
      expect(req?.url).toBe('/functions/v1/notify-email');
      expect(req?.headers['idempotency-key']).toBe(row?.idempotency_key);
      expect(JSON.parse(req?.body ?? '')).toEqual(mailFor(t));
    } finally {
      await server.close();
    }
  });

  it('finding 11: the ninefold-outbox Edge Function delivers as service_role, and only when its secret is given', async () => {
    // Supabase's `service_role` (the test databases have none; on Supabase it may use `public`): the
    // outbox SQL grants it the deliverer's functions when it exists.
    await db.exec(
      "do $do$ begin if not exists (select 1 from pg_catalog.pg_roles where rolname = 'service_role') then create role service_role nologin noinherit; end if; end $do$; grant usage on schema public to service_role;",
    );
    await db.exec(emitOutbox(resolve(helpdesk)));
    const SERVICE_KEY = 'service-role-key-for-tests';
    const mailed: { path: string; key: string | undefined; auth: string | undefined }[] = [];
    // The project's HTTP front on 127.0.0.1: PostgREST's RPC grammar (named arguments, a scalar
    // result as a bare JSON value) run on the test database as service_role, and the mail function.
    const project = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', async () => {
        const url = req.url ?? '';
        const rpc = /^\/rest\/v1\/rpc\/(outbox_claim|outbox_delivered|outbox_failed)$/.exec(url);
        if (rpc && req.headers.authorization === `Bearer ${SERVICE_KEY}`) {
          const args = JSON.parse(body) as Record<string, unknown>;
          const names = Object.keys(args);
          try {
            const rows = await db.asOwner(async (q) => {
              await q.query('set local role service_role');
              const r = await q.query<Record<string, unknown>>(
                `select * from public.${rpc[1]}(${names.map((n, i) => `${n} => $${i + 1}`).join(', ')})`,
                names.map((n) => (n === 'p_response' ? JSON.stringify(args[n]) : args[n])),
              );
              return r.rows;
            });
            res.writeHead(200, { 'Content-Type': 'application/json' });
            res.end(JSON.stringify(rpc[1] === 'outbox_claim' ? rows : Object.values(rows[0] ?? {})[0]));
          } catch (e) {
            res.writeHead(400, { 'Content-Type': 'application/json' });
            res.end(JSON.stringify({ message: String(e) }));
          }
          return;
        }
        if (url.startsWith('/functions/v1/notify-email')) {
          mailed.push({
            path: url,
            key: req.headers['idempotency-key'] as string | undefined,
            auth: req.headers.authorization,
          });
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(OK.body);
          return;
        }
        // PostgREST's answer for a function the schema lacks (this spec's migration has no file queue).
        if (url.startsWith('/rest/v1/rpc/')) {
          res.writeHead(404, { 'Content-Type': 'application/json' });
          res.end('{"code":"PGRST202"}');
          return;
        }
        res.writeHead(401);
        res.end('{}');
      });
    });
    await new Promise<void>((r) => project.listen(0, '127.0.0.1', r));
    const env: Record<string, string> = {
      SUPABASE_URL: `http://127.0.0.1:${(project.address() as AddressInfo).port}`,
      SUPABASE_SERVICE_ROLE_KEY: SERVICE_KEY,
      OUTBOX_TRIGGER_SECRET: 'trigger-secret',
    };
    const g = globalThis as unknown as {
      Deno?: unknown;
      __outboxHandler?: (r: Request) => Promise<Response>;
    };
    g.Deno = {
      env: { get: (n: string) => env[n] },
      serve: (h: (r: Request) => Promise<Response>) => {
        g.__outboxHandler = h;
      },
    };
    try {
      await import('../../src/outbox/index.ts');
      const handler = g.__outboxHandler as (r: Request) => Promise<Response>;
      const t = await openTicket();
      await db.asUser(agent, (q) =>
        solve(q, t, { resolution: 'Restarted the mail server', calls: { notifyRequester: mail } }),
      );
      const run = (auth?: string) =>
        handler(new Request('http://edge/ninefold-outbox', auth ? { headers: { Authorization: auth } } : {}));
      expect((await run()).status).toBe(403);
      expect((await run('Bearer guessed')).status).toBe(403);
      expect(mailed).toHaveLength(0);
      const ok = await run('Bearer trigger-secret');
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ delivered: 1, retried: 0, failed: 0, files: null });
      const [row] = await rows();
      expect(row).toMatchObject({ status: 'delivered', attempts: 1 });
      expect(mailed).toEqual([
        {
          path: '/functions/v1/notify-email/functions/v1/notify-email',
          key: row?.idempotency_key,
          auth: `Bearer ${SERVICE_KEY}`,
        },
      ]);
      expect(await (await run('Bearer trigger-secret')).json()).toEqual({
        delivered: 0,
        retried: 0,
        failed: 0,
        files: null,
      });
    } finally {
      await new Promise((r) => project.close(r));
    }
  });

  it('finding 11: an outbox made before delivery state (old embedded databases) gains it in place', async () => {
    await db.exec(`
      drop table app.outbox;
      create table app.outbox (
        id uuid primary key default gen_random_uuid(),
        call text not null,
        payload jsonb not null,
        requested_by uuid references auth.users (id) on delete set null,
        created_at timestamptz not null default now()
      );
      insert into app.outbox (call, payload) values ('notifyRequester', '{"ticketId": "00000000-0000-4000-8000-000000000011"}');
    `);
    try {
      await db.exec(emitOutbox(resolve(helpdesk)));
      const [old] = await rows();
      expect(old).toMatchObject({ status: 'pending', attempts: 0, last_error: null });
      expect(old?.idempotency_key).toBe(`ninefold-outbox-${old?.id}`);
      // Its payload lacks the e-mail: failed with why, never sent.
      const sent = await deliverDue({ store: storeOf(db), destination: () => null, fetch });
      expect(sent).toEqual({ delivered: 0, retried: 0, failed: 0 });
      expect((await rows())[0]).toMatchObject({ status: 'failed' });
      // Clients still cannot write it.
      const e = await expectDbError(() =>
        db.asUser(admin, (q) =>
          q.query(`insert into app.outbox (call, payload) values ('notifyRequester', '{}')`),
        ),
      );
      expect(e.code).toBe('42501');
    } finally {
      await db.exec(emitOutbox(resolve(helpdesk)));
    }
  });

  // PGlite has one connection: nothing can race there.
  it.skipIf(backend.name === 'pglite')(
    'finding 11: two deliverers racing never send a call twice',
    async () => {
      const server = await endpoint(() => OK);
      const clients = Array.from({ length: 4 }, () =>
        quietOnTermination(new pg.Client({ connectionString: db.connectionString }), 'deliverer'),
      );
      try {
        await Promise.all(clients.map((c) => c.connect()));
        const n = 24;
        for (let i = 0; i < n; i++) {
          const t = await openTicket();
          await db.asUser(agent, (q) =>
            solve(q, t, { resolution: 'Restarted the mail server', calls: { notifyRequester: mail } }),
          );
        }
        const deliverer = async (c: pg.Client) => {
          const store = sqlOutboxStore(async <T>(sql: string, params: unknown[]) => {
            const r = await c.query(sql, params);
            return r.rows as T[];
          });
          let sent = 0;
          for (;;) {
            const r = await deliverDue({ store, destination: () => ({ url: server.url }), fetch, limit: 3 });
            sent += r.delivered;
            if (r.delivered + r.retried + r.failed === 0) return sent;
          }
        };
        const sent = await Promise.all(clients.map(deliverer));
        expect(sent.reduce((a, b) => a + b, 0)).toBe(n);
        const keys = server.requests.map((r) => r.headers['idempotency-key']);
        expect(keys).toHaveLength(n);
        expect(new Set(keys).size).toBe(n);
        expect((await rows()).every((r) => r.status === 'delivered' && r.attempts === 1)).toBe(true);
        // More than one deliverer did work: the race was real.
        expect(sent.filter((s) => s > 0).length).toBeGreaterThan(1);
      } finally {
        await Promise.all(clients.map((c) => c.end().catch(() => {})));
        await server.close();
      }
    },
  );
});

const expenses = APPS.find((a) => a.name === 'expenses')?.spec as AppSpec;

describe.each(backends)('finding 11: paying a claim exports it through the outbox, on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => {});
    return;
  }
  let db: TestDb;
  let emp: string;
  let boss: string;
  let payer: string;
  beforeAll(async () => {
    db = await backend.open(expenses);
    emp = await createUser(db, 'x.claimant@example.com', { meta: { name: 'Claimant' } });
    boss = await createUser(db, 'x.boss@example.com', { roles: ['manager'], meta: { name: 'Boss' } });
    payer = await createUser(db, 'x.payer@example.com', { roles: ['finance'], meta: { name: 'Payer' } });
    // Set by an administrator, never at sign-up (finding 4).
    await db.query('update public.person set cost_centre = $2, manager = $3 where id = $1', [
      emp,
      'CC-1040',
      boss,
    ]);
  }, 120_000);
  afterAll(async () => {
    if (db) await backend.release(db);
  });

  const today = new Date().toISOString().slice(0, 10);
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

  /** An approved EUR claim with two lines (and a receipt each), as the claimant and manager left it. */
  async function approvedClaim(): Promise<string> {
    const c = await db.query<{ id: string }>(
      `insert into public.claim (title, submitter) values ('Customer visit Lyon', $1) returning id`,
      [emp],
    );
    const id = c.rows[0]?.id as string;
    for (const [date, category, description, amount] of [
      [yesterday, 'travel', 'Train Paris–Lyon', 89.5],
      [today, 'meals', 'Dinner with the customer', 42.25],
    ] as const) {
      const l = await db.query<{ id: string }>(
        `insert into public.line (claim, submitter, date, category, description, amount) values ($1, $2, $3, $4, $5, $6) returning id`,
        [id, emp, date, category, description, amount],
      );
      await db.query(
        `insert into public.receipt (claim, line, uploaded_by, name, size_bytes, content) values ($1, $2, $3, 'r.txt', 1, '\\x41')`,
        [id, l.rows[0]?.id, emp],
      );
    }
    await db.query(
      `update public.claim set status = 'approved', approved_by = $2, approved_at = now(), total = 131.75 where id = $1`,
      [id, boss],
    );
    return id;
  }

  const pay = (who: string, id: string, reference = 'PAY-77') =>
    db.asUser(who, (q) =>
      q.query('select public.claim_pay($1, null, $2::jsonb)', [
        id,
        JSON.stringify({ paymentReference: reference }),
      ]),
    );
  const outbox = async () =>
    (
      await db.query<{
        call: string;
        payload: Record<string, unknown>;
        status: string;
        idempotency_key: string;
      }>('select call, payload, status, idempotency_key from app.outbox order by created_at, id')
    ).rows;

  it('finding 11: paying a claim queues the complete journal entry (claim, claimant, every line), and a deliverer delivers it', async () => {
    const server = await endpoint(() => ({
      status: 201,
      body: '{"entryId":"JE-1","postedAt":"2026-03-10T10:00:00Z"}',
    }));
    try {
      await db.query('delete from app.outbox');
      const id = await approvedClaim();
      // Refused transitions queue nothing: the claimant may not pay, and a hostile client's own
      // payload for the call changes nothing the specification fills.
      await expectDbError(() => pay(emp, id));
      expect(await outbox()).toEqual([]);
      await db.asUser(payer, (q) =>
        q.query('select public.claim_pay($1, null, $2::jsonb)', [
          id,
          JSON.stringify({
            paymentReference: 'PAY-77',
            calls: {
              exportJournalEntry: { employeeEmail: 'attacker@example.com', total: 1_000_000, lines: [] },
            },
          }),
        ]),
      );
      // Paid already: a second payment is refused and queues nothing more.
      await expectDbError(() => pay(payer, id, 'PAY-78'));
      const queued = await outbox();
      expect(queued).toHaveLength(1);
      const expected = {
        claimId: id,
        reference: 'PAY-77',
        employeeEmail: 'x.claimant@example.com',
        costCentre: 'CC-1040',
        currency: 'EUR',
        total: 131.75,
        lines: [
          { date: yesterday, category: 'travel', description: 'Train Paris–Lyon', amount: 89.5 },
          { date: today, category: 'meals', description: 'Dinner with the customer', amount: 42.25 },
        ],
      };
      expect(queued[0]).toMatchObject({ call: 'exportJournalEntry', status: 'pending', payload: expected });
      const paidAt = Date.parse(String(queued[0]?.payload.paidAt));
      expect(Math.abs(paidAt - Date.now())).toBeLessThan(120_000);

      const report = await deliverDue({
        store: storeOf(db),
        destination: () => ({ url: server.url }),
        fetch,
      });
      expect(report).toEqual({ delivered: 1, retried: 0, failed: 0 });
      expect(server.requests).toHaveLength(1);
      const [req] = server.requests;
      expect(req?.url).toBe('/v1/journal-entries');
      expect(req?.headers['idempotency-key']).toBe(queued[0]?.idempotency_key);
      expect(JSON.parse(req?.body ?? '')).toEqual({ ...expected, paidAt: queued[0]?.payload.paidAt });
      expect((await outbox())[0]?.status).toBe('delivered');
    } finally {
      await server.close();
    }
  });
});
