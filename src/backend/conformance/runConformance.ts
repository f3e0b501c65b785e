import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppSpec } from '../../spec/types.ts';
import { type Backend, BackendError, BUILTIN_ERROR_CODES, type Change, type Row } from '../types.ts';

/** Credentials of an existing account per role (the demo accounts). */
export interface ConformanceAccounts {
  customer: { email: string; password: string };
  agent: { email: string; password: string };
  admin: { email: string; password: string };
}

export interface ConformanceOptions {
  /** Builds a backend on a prepared database (migration applied, accounts present). */
  makeBackend: (options: { now: () => Date }) => Promise<Backend>;
  accounts: ConformanceAccounts;
  /** Whether `now` given to makeBackend drives session expiry (not on a hosted backend). */
  controlsClock: boolean;
  /**
   * Whether the backend's calls run in the test's own process, so an AbortSignal can reach them
   * (default true; false where each call is relayed into a page as data).
   */
  takesSignals?: boolean;
}

let counter = 0;
/** A fresh e-mail per test run, so the suite can run again on the same database. */
function freshEmail(tag: string): string {
  counter += 1;
  return `${tag}-${Date.now().toString(36)}-${counter}@conformance.test`;
}

/**
 * The contract every Backend must keep, written once and run against each adapter. It needs the
 * helpdesk reference spec (tickets, comments, attachments, agents) because the contract is about
 * real rules: hidden rows, refused transitions, limits enforced by the database.
 *
 * @example
 * runConformance(helpdesk, { makeBackend, accounts, controlsClock: true });
 */
