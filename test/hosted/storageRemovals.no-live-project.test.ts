/**
 * Finding 9 on Supabase (issue 11): the Storage objects of deleted file rows, queued by the
 * migration in `app.file_removals`, are removed by the `ninefold-outbox` Edge Function through the
 * Storage API, with the outbox's secret and retry scheme. No live Supabase project can run here:
 * the supabase-target migration runs on the PostgreSQL server with Supabase's `auth`/`storage`
 * stand-ins, PostgREST's RPC grammar is played by a `node:http` front that runs each call as
 * `service_role`, and a `node:http` server stands in for the Storage API (it deletes the object
 * from `storage.objects`, as Storage does).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type FileRemovalStore,
  removeQueuedFiles,
  sqlFileRemovalStore,
} from '../../src/outbox/removeFiles.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import { createServerDb, serverAvailable } from '../../src/sql/testing/pgDb.ts';
import { expectDbError, type TestDb } from '../../src/sql/testing/testDb.ts';
import { createUser } from '../../src/sql/testing/users.ts';
import { APPS } from '../enforcement/support/model.ts';
import { applyHosted } from './hostedDb.ts';

const hasServer = await serverAvailable();
if (!hasServer && process.env.CI === 'true')
  throw new Error(
    'storageRemovals.no-live-project.test: CI=true but no Postgres server answers at DATABASE_URL',
  );

const helpdesk = APPS.find((a) => a.name === 'helpdesk')?.spec as AppSpec;
const SERVICE_KEY = 'service-role-key-for-tests';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface StorageRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: { prefixes?: string[] };
}

describe.skipIf(!hasServer)(
  'finding 9: queued Storage objects are removed by ninefold-outbox (no live project)',
  () => {
    let db: TestDb;
    let alice: string;
    let ticket: string;
    let front: Server;
    let base = '';
    const storageRequests: StorageRequest[] = [];
    /** What the Storage stand-in answers to the n-th request (from 1). */
    let storageReply: (n: number) => number = () => 200;

    beforeAll(async () => {
      db = await createServerDb();
      await applyHosted(db, helpdesk);
      alice = await createUser(db, 'alice@example.com', { meta: { name: 'Alice' } });
      const t = await db.query<{ id: string }>(
        `insert into public.ticket (title, description, requester) values ('Printer on fire', 'It is on fire, please help.', $1) returning id`,
        [alice],
      );
      ticket = t.rows[0]?.id as string;
      // One front for the project: PostgREST's RPC (named arguments; a set as an array, a scalar bare)
      // run as service_role, and the Storage API's bulk delete.
      front = createServer((req, res) => {
        let text = '';
        req.on('data', (c) => {
          text += c;
        });
        req.on('end', async () => {
          const url = req.url ?? '';
          const json = (status: number, body: unknown) => {
            res.writeHead(status, { 'Content-Type': 'application/json' });
            res.end(JSON.stringify(body));
          };
          if (req.headers.authorization !== `Bearer ${SERVICE_KEY}`) return json(401, { message: 'no key' });
          const rpc = /^\/rest\/v1\/rpc\/([a-z_]+)$/.exec(url);
          if (rpc) {
            const args = JSON.parse(text) as Record<string, unknown>;
            const names = Object.keys(args);
            try {
              const rows = await db.asOwner(async (q) => {
                await q.query('set local role service_role');
                const exists = await q.query(
                  `select 1 from pg_proc where pronamespace = 'public'::regnamespace and proname = $1`,
                  [rpc[1]],
                );
                if (exists.rows.length === 0) return null;
                return (
                  await q.query<Record<string, unknown>>(
                    `select * from public.${rpc[1]}(${names.map((n, i) => `${n} => $${i + 1}`).join(', ')})`,
                    names.map((n) => (n === 'p_response' ? JSON.stringify(args[n]) : args[n])),
                  )
                ).rows;
              });
              if (rows === null) return json(404, { code: 'PGRST202' });
              const set = rpc[1] === 'outbox_claim' || rpc[1] === 'ninefold_file_removals';
              return json(200, set ? rows : Object.values(rows[0] ?? {})[0]);
            } catch (e) {
              return json(400, { message: String(e) });
            }
          }
          const del = /^\/storage\/v1\/object\/([^/?]+)$/.exec(url);
          if (del && req.method === 'DELETE') {
            const body = JSON.parse(text) as { prefixes?: string[] };
            storageRequests.push({ method: req.method, url, headers: req.headers, body });
            const status = storageReply(storageRequests.length);
            if (status !== 200) return json(status, { message: 'storage is busy' });
            const gone = await db.query<{ name: string }>(
              'delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning name',
              [decodeURIComponent(del[1] as string), body.prefixes ?? []],
            );
            return json(200, gone.rows);
          }
          return json(404, { message: 'not found' });
        });
      });
      await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
      base = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
    }, 120_000);

    afterAll(async () => {
      await new Promise((r) => front?.close(r));
      await db?.close();
    });

    beforeEach(async () => {
      storageRequests.length = 0;
      storageReply = () => 200;
      await db.query('delete from app.file_removals');
    });

    /** An attachment with its object uploaded, then its row deleted: the object is queued. */
    async function queuedObject(): Promise<string> {
      // The server picks the id and the object's path.
      const made = await db.asUser(alice, (q) =>
        q.query<{ id: string; storage_path: string }>(
          `insert into public.attachment (ticket, name, size_bytes, mime_type) values ($1, 'a.txt', 4, 'text/plain') returning id, storage_path`,
          [ticket],
        ),
      );
      const { id, storage_path: path } = made.rows[0] as { id: string; storage_path: string };
      await db.asUser(alice, (q) =>
        q.query(
          `insert into storage.objects (bucket_id, name, owner) values ('attachment', $1, auth.uid())`,
          [path],
        ),
      );
      await db.query('delete from public.attachment where id = $1', [id]);
      return path;
    }

    const objects = async (paths: string[]) =>
      (
        await db.query<{ name: string }>(
          `select name from storage.objects where bucket_id = 'attachment' and name = any($1::text[])`,
          [paths],
        )
      ).rows.map((r) => r.name);
    const queue = async () =>
      (
        await db.query<{
          path: string;
          status: string;
          attempts: number;
          last_error: string | null;
          wait: number;
        }>(
          `select path, status, attempts, last_error, extract(epoch from next_attempt_at - now())::float8 as wait from app.file_removals order by path`,
        )
      ).rows;

    it('finding 9: the ninefold-outbox Edge Function removes queued objects through the Storage API, only with its secret', async () => {
      const paths = [await queuedObject(), await queuedObject()].sort();
      expect((await queue()).map((r) => r.path)).toEqual(paths);
      const env: Record<string, string> = {
        SUPABASE_URL: base,
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
      await import('../../src/outbox/index.ts');
      const handler = g.__outboxHandler as (r: Request) => Promise<Response>;
      const run = (auth?: string) =>
        handler(new Request('http://edge/ninefold-outbox', auth ? { headers: { Authorization: auth } } : {}));

      expect((await run()).status).toBe(403);
      expect((await run('Bearer guessed')).status).toBe(403);
      expect(storageRequests).toHaveLength(0);
      const ok = await run('Bearer trigger-secret');
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({
        delivered: 0,
        retried: 0,
        failed: 0,
        files: { removed: 2, retried: 0, failed: 0 },
      });
      expect(storageRequests.map((r) => [r.method, r.url, r.body.prefixes?.[0]]).sort()).toEqual(
        paths.map((p) => ['DELETE', '/storage/v1/object/attachment', p]),
      );
      for (const r of storageRequests) {
        expect(r.headers.authorization).toBe(`Bearer ${SERVICE_KEY}`);
        expect(r.headers.apikey).toBe(SERVICE_KEY);
      }
      expect(await objects(paths)).toEqual([]);
      expect(await queue()).toEqual([]);
      // Nothing left: the next run removes nothing.
      expect(await (await run('Bearer trigger-secret')).json()).toMatchObject({
        files: { removed: 0, retried: 0, failed: 0 },
      });
      expect(storageRequests).toHaveLength(2);
    });

    it('finding 9: a failing Storage API is retried with the outbox’s backoff, then failed for good with its error', async () => {
      const path = await queuedObject();
      storageReply = () => 503;
      const store: FileRemovalStore = sqlFileRemovalStore(async <T>(sql: string, params: unknown[]) =>
        db.asOwner(async (q) => {
          await q.query('set local role service_role');
          return (await q.query<T>(sql, params)).rows;
        }),
      );
      const round = () =>
        removeQueuedFiles({
          store,
          storage: { url: `${base}/storage/v1`, serviceKey: SERVICE_KEY },
          fetch,
          retry: { maxAttempts: 2, baseSeconds: 0.4 },
        });
      expect(await round()).toEqual({ removed: 0, retried: 1, failed: 0 });
      const [first] = await queue();
      expect(first).toMatchObject({
        path,
        status: 'pending',
        attempts: 1,
        last_error: 'HTTP 503: {"message":"storage is busy"}',
      });
      expect(first?.wait).toBeGreaterThan(0.25);
      expect(first?.wait).toBeLessThanOrEqual(0.4);
      // Not due yet: nothing is sent before the backoff has passed.
      expect(await round()).toEqual({ removed: 0, retried: 0, failed: 0 });
      expect(storageRequests).toHaveLength(1);
      await sleep(450);
      expect(await round()).toEqual({ removed: 0, retried: 0, failed: 1 });
      expect(await queue()).toMatchObject([{ path, status: 'failed', attempts: 2 }]);
      await sleep(900);
      expect(await round()).toEqual({ removed: 0, retried: 0, failed: 0 });
      expect(storageRequests).toHaveLength(2);
      // The object is still there, its failure visible to the owner; clients see neither.
      expect(await objects([path])).toEqual([path]);
      const look = await expectDbError(() =>
        db.asUser(alice, (q) => q.query('select * from app.file_removals')),
      );
      expect(look.code).toBe('42501');
    });

    it('finding 9: a taken entry is leased: a second deliverer does not take it while the first holds it', async () => {
      const path = await queuedObject();
      const take = () =>
        db.asOwner(async (q) => {
          await q.query('set local role service_role');
          return (await q.query<{ path: string }>('select path from public.ninefold_file_removals(10, 60)'))
            .rows;
        });
      expect(await take()).toEqual([{ path }]);
      expect(await take()).toEqual([]);
      // Clients can neither take nor report.
      for (const sql of [
        'select * from public.ninefold_file_removals()',
        `select public.ninefold_file_removed('attachment', '${path}')`,
        `select public.ninefold_file_removal_failed('attachment', '${path}')`,
      ]) {
        const e = await expectDbError(() => db.asUser(alice, (q) => q.query(sql)));
        expect(e.code, sql).toBe('42501');
      }
    });
  },
);
