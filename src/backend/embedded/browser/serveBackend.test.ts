import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import helpdesk from '../../../../examples/helpdesk/spec.ts';
import { demoAccounts } from '../demo/demoAccounts.ts';
import type { Answer, Request, TabMessage, WorkerMessage } from './protocol.ts';
import { serveBackend } from './serveBackend.ts';

// The worker's side of the protocol in Node: the same serveBackend a browser worker runs, on an
// in-memory PGlite, with the tab's messages handed to it directly. Node 20 has BroadcastChannel
// but no Web Locks; one worker alone always gets the lock, so a stand-in that grants it will do.
const locks = (globalThis as { navigator?: { locks?: unknown } }).navigator;
const hadNavigator = locks !== undefined;

let posted: WorkerMessage[] = [];
let deliver: (m: TabMessage) => void = () => undefined;
let seq = 100;

const answerTo = (n: number) =>
  vi.waitFor(
    () => {
      const m = posted.find(
        (p): p is Extract<WorkerMessage, { type: 'answer' }> => p.type === 'answer' && p.seq === n,
      );
      if (!m) throw new Error(`no answer to ${n} yet`);
      return m.answer;
    },
    { timeout: 60_000, interval: 5 },
  );
const call = (path: string, args: unknown[], token: string | null = null): { n: number; r: Request } => {
  const n = ++seq;
  const r: Request = { kind: 'call', path, args, token, now: null };
  deliver({ type: 'request', seq: n, request: r });
  return { n, r };
};

let token: string | null = null;
beforeAll(async () => {
  if (!hadNavigator) Object.assign(globalThis, { navigator: {} });
  Object.assign((globalThis as unknown as { navigator: object }).navigator, {
    locks: { request: (_name: string, fn: () => Promise<unknown>) => fn() },
  });
  serveBackend({
    postMessage: (m) => posted.push(m),
    addEventListener: (_type, listener) => {
      deliver = (m) => listener({ data: m } as MessageEvent<TabMessage>);
    },
  });
  deliver({
    type: 'init',
    spec: helpdesk,
    dataDir: 'memory://',
    id: `serve-backend-test-${process.pid}`,
    client: 'tab',
    changes: `serve-backend-test-changes-${process.pid}`,
    seedDemoAccounts: true,
  });
  await vi.waitFor(
    () => {
      const failed = posted.find((m) => m.type === 'failed');
      if (failed) throw new Error(JSON.stringify(failed));
      expect(posted.some((m) => m.type === 'ready')).toBe(true);
    },
    { timeout: 120_000, interval: 20 },
  );
  const agent = demoAccounts(helpdesk).find((a) => a.role === 'agent');
  const signIn = call('auth.signIn', [{ email: agent?.email, password: agent?.password }]);
  const a = await answerTo(signIn.n);
  expect(a.ok).toBe(true);
  token = a.token ?? null;
}, 180_000);
afterAll(() => {
  posted = [];
  if (!hadNavigator) delete (globalThis as { navigator?: unknown }).navigator;
});

describe('serveBackend: reads the tab called off', () => {
  it('drops a list the tab cancelled before its turn, and answers the rest in order', async () => {
    const first = call('data.list', ['ticket', { limit: 5 }], token);
    const dropped = [1, 2, 3].map(() => call('data.list', ['ticket', { search: 'printer' }], token));
    for (const d of dropped) deliver({ type: 'cancel', seq: d.n });
    const last = call('data.list', ['ticket', { limit: 0 }], token);

    const a = await answerTo(first.n);
    expect(a.ok).toBe(true);
    for (const d of dropped) {
      const answer: Answer = await answerTo(d.n);
      expect(answer).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    }
    const b = await answerTo(last.n);
    expect(b).toMatchObject({ ok: true, value: { rows: [], total: expect.any(Number) } });
  });

  it('still runs a write whose cancel arrives (only reads can be called off)', async () => {
    const before = await answerTo(call('data.list', ['ticket', { limit: 0 }], token).n);
    const blocker = call('data.list', ['ticket', { limit: 50 }], token);
    const write = call(
      'data.create',
      ['ticket', { title: 'Written though called off', description: 'The cancel of a write is ignored.' }],
      token,
    );
    deliver({ type: 'cancel', seq: write.n });
    await answerTo(blocker.n);
    const made = await answerTo(write.n);
    expect(made.ok).toBe(true);
    const after = await answerTo(call('data.list', ['ticket', { limit: 0 }], token).n);
    const total = (x: Answer) => (x as { value: { total: number } }).value.total;
    expect(total(after)).toBe(total(before) + 1);
  });

  it('a cancel for a read already answered changes nothing that follows', async () => {
    const done = call('data.list', ['ticket', { limit: 1 }], token);
    await answerTo(done.n);
    deliver({ type: 'cancel', seq: done.n });
    const next = call('data.list', ['ticket', { limit: 1 }], token);
    expect((await answerTo(next.n)).ok).toBe(true);
  });
});

describe('serveBackend: a new spec on the open database (respec)', () => {
  const respec = (spec: typeof helpdesk) => {
    const n = ++seq;
    deliver({ type: 'request', seq: n, request: { kind: 'respec', spec } });
    return answerTo(n);
  };
  const withChannel: typeof helpdesk = structuredClone(helpdesk);
  const ticket = withChannel.entities.ticket as { fields: Record<string, object> };
  ticket.fields.channel = { type: 'text', label: 'Channel', default: 'email', required: true };

  it('upgrades in place: every row kept, the new field at its default, the session still valid', async () => {
    const before = await answerTo(call('data.list', ['ticket', { limit: 0 }], token).n);
    const answer = await respec(withChannel);
    expect(answer).toMatchObject({ ok: true, value: { outcome: 'upgraded' } });
    const after = await answerTo(call('data.list', ['ticket', { limit: 500 }], token).n);
    const { rows, total } = (after as { value: { rows: { channel?: string }[]; total: number } }).value;
    expect(total).toBe((before as { value: { total: number } }).value.total);
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.channel))).toEqual(new Set(['email']));
  });

  it('refuses a change that would lose data with the planner’s reasons, and keeps the running spec', async () => {
    // Back to the helpdesk as written: `channel` would be dropped with its values.
    const answer = await respec(helpdesk);
    expect(answer).toMatchObject({ ok: false, error: { code: 'SCHEMA_CHANGED' } });
    const problems = (answer as Extract<Answer, { ok: false }>).error.params.problems as string[];
    expect(problems.join('\n')).toContain('channel');
    const still = await answerTo(call('data.list', ['ticket', { limit: 1 }], token).n);
    expect(still).toMatchObject({
      ok: true,
      value: { rows: [expect.objectContaining({ channel: 'email' })] },
    });
  });
});
