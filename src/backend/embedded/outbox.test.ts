import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/spec.ts';
import { BackendError } from '../types.ts';
import { createEmbeddedBackend, type EmbeddedBackend } from './createEmbeddedBackend.ts';
import { demoAccounts } from './demo/demoAccounts.ts';
import { seedDemoAccounts } from './demo/seedDemoAccounts.ts';

// A real mail service on 127.0.0.1: fails the first request, accepts the rest.
const seen: { headers: IncomingHttpHeaders; body: string }[] = [];
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => {
    body += c;
  });
  req.on('end', () => {
    seen.push({ headers: req.headers, body });
    res.writeHead(seen.length === 1 ? 502 : 200, { 'Content-Type': 'application/json' });
    res.end(seen.length === 1 ? 'bad gateway' : '{"id":"m-1","queued":true}');
  });
});

let backend: EmbeddedBackend;
const account = (role: string) => demoAccounts(helpdesk).find((a) => a.role === role)!;

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  backend = await createEmbeddedBackend({
    spec: helpdesk,
    outbox: { destinations: { 'notify-email': url }, retry: { maxAttempts: 3, baseSeconds: 0.05 } },
  });
  await backend.asOwner((tx) => seedDemoAccounts(tx, helpdesk));
  // A fresh database (initdb and the migration): past a minute on a loaded 2-core machine (it
  // timed out once at 60 s in a run of the whole suite beside browser suites).
}, 180_000);
afterAll(async () => {
  await backend?.close();
  await new Promise((r) => server.close(r));
});

describe('finding 11: the embedded backend delivers the calls transitions queue', () => {
  it('queues notifyRequester when the ticket is solved, and delivers it with retries and its idempotency key', async () => {
    await backend.auth.signIn(account('customer'));
    const t = await backend.data.create('ticket', {
      title: 'Printer on fire',
      description: 'The office printer smells of smoke.',
    });
    await backend.auth.signIn(account('agent'));
    await backend.data.transition('ticket', t.id, 'take');
    const mail = { to: 'customer@demo.test', subject: 'Solved', body: 'We unplugged it.' };
    // A client cannot send the solve's call on its own.
    await expect(backend.calls.invoke('notifyRequester', { ...mail, ticketId: t.id })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    // A refused transition queues nothing; the committed one queues one call.
    await expect(
      backend.data.transition('ticket', t.id, 'solve', { calls: { notifyRequester: mail } }),
    ).rejects.toBeInstanceOf(BackendError);
    // What the UI sends: the transition's input only; the database fills the e-mail (spec's fill).
    await backend.data.transition('ticket', t.id, 'solve', {
      resolution: 'Unplugged the printer and called facilities.',
    });

    expect(await backend.deliverOutbox()).toEqual({ delivered: 0, retried: 1, failed: 0 });
    await new Promise((r) => setTimeout(r, 120));
    expect(await backend.deliverOutbox()).toEqual({ delivered: 1, retried: 0, failed: 0 });
    expect(await backend.deliverOutbox()).toEqual({ delivered: 0, retried: 0, failed: 0 });

    await backend.auth.signIn(account('admin'));
    const [entry, ...more] = await backend.outbox();
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      call: 'notifyRequester',
      transition: 'ticket.solve',
      status: 'delivered',
      attempts: 2,
      lastError: null,
      payload: { ticketId: t.id, to: 'customer@demo.test', subject: 'Solved: Printer on fire' },
    });
    expect(entry?.payload.body).toContain('Unplugged the printer and called facilities.');
    expect(seen.map((s) => s.headers['idempotency-key'])).toEqual([
      entry?.idempotencyKey,
      entry?.idempotencyKey,
    ]);
    expect(JSON.parse(seen[1]?.body ?? '{}')).toEqual(entry?.payload);
  });
});