export function runConformance(spec: AppSpec, options: ConformanceOptions): void {
  const codes = new Set<string>([...BUILTIN_ERROR_CODES, ...Object.keys(spec.errors)]);
  const constant = (name: string) => Number(spec.constants[name]?.value);
  let clock = Date.now();
  let b: Backend;

  /** Rejects with a BackendError whose code is in the catalogue, and equal to `code`. */
  async function rejects(p: Promise<unknown>, code: string): Promise<BackendError> {
    const e = await p.then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e, `expected ${code}`).toBeInstanceOf(BackendError);
    const be = e as BackendError;
    expect(codes.has(be.code), `${be.code} is not a catalogue code`).toBe(true);
    expect(be.code).toBe(code);
    return be;
  }

  const as = async (who: keyof ConformanceAccounts) => {
    await b.auth.signOut();
    return b.auth.signIn(options.accounts[who]);
  };

  const newTicket = (title: string, extra: Record<string, unknown> = {}) =>
    b.data.create('ticket', {
      title,
      description: 'The invoice PDF will not download from the billing page since Monday.',
      ...extra,
    });

  beforeAll(async () => {
    b = await options.makeBackend({ now: () => new Date(clock) });
  }, 120_000);
  afterAll(async () => {
    await b?.close();
  });

  describe('auth', () => {
    it('signs up with the sign-up role, keeps the session, tells listeners', async () => {
      const events: string[] = [];
      const off = b.auth.onChange((e) => events.push(e));
      await b.auth.signOut();
      const email = freshEmail('ana');
      const s = await b.auth.signUp({ email, password: 'correct-horse', name: 'Ana Lima' });
      expect(s.user.email).toBe(email);
      expect(s.user.roles).toEqual(['customer']);
      expect(s.expiresAt).toBeGreaterThan(clock);
      expect((await b.auth.session())?.user.id).toBe(s.user.id);
      const me = await b.data.get('person', s.user.id);
      expect(me.name).toBe('Ana Lima');
      expect(events).toEqual(['SIGNED_OUT', 'SIGNED_IN']);
      off();
    });

    it('refuses a second sign-up with the same e-mail (any case)', async () => {
      const email = freshEmail('dup');
      await b.auth.signUp({ email, password: 'correct-horse' });
      await b.auth.signOut();
      await rejects(b.auth.signUp({ email: email.toUpperCase(), password: 'other-pass' }), 'EMAIL_TAKEN');
    });

    it('says the same for a wrong password and an unknown e-mail', async () => {
      await b.auth.signOut();
      const wrong = await rejects(
        b.auth.signIn({ email: options.accounts.agent.email, password: 'nope-nope' }),
        'INVALID_CREDENTIALS',
      );
      const unknown = await rejects(
        b.auth.signIn({ email: freshEmail('nobody'), password: 'nope-nope' }),
        'INVALID_CREDENTIALS',
      );
      expect(unknown.message).toBe(wrong.message);
      expect(await b.auth.session()).toBeNull();
    });

    it('signs out: no session, and data calls run as anonymous (refused)', async () => {
      await as('customer');
      await b.auth.signOut();
      expect(await b.auth.session()).toBeNull();
      await rejects(b.data.list('ticket'), 'FORBIDDEN');
    });

    it.runIf(options.controlsClock)(
      'expires sessions: event, then SESSION_EXPIRED, then signed out',
      async () => {
        const s = await as('customer');
        const events: string[] = [];
        const off = b.auth.onChange((e) => events.push(e));
        const saved = clock;
        clock = s.expiresAt + 1;
        try {
          await rejects(b.data.list('ticket'), 'SESSION_EXPIRED');
          expect(events).toEqual(['SESSION_EXPIRED']);
          expect(await b.auth.session()).toBeNull();
        } finally {
          clock = saved;
          off();
        }
      },
    );
  });

  describe('data', () => {
    it('creates, reads, updates with a version check, and refuses stale versions', async () => {
      await as('customer');
      const t = await newTicket('Invoice PDF broken');
      expect(t).toMatchObject({ title: 'Invoice PDF broken', status: 'new', version: 1, priority: 'normal' });
      expect(typeof t.createdAt).toBe('string');
      expect((await b.data.get('ticket', t.id)).title).toBe('Invoice PDF broken');
      const u = await b.data.update('ticket', t.id, 1, { title: 'Invoice PDF still broken' });
      expect(u.version).toBe(2);
      expect(u.title).toBe('Invoice PDF still broken');
      const stale = await rejects(b.data.update('ticket', t.id, 1, { title: 'Lost update' }), 'CONFLICT');
      expect(stale.params).toMatchObject({ current: 2 });
      expect((await b.data.get('ticket', t.id)).title).toBe('Invoice PDF still broken');
    });

    it('maps validation rules to their catalogue codes and fields', async () => {
      await as('customer');
      const e = await rejects(newTicket('abc'), 'TITLE_TOO_SHORT');
      expect(e.field).toBe('ticket.title');
      await rejects(b.data.create('ticket', { title: 'Valid title' }), 'REQUIRED');
      await rejects(newTicket('Unknown field', { nope: 1 }), 'INVALID_INPUT');
    });

    it('hides other people’s rows: NOT_FOUND on get, update and delete, absent from lists', async () => {
      await as('customer');
      const mine = await newTicket('Only mine to see');
      await b.auth.signOut();
      await b.auth.signUp({ email: freshEmail('other'), password: 'correct-horse' });
      await rejects(b.data.get('ticket', mine.id), 'NOT_FOUND');
      await rejects(b.data.update('ticket', mine.id, 1, { title: 'Hijacked title' }), 'NOT_FOUND');
      await rejects(b.data.transition('ticket', mine.id, 'withdraw'), 'NOT_FOUND');
      expect((await b.data.list('ticket')).total).toBe(0);
      await rejects(b.data.get('ticket', 'not-a-uuid'), 'NOT_FOUND');
      await rejects(b.data.get('nope', mine.id), 'UNKNOWN_ENTITY');
    });

    it('deletes only when permitted', async () => {
      await as('customer');
      const t = await newTicket('Delete me please');
      await rejects(b.data.delete('ticket', t.id), 'FORBIDDEN');
      await as('admin');
      await b.data.delete('ticket', t.id);
      await rejects(b.data.get('ticket', t.id), 'NOT_FOUND');
      await rejects(b.data.delete('ticket', t.id), 'NOT_FOUND');
    });

    it('lists with filters, search, sort, pages and exact counts', async () => {
      await b.auth.signOut();
      await b.auth.signUp({ email: freshEmail('lister'), password: 'correct-horse' });
      const made: Row[] = [];
      const priorities = ['low', 'normal', 'high', 'urgent', 'normal', 'low', 'high'];
      for (const [i, priority] of priorities.entries()) {
        made.push(
          await newTicket(`Report ${String.fromCharCode(65 + i)} ${i % 2 ? 'VPN' : '100%_done'}`, {
            priority,
          }),
        );
      }
      const all = await b.data.list('ticket');
      expect(all.total).toBe(7);
      const high = await b.data.list('ticket', { filters: [{ field: 'priority', op: 'eq', value: 'high' }] });
      expect(high.rows.map((r) => r.id).sort()).toEqual([made[2]?.id, made[6]?.id].sort());
      const some = await b.data.list('ticket', {
        filters: [{ field: 'priority', op: 'in', value: ['low', 'urgent'] }],
      });
      expect(some.total).toBe(3);
      const notLow = await b.data.list('ticket', {
        filters: [{ field: 'priority', op: 'neq', value: 'low' }],
      });
      expect(notLow.total).toBe(5);
      expect((await b.data.list('ticket', { filters: [{ field: 'assignee', op: 'isNull' }] })).total).toBe(7);
      // Search is case-insensitive and takes % and _ literally.
      expect((await b.data.list('ticket', { search: 'vpn' })).total).toBe(3);
      expect((await b.data.list('ticket', { search: '100%_' })).total).toBe(4);
      expect((await b.data.list('ticket', { search: '0%d' })).total).toBe(0);
      const sorted = await b.data.list('ticket', { sort: [{ field: 'title', direction: 'desc' }], limit: 3 });
      expect(sorted.rows.map((r) => String(r.title).slice(0, 8))).toEqual([
        'Report G',
        'Report F',
        'Report E',
      ]);
      expect(sorted.total).toBe(7);
      const page3 = await b.data.list('ticket', {
        sort: [{ field: 'title', direction: 'asc' }],
        offset: 6,
        limit: 3,
      });
      expect(page3.rows.map((r) => r.id)).toEqual([made[6]?.id]);
      expect(page3.total).toBe(7);
      const past = await b.data.list('ticket', { offset: 50 });
      expect([past.rows.length, past.total]).toEqual([0, 7]);
      expect((await b.data.list('ticket', { count: 'none', limit: 2 })).total).toBeNull();
      expect((await b.data.list('ticket', { limit: 2 })).rows).toHaveLength(2);
      expect(await b.data.list('ticket', { limit: 0 })).toEqual({ rows: [], total: 7 });
      await rejects(
        b.data.list('ticket', { filters: [{ field: 'secret', op: 'eq', value: 1 }] }),
        'INVALID_INPUT',
      );
    });
  });

  describe('reads called off', () => {
    it.skipIf(options.takesSignals === false)(
      'rejects a list whose signal was aborted with an AbortError, and the next read answers',
      async () => {
        await as('agent');
        const off = new AbortController();
        off.abort();
        const e = await b.data.list('ticket', {}, { signal: off.signal }).then(
          () => undefined,
          (x: unknown) => x,
        );
        expect((e as Error | undefined)?.name).toBe('AbortError');
        expect((await b.data.list('ticket', { limit: 0 })).total).toEqual(expect.any(Number));
      },
    );
  });

  describe('transitions and history', () => {
    it('runs allowed transitions, refuses the rest with catalogue codes, records history', async () => {
      await as('customer');
      const t = await newTicket('Cannot log in anymore');
      await rejects(b.data.transition('ticket', t.id, 'take'), 'FORBIDDEN');
      await as('agent');
      const agent = (await b.auth.session())?.user.id;
      const taken = await b.data.transition('ticket', t.id, 'take', {}, 1);
      expect(taken).toMatchObject({ status: 'open', assignee: agent, version: 2 });
      await rejects(b.data.transition('ticket', t.id, 'take'), 'INVALID_TRANSITION');
      await rejects(b.data.transition('ticket', t.id, 'ask_customer', {}, 1), 'CONFLICT');
      const missing = await rejects(b.data.transition('ticket', t.id, 'solve', {}), 'INPUT_REQUIRED');
      expect(missing.field).toBe('ticket.resolution');
      await rejects(b.data.transition('ticket', t.id, 'fly'), 'INVALID_TRANSITION');
      const solved = await b.data.transition('ticket', t.id, 'solve', {
        resolution: 'Reset the password for you.',
      });
      expect(solved).toMatchObject({ status: 'solved', resolution: 'Reset the password for you.' });
      const history = await b.data.history('ticket', t.id);
      expect(history.map((h) => [h.transition, h.fromState, h.toState])).toEqual([
        ['take', 'new', 'open'],
        ['solve', 'open', 'solved'],
      ]);
      expect(history[1]?.input).toEqual({ resolution: 'Reset the password for you.' });
      expect(history[0]?.actor).toBe(agent);
      await as('customer');
      expect((await b.data.history('ticket', t.id)).length).toBe(2);
    });

    it('refuses a guard with its own code', async () => {
      await as('customer');
      const t = await newTicket('Guarded ticket here');
      await as('admin');
      await b.data.transition('ticket', t.id, 'take');
      await as('agent');
      await rejects(b.data.transition('ticket', t.id, 'ask_customer'), 'NOT_ASSIGNEE');
    });
  });

  describe('files', () => {
    it('uploads within limits, downloads the same bytes, refuses over the limits', async () => {
      await as('customer');
      const t = await newTicket('Screenshot attached');
      const bytes = new TextEncoder().encode('%PDF-1.4 hello');
      const f = await b.files.upload('attachment', {
        values: { ticket: t.id },
        name: 'invoice.pdf',
        type: 'application/pdf',
        bytes,
      });
      expect(f).toMatchObject({
        name: 'invoice.pdf',
        type: 'application/pdf',
        size: bytes.byteLength,
        ticket: t.id,
      });
      const got = await b.files.download('attachment', f.id);
      expect([got.name, got.type, [...got.bytes]]).toEqual(['invoice.pdf', 'application/pdf', [...bytes]]);
      const big = new Uint8Array(constant('maxAttachmentMb') * 1048576 + 1);
      await rejects(
        b.files.upload('attachment', { values: { ticket: t.id }, name: 'big.bin', type: '', bytes: big }),
        'ATTACHMENT_TOO_LARGE',
      );
      for (let i = 1; i < constant('maxAttachmentsPerTicket'); i++) {
        await b.files.upload('attachment', {
          values: { ticket: t.id },
          name: `f${i}.txt`,
          type: 'text/plain',
          bytes,
        });
      }
      await rejects(
        b.files.upload('attachment', {
          values: { ticket: t.id },
          name: 'one-too-many.txt',
          type: 'text/plain',
          bytes,
        }),
        'TOO_MANY_ATTACHMENTS',
      );
      await b.files.remove('attachment', f.id);
      await rejects(b.files.download('attachment', f.id), 'NOT_FOUND');
      await rejects(b.files.download('ticket', t.id), 'INVALID_INPUT');
    });
  });

  describe('live', () => {
    it('notifies subscribers after commits, per entity and per row', async () => {
      await as('customer');
      const all: Change[] = [];
      const one: Change[] = [];
      const offAll = b.live.subscribe({ entity: 'ticket' }, (c) => all.push(c));
      const t = await newTicket('Live ticket here');
      const offOne = b.live.subscribe({ entity: 'ticket', id: t.id }, (c) => one.push(c));
      await newTicket('Another live ticket');
      await b.data.update('ticket', t.id, t.version, { title: 'Live ticket renamed' });
      await rejects(b.data.update('ticket', t.id, t.version, { title: 'Stale' }), 'CONFLICT');
      offAll();
      offOne();
      await b.data.update('ticket', t.id, t.version + 1, { title: 'Nobody listens' });
      await new Promise((r) => setTimeout(r, 50));
      expect(all.map((c) => c.kind)).toEqual(['insert', 'insert', 'update']);
      expect(one).toEqual([{ entity: 'ticket', id: t.id, kind: 'update' }]);
    });
  });

  describe('declared calls', () => {
    it('checks the payload shape, and refuses a call a transition sends (finding 11: only its transition queues it)', async () => {
      const good = {
        ticketId: '0b7e8a4e-8a3c-4d5e-9f00-1234567890ab',
        to: 'ana@example.com',
        subject: 'Solved',
        body: 'We reset your password.',
      };
      await as('agent');
      // `notifyRequester` is the `solve` transition's call: a client cannot send it for a ticket never solved.
      const direct = await rejects(b.calls.invoke('notifyRequester', good), 'FORBIDDEN');
      expect(direct.params).toMatchObject({ reason: 'sent-by-transition', transitions: ['ticket.solve'] });
      const bad = await rejects(
        b.calls.invoke('notifyRequester', { ...good, to: 'not-an-email' }),
        'INVALID_INPUT',
      );
      expect(bad.params).toMatchObject({ issues: [{ path: 'to', problem: 'type', expected: 'email' }] });
      await rejects(b.calls.invoke('notifyRequester', { ticketId: good.ticketId }), 'INVALID_INPUT');
      await rejects(b.calls.invoke('launchRocket', {}), 'UNKNOWN_CALL');
      await as('customer');
      await rejects(b.calls.invoke('notifyRequester', good), 'FORBIDDEN');
    });
  });

  describe('admin', () => {
    it('lets admins list users and set roles, nobody else', async () => {
      await b.auth.signOut();
      const email = freshEmail('newagent');
      const s = await b.auth.signUp({ email, password: 'correct-horse' });
      await rejects(b.admin.listUsers(), 'FORBIDDEN');
      await rejects(b.admin.setRoles(s.user.id, ['admin']), 'FORBIDDEN');
      await as('admin');
      const users = await b.admin.listUsers();
      expect(users.find((u) => u.email === email)?.roles).toEqual(['customer']);
      expect(users.find((u) => u.email === options.accounts.admin.email)?.roles).toEqual(['admin']);
      await b.admin.setRoles(s.user.id, ['agent']);
      await rejects(b.admin.setRoles(s.user.id, ['wizard']), 'INVALID_INPUT');
      await b.auth.signOut();
      const again = await b.auth.signIn({ email, password: 'correct-horse' });
      expect(again.user.roles).toEqual(['agent']);
    });
  });
}
