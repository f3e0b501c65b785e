/**
 * Finding 28.6 of the attack review (issue 28): header injection through the outbox. Payload
 * values that are single-line by nature (a subject, an address, a name: the rule is in
 * src/outbox/singleLine.ts) are filled single-line by the
 * database, whatever the row holds; the deliverer (the Edge Function's and the embedded
 * backend's, one code: deliver.ts) never sends a control character in a header or in such a
 * value. On PGlite and on the PostgreSQL server, delivering to a real HTTP server on 127.0.0.1.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliverDue, type OutboxStore, sqlOutboxStore } from '../../src/outbox/deliver.ts';
import { payloadFills } from '../../src/spec/callFills.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import type { Queryable, TestDb } from '../../src/sql/testing/testDb.ts';
import { createUser } from '../../src/sql/testing/users.ts';
import { enforcementBackends } from './support/backends.ts';
import { APPS } from './support/model.ts';

const backends = await enforcementBackends('outboxHeaders.test');
afterAll(async () => {
  for (const b of backends) await b.closeAll();
});

const helpdesk = APPS.find((a) => a.name === 'helpdesk')?.spec as AppSpec;
/** The helpdesk whose solve e-mail's subject also carries the (long, multi-line) description. */
const longSubject = structuredClone(helpdesk) as AppSpec;
const notify = longSubject.calls.declared.notifyRequester;
if (notify?.fill) notify.fill.subject = 'Solved: {title} ({description})';

/** Line breaks and controls a mail header must never carry (U+2028/9 and NEL end lines too). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const BREAKS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

async function endpoint(): Promise<{ url: string; bodies: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"id":"mail-1","queued":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, bodies, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const T = '00000000-0000-4000-8000-000000000028';

function storeOf(q: Queryable): OutboxStore {
  return sqlOutboxStore(async <T>(sql: string, params: unknown[]) => (await q.query<T>(sql, params)).rows);
}

describe('finding 28.6: single-line payload values', () => {
  it('finding 28.6: subjects, addresses and names are single-line payload keys; bodies are not', () => {
    const single = (s: AppSpec) =>
      Object.fromEntries(payloadFills(s, 'ticket', 'notifyRequester').map((f) => [f.key, f.singleLine]));
    expect(single(helpdesk)).toEqual({ ticketId: true, to: true, subject: true, body: false });
  });
});

describe.each(backends)('finding 28.6: header injection through the outbox, on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => {});
    return;
  }
  for (const [label, spec] of [
    ['the reference helpdesk', helpdesk],
    ['a subject that also carries a multi-line description', longSubject],
  ] as const) {
    describe(label, () => {
      let db: TestDb;
      let customer: string;
      let agent: string;
      beforeAll(async () => {
        db = await backend.open(spec);
        customer = await createUser(db, 'h.customer@example.com', { meta: { name: 'Customer' } });
        agent = await createUser(db, 'h.agent@example.com', { roles: ['agent'], meta: { name: 'Agent' } });
      }, 120_000);
      afterAll(async () => {
        if (db) await backend.release(db);
      });
      beforeEach(async () => {
        await db.query('delete from app.outbox');
      });

      it('finding 28.6: a title "Hi\\r\\nBcc: x@y" reaches the solve e-mail’s subject on one line', async () => {
        const title = 'Hi\r\nBcc: x@y\u2028Cc: z@y';
        const description = 'Nothing arrives.\r\nBcc: also@evil.example\nSince this morning.';
        let id: string;
        try {
          id = (
            await db.query<{ id: string }>(
              'insert into public.ticket (title, description, requester) values ($1, $2, $3) returning id',
              [title, description, customer],
            )
          ).rows[0]?.id as string;
        } catch (e) {
          // Refused at the door (a title may carry no control character): just as safe.
          expect((e as { code?: string }).code).toMatch(/^(23514|P0001)$/);
          return;
        }
        await db.query(`update public.ticket set status = 'open' where id = $1`, [id]);
        await db.asUser(agent, (q) =>
          q.query('select public.ticket_solve($1, null, $2::jsonb)', [
            id,
            JSON.stringify({ resolution: 'Restarted the mail server.\nAll good.' }),
          ]),
        );
        const row = (await db.query<{ payload: Record<string, string> }>('select payload from app.outbox'))
          .rows[0];
        const p = row?.payload ?? {};
        expect(p.subject).toMatch(/^Solved: Hi {2}Bcc: x@y Cc: z@y/);
        expect(p.subject).not.toMatch(BREAKS);
        expect(p.to).toBe('h.customer@example.com');
        // The body is multi-line by nature and keeps its lines.
        expect(p.body).toContain('\n\nRestarted the mail server.\nAll good.');
        if (spec === longSubject)
          expect(p.subject).toBe(
            'Solved: Hi  Bcc: x@y Cc: z@y (Nothing arrives.  Bcc: also@evil.example Since this morning.)',
          );
      });

      it('finding 28.6: the deliverer refuses a control character in a header or a single-line value, for good', async () => {
        const server = await endpoint();
        try {
          await db.query(
            `insert into app.outbox (call, payload) values
               ('notifyRequester', $1::jsonb), ('notifyRequester', $2::jsonb), ('notifyRequester', $3::jsonb)`,
            [
              JSON.stringify({ ticketId: T, to: 'a@example.com', subject: 'Hi\r\nBcc: x@y', body: 'ok' }),
              JSON.stringify({ ticketId: T, to: 'a@example.com\nBcc: x@y', subject: 'Hi', body: 'ok' }),
              JSON.stringify({ ticketId: T, to: 'a@example.com', subject: 'Hi', body: 'line one\nline two' }),
            ],
          );
          const report = await deliverDue({
            store: storeOf(db),
            destination: () => ({ url: server.url }),
            fetch,
          });
          // Only the clean call (a multi-line body is fine) went out; the others failed at once: the
          // subject here, the address already in the database (its shape is an e-mail address).
          expect(report).toEqual({ delivered: 1, retried: 0, failed: 1 });
          expect(server.bodies.map((b) => JSON.parse(b).body)).toEqual(['line one\nline two']);
          const failed = (
            await db.query<{ status: string; last_error: string; attempts: number }>(
              `select status, last_error, attempts from app.outbox where status <> 'delivered' order by last_error`,
            )
          ).rows;
          expect(failed.map((f) => [f.status, f.attempts])).toEqual([
            ['failed', 0],
            ['failed', 1],
          ]);
          expect(failed.map((f) => f.last_error)).toEqual([
            expect.stringMatching(/^payload does not fit the call: .*"path": "to"/),
            'refused: a control character or line break in the single-line payload value subject',
          ]);
          // A header of the destination (a key from the environment, say) is checked the same way.
          await db.query('delete from app.outbox');
          await db.query(
            `insert into app.outbox (call, payload) values ('notifyRequester', '{"ticketId":"${T}","to":"a@example.com","subject":"Hi","body":"ok"}')`,
          );
          const bad = await deliverDue({
            store: storeOf(db),
            destination: () => ({ url: server.url, headers: { Authorization: 'Bearer k\r\nX-Evil: 1' } }),
            fetch,
          });
          expect(bad).toEqual({ delivered: 0, retried: 0, failed: 1 });
          expect(server.bodies).toHaveLength(1);
        } finally {
          await server.close();
        }
      });
    });
  }
});
