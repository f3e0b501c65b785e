/**
 * The hosted adapter against a recording `fetch`: no live Supabase project is reachable here, so
 * every operation's HTTP request is checked against PostgREST's, GoTrue's and Storage's documented
 * grammar, and realistic answers (errors included) are fed back to check the mapping.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Backend, BackendError } from '../types.ts';
import { createSupabaseBackend } from './createSupabaseBackend.ts';
import { deskSpec } from './testing/deskSpec.ts';
import { FakeRealtimeSocket } from './testing/fakeRealtimeSocket.ts';
import { ACCESS_TOKEN, sessionBody, USER_ID } from './testing/fakeSession.ts';
import { type RecordedRequest, type RecordingFetch, recordingFetch } from './testing/recordingFetch.ts';

const URL_ = 'https://abcdefgh.supabase.co';
const ANON = 'anon-key-for-tests';
const TICKET = '11111111-2222-4333-8444-555555555555';
const OTHER = '99999999-8888-4777-8666-555555555555';

let net: RecordingFetch;
let backend: Backend;

beforeEach(() => {
  net = recordingFetch();
  backend = createSupabaseBackend({
    spec: deskSpec,
    url: URL_,
    anonKey: ANON,
    fetch: net.fetch,
    webSocket: FakeRealtimeSocket as unknown as typeof WebSocket,
  });
});

afterEach(async () => {
  vi.useRealTimers();
  await backend.close();
});

/** Signs in through the recorded fetch; returns the number of requests it took. */
async function signIn(roles: string[] = ['agent']): Promise<void> {
  net.queue({ json: sessionBody() }, { json: roles });
  await backend.auth.signIn({ email: 'ada@example.com', password: 'correct horse' });
  net.requests.length = 0;
}

/** Asserts how `req` would be written on the wire: method, path and the decoded query string. */
function expectRequest(req: RecordedRequest, method: string, pathAndQuery: string): void {
  expect(req.method).toBe(method);
  // Query strings are form-encoded (`+` is a space), which is how PostgREST decodes them too.
  expect(decodeURIComponent(`${req.url.pathname}${req.url.search.replaceAll('+', ' ')}`)).toBe(pathAndQuery);
}

function expectUserHeaders(req: RecordedRequest): void {
  expect(req.headers.get('apikey')).toBe(ANON);
  expect(req.headers.get('authorization')).toBe(`Bearer ${ACCESS_TOKEN}`);
}

function json(req: RecordedRequest): unknown {
  return req.text === null ? null : JSON.parse(req.text);
}

async function rejection(p: Promise<unknown>): Promise<BackendError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(BackendError);
    return e as BackendError;
  }
  throw new Error('expected a rejection');
}

const ticketRow = {
  id: TICKET,
  created_at: '2026-03-01T10:00:00.123456+00:00',
  updated_at: '2026-03-01T10:00:00.123456+00:00',
  version: 3,
  title: 'Printer on fire',
  body: null,
  internal_note: null,
  status: 'open',
  priority: 'high',
  tags: ['bug'],
  requester: USER_ID,
  assigned_to: null,
  due_at: '2026-03-05T12:00:00+00:00',
  solved_at: null,
  resolution: null,
};

describe('auth (no live Supabase project: GoTrue answers are recorded)', () => {
  it('signs in with email and password, then reads the directly held roles', async () => {
    net.queue({ json: sessionBody() }, { json: ['agent'] });
    const session = await backend.auth.signIn({ email: 'ada@example.com', password: 'correct horse' });
    const [token, roles] = net.requests as [RecordedRequest, RecordedRequest];
    expectRequest(token, 'POST', '/auth/v1/token?grant_type=password');
    expect(token.headers.get('apikey')).toBe(ANON);
    expect(json(token)).toMatchObject({ email: 'ada@example.com', password: 'correct horse' });
    expectRequest(roles, 'POST', '/rest/v1/rpc/user_roles');
    expectUserHeaders(roles);
    expect(json(roles)).toEqual({ p_user_id: USER_ID });
    expect(session.user).toEqual({ id: USER_ID, email: 'ada@example.com', roles: ['agent'] });
    expect(session.accessToken).toBe(ACCESS_TOKEN);
    expect(session.expiresAt).toBeGreaterThan(Date.now());
  });

  it('maps GoTrue errors to catalogue codes', async () => {
    net.queue({
      status: 400,
      json: {
        code: 'invalid_credentials',
        error_code: 'invalid_credentials',
        msg: 'Invalid login credentials',
      },
    });
    expect((await rejection(backend.auth.signIn({ email: 'a@b.co', password: 'nope' }))).code).toBe(
      'INVALID_CREDENTIALS',
    );
    net.queue({
      status: 422,
      json: { code: 422, error_code: 'user_already_exists', msg: 'User already registered' },
    });
    expect((await rejection(backend.auth.signUp({ email: 'a@b.co', password: 'long enough' }))).code).toBe(
      'EMAIL_TAKEN',
    );
    net.queue({
      status: 422,
      json: {
        code: 422,
        error_code: 'weak_password',
        msg: 'Password should be at least 8 characters.',
        weak_password: { reasons: ['length'] },
      },
    });
    expect((await rejection(backend.auth.signUp({ email: 'a@b.co', password: 'x' }))).code).toBe(
      'WEAK_PASSWORD',
    );
    net.queue(new TypeError('fetch failed'));
    expect((await rejection(backend.auth.signIn({ email: 'a@b.co', password: 'x' }))).code).toBe(
      'UNAVAILABLE',
    );
  });

  it('signs up with the display name as user metadata (the profile trigger reads it)', async () => {
    net.queue({ json: sessionBody() }, { json: ['customer'] });
    const s = await backend.auth.signUp({ email: 'ada@example.com', password: 'correct horse', name: 'Ada' });
    const req = net.requests[0] as RecordedRequest;
    expectRequest(req, 'POST', '/auth/v1/signup');
    expect(json(req)).toMatchObject({
      email: 'ada@example.com',
      password: 'correct horse',
      data: { name: 'Ada' },
    });
    expect(s.user.roles).toEqual(['customer']);
  });

  it('finding 28.8: refuses a sign-up name a profile rule refuses with the rule’s code, before Supabase Auth answers a bare 500', async () => {
    const before = net.requests.length;
    const e = await rejection(
      backend.auth.signUp({ email: 'ada@example.com', password: 'correct horse', name: 'n'.repeat(20_000) }),
    );
    // This spec bounds the profile's name by the default text ceiling only (10,000).
    expect([e.code, e.field]).toEqual(['INVALID_VALUE', 'profile.name']);
    expect(net.requests.length).toBe(before);
  });

  it('says when sign-up needs the email confirmed (no session yet)', async () => {
    const { user } = sessionBody();
    net.queue({ json: user });
    const e = await rejection(backend.auth.signUp({ email: 'ada@example.com', password: 'correct horse' }));
    expect(e.code).toBe('NOT_SIGNED_IN');
    expect(e.params.reason).toBe('email-confirmation-required');
  });

  it('reports SIGNED_IN, then SIGNED_OUT for a sign-out the user asked for', async () => {
    const events: string[] = [];
    backend.auth.onChange((e) => events.push(e));
    await signIn();
    await new Promise((r) => setTimeout(r, 10));
    net.queue({ status: 204 });
    await backend.auth.signOut();
    expectRequest(net.last(), 'POST', '/auth/v1/logout?scope=local');
    await new Promise((r) => setTimeout(r, 10));
    expect(events).toEqual(['SIGNED_IN', 'SIGNED_OUT']);
    expect(await backend.auth.session()).toBeNull();
  });

  it('reports SESSION_EXPIRED (not a random error) when the refresh token is refused', async () => {
    const events: string[] = [];
    backend.auth.onChange((e, s) => events.push(`${e}:${s === null}`));
    await signIn();
    // Two hours later the access token has expired: session() must refresh it, and cannot.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 2 * 3600 * 1000);
    net.queue({
      status: 400,
      json: {
        code: 400,
        error_code: 'refresh_token_not_found',
        msg: 'Invalid Refresh Token: Refresh Token Not Found',
      },
    });
    expect(await backend.auth.session()).toBeNull();
    const refresh = net.to('/auth/v1/token').at(-1) as RecordedRequest;
    expectRequest(refresh, 'POST', '/auth/v1/token?grant_type=refresh_token');
    expect(json(refresh)).toEqual({ refresh_token: 'refresh-token-1' });
    await new Promise((r) => setTimeout(r, 10));
    expect(events.at(-1)).toBe('SESSION_EXPIRED:true');
    expect(events).not.toContain('SIGNED_OUT:true');
    vi.useRealTimers();
  });

  it('turns a "JWT expired" answer from PostgREST into SESSION_EXPIRED', async () => {
    await signIn();
    net.queue({ status: 401, json: { code: 'PGRST303', message: 'JWT expired', details: null, hint: null } });
    net.route((r) =>
      r.url.pathname.endsWith('/token')
        ? { status: 400, json: { error_code: 'session_expired', msg: 'Session expired' } }
        : undefined,
    );
    const events: string[] = [];
    backend.auth.onChange((e) => events.push(e));
    expect((await rejection(backend.data.list('ticket'))).code).toBe('SESSION_EXPIRED');
    await new Promise((r) => setTimeout(r, 20));
    expect(events).toContain('SESSION_EXPIRED');
  });

  it('answers NOT_SIGNED_IN to an anonymous request PostgREST refuses with 401', async () => {
    net.queue({
      status: 401,
      json: { code: '42501', message: 'permission denied for table ticket', details: null, hint: null },
    });
    expect((await rejection(backend.data.list('ticket'))).code).toBe('NOT_SIGNED_IN');
    expect(net.last().headers.get('authorization')).toBe(`Bearer ${ANON}`);
  });
});

describe('data through PostgREST (no live Supabase project: answers are recorded)', () => {
  beforeEach(async () => {
    await signIn();
  });

  it('lists with filters, search, sort and a page, counting exactly', async () => {
    net.queue({ json: [ticketRow], headers: { 'content-range': '0-0/7' } });
    const result = await backend.data.list('ticket', {
      filters: [
        { field: 'status', op: 'in', value: ['open', 'pending'] },
        { field: 'priority', op: 'eq', value: 'high' },
        { field: 'dueAt', op: 'lt', value: '2026-04-01T00:00:00Z' },
        { field: 'version', op: 'gte', value: 2 },
        { field: 'solvedAt', op: 'isNull' },
        { field: 'requester', op: 'notNull' },
        { field: 'tags', op: 'contains', value: 'bug' },
      ],
      sort: [{ field: 'createdAt', direction: 'desc' }],
      offset: 0,
      limit: 50,
    });
    const req = net.last();
    expectRequest(
      req,
      'GET',
      '/rest/v1/ticket?select=*&status=in.(open,pending)&priority=eq.high&due_at=lt.2026-04-01T00:00:00Z&version=gte.2' +
        '&solved_at=is.null&requester=not.is.null&tags=cs.{"bug"}&order=created_at.desc,id.desc&offset=0&limit=50',
    );
    expectUserHeaders(req);
    expect(req.headers.get('prefer')).toBe('count=exact');
    expect(result.total).toBe(7);
    expect(result.rows).toEqual([
      {
        id: TICKET,
        createdAt: '2026-03-01T10:00:00.123Z',
        updatedAt: '2026-03-01T10:00:00.123Z',
        version: 3,
        title: 'Printer on fire',
        body: null,
        internalNote: null,
        status: 'open',
        priority: 'high',
        tags: ['bug'],
        requester: USER_ID,
        assignedTo: null,
        dueAt: '2026-03-05T12:00:00.000Z',
        solvedAt: null,
        resolution: null,
      },
    ]);
  });

  it('searches the searchable text fields with ilike, literally, and keeps neq null-inclusive', async () => {
    net.queue({ json: [], headers: { 'content-range': '*/0' } });
    await backend.data.list('ticket', {
      search: ' 50%_off, (today) ',
      filters: [{ field: 'priority', op: 'neq', value: 'low' }],
      count: 'none',
      offset: 20,
      limit: 5000,
    });
    const req = net.last();
    const pattern = '"*50\\\\%\\\\_off, (today)*"';
    expectRequest(
      req,
      'GET',
      `/rest/v1/ticket?select=*&or=(and(or(priority.neq.low,priority.is.null),or(title.ilike.${pattern},body.ilike.${pattern},resolution.ilike.${pattern})))` +
        '&order=id.asc&offset=20&limit=1000',
    );
    expect(req.headers.get('prefer')).toBeNull();
  });

  it('uses a single or=() for search alone, and text contains as ilike', async () => {
    net.queue({ json: [], headers: { 'content-range': '*/0' } });
    await backend.data.list('ticket', {
      search: 'fire',
      filters: [{ field: 'title', op: 'contains', value: 'a*b' }],
    });
    expectRequest(
      net.last(),
      'GET',
      '/rest/v1/ticket?select=*&title=ilike.*a_b*&or=(title.ilike.*fire*,body.ilike.*fire*,resolution.ilike.*fire*)&order=id.asc&offset=0&limit=50',
    );
  });

  it("applies a screen's rule as the computed field of its function (issue 16 item 10)", async () => {
    net.queue({ json: [], headers: { 'content-range': '*/0' } });
    await backend.data.list('ticket', {
      screen: 'bare',
      filters: [{ field: 'status', op: 'eq', value: 'open' }],
    });
    expectRequest(
      net.last(),
      'GET',
      '/rest/v1/ticket?select=*&status=eq.open&ticket__where_bare=is.true&order=id.asc&offset=0&limit=50',
    );
    // A screen without a rule, or of another entity, is refused before any request.
    net.requests.length = 0;
    expect((await rejection(backend.data.list('ticket', { screen: 'tickets' }))).code).toBe('INVALID_INPUT');
    expect((await rejection(backend.data.list('ticketAttachment', { screen: 'bare' }))).code).toBe(
      'INVALID_INPUT',
    );
    expect(net.requests).toHaveLength(0);
  });

  it('answers a page past the end with no rows and the total PostgREST reports', async () => {
    net.queue({
      status: 416,
      json: {
        code: 'PGRST103',
        message: 'Requested range not satisfiable',
        details: 'An offset of 100 was requested, but there are only 7 rows.',
        hint: null,
      },
    });
    expect(await backend.data.list('ticket', { offset: 100 })).toEqual({ rows: [], total: 7 });
  });

  it('calls a list off: before it leaves nothing is sent, on its way fetch holds the signal', async () => {
    const before = new AbortController();
    before.abort();
    const refused = await backend.data.list('ticket', {}, { signal: before.signal }).catch((e: Error) => e);
    expect((refused as Error).name).toBe('AbortError');
    expect(net.requests).toHaveLength(0);
    const later = new AbortController();
    net.queue({ json: [], headers: { 'content-range': '*/0' } });
    await backend.data.list('ticket', { count: 'none' }, { signal: later.signal });
    const sent = net.requests[0]?.signal;
    expect(sent?.aborted).toBe(false);
    later.abort();
    // The request's own signal follows the caller's: the browser would drop the request itself.
    expect(sent?.aborted).toBe(true);
  });

  it('refuses unknown entities and fields without a request', async () => {
    expect((await rejection(backend.data.list('nope'))).code).toBe('UNKNOWN_ENTITY');
    expect(
      (await rejection(backend.data.list('ticket', { sort: [{ field: 'nope', direction: 'asc' }] }))).code,
    ).toBe('INVALID_INPUT');
    expect((await rejection(backend.data.create('ticket', { nope: 1 }))).code).toBe('INVALID_INPUT');
    expect(net.requests).toHaveLength(0);
  });

  it('gets one row, and NOT_FOUND when RLS hides it or it does not exist', async () => {
    net.queue({ json: [ticketRow] });
    const row = await backend.data.get('ticket', TICKET);
    expectRequest(net.last(), 'GET', `/rest/v1/ticket?select=*&id=eq.${TICKET}`);
    expect(row.assignedTo).toBeNull();
    net.queue({ json: [] });
    const e = await rejection(backend.data.get('ticket', OTHER));
    expect(e.code).toBe('NOT_FOUND');
    expect(e.params).toEqual({ entity: 'ticket', id: OTHER });
    expect((await rejection(backend.data.get('ticket', 'not-a-uuid'))).code).toBe('NOT_FOUND');
  });

  it('creates with snake_case columns and return=representation', async () => {
    net.queue({ status: 201, json: ticketRow });
    const row = await backend.data.create('ticket', {
      title: 'Printer on fire',
      assignedTo: null,
      dueAt: '2026-03-05T12:00:00Z',
      id: 'ignored',
    });
    const req = net.last();
    expectRequest(req, 'POST', '/rest/v1/ticket?select=*');
    expectUserHeaders(req);
    expect(req.headers.get('prefer')).toBe('return=representation');
    expect(req.headers.get('accept')).toBe('application/vnd.pgrst.object+json');
    expect(req.headers.get('content-type')).toContain('application/json');
    expect(json(req)).toEqual({
      title: 'Printer on fire',
      assigned_to: null,
      due_at: '2026-03-05T12:00:00Z',
    });
    expect(row.id).toBe(TICKET);
  });

  it('maps database errors raised through PostgREST to catalogue codes', async () => {
    const cases: [number, Record<string, unknown>, string, string | undefined][] = [
      [
        400,
        {
          code: '23514',
          message: 'new row for relation "ticket" violates check constraint "ticket__title_too_long__1"',
          details: 'Failing row contains (...).',
        },
        'TITLE_TOO_LONG',
        'ticket.title',
      ],
      [
        400,
        {
          code: '23502',
          message: 'null value in column "title" of relation "ticket" violates not-null constraint',
          details: 'Failing row contains (...).',
        },
        'REQUIRED',
        'ticket.title',
      ],
      [
        409,
        {
          code: '23505',
          message: 'duplicate key value violates unique constraint "profile__email__unique"',
          details: 'Key (email)=(a@b.co) already exists.',
        },
        'UNIQUE',
        undefined,
      ],
      [
        409,
        {
          code: '23503',
          message:
            'insert or update on table "ticket" violates foreign key constraint "ticket__assigned_to__fk"',
          details: `Key (assigned_to)=(${OTHER}) is not present in table "profile".`,
        },
        'REFERENCE',
        'ticket.assignedTo',
      ],
      [
        403,
        {
          code: '42501',
          message: 'new row violates row-level security policy for table "ticket"',
          details: null,
        },
        'FORBIDDEN',
        undefined,
      ],
      [
        400,
        { code: '22P02', message: 'invalid input syntax for type numeric: "x"', details: null },
        'INVALID_VALUE',
        undefined,
      ],
      [
        400,
        {
          code: 'PGRST204',
          message: "Could not find the 'title' column of 'ticket' in the schema cache",
          details: null,
        },
        'SCHEMA_CHANGED',
        undefined,
      ],
      [
        503,
        {
          code: 'PGRST002',
          message: 'Could not query the database for the schema cache. Retrying.',
          details: null,
        },
        'UNAVAILABLE',
        undefined,
      ],
      [500, { code: 'XX000', message: 'internal error', details: null }, 'INTERNAL', undefined],
    ];
    for (const [status, body, code, field] of cases) {
      net.queue({ status, json: { hint: null, ...body } });
      const e = await rejection(backend.data.create('ticket', { title: 'x' }));
      expect([e.code, e.field], JSON.stringify(body)).toEqual([code, field]);
      expect(e.message).not.toContain('violates');
    }
    net.queue(new TypeError('fetch failed'));
    expect((await rejection(backend.data.create('ticket', { title: 'x' }))).code).toBe('UNAVAILABLE');
  });

  it('updates with the version as an optimistic lock', async () => {
    net.queue({ json: [{ ...ticketRow, version: 4, priority: 'low' }] });
    const row = await backend.data.update('ticket', TICKET, 3, { priority: 'low', version: 99 });
    const req = net.last();
    expectRequest(req, 'PATCH', `/rest/v1/ticket?id=eq.${TICKET}&version=eq.3&select=*`);
    expect(req.headers.get('prefer')).toBe('return=representation');
    expect(json(req)).toEqual({ priority: 'low' });
    expect([row.version, row.priority]).toEqual([4, 'low']);
  });

  it('tells CONFLICT, NOT_FOUND and FORBIDDEN apart when an update matches no row', async () => {
    net.queue({ json: [] }, { json: [{ ...ticketRow, version: 5 }] });
    const conflict = await rejection(backend.data.update('ticket', TICKET, 3, { priority: 'low' }));
    expect(conflict.code).toBe('CONFLICT');
    expect(conflict.params).toEqual({ entity: 'ticket', id: TICKET, version: 3, current: 5 });
    expectRequest(net.last(), 'GET', `/rest/v1/ticket?select=*&id=eq.${TICKET}`);
    net.queue({ json: [] }, { json: [] });
    expect((await rejection(backend.data.update('ticket', TICKET, 3, { priority: 'low' }))).code).toBe(
      'NOT_FOUND',
    );
    // Readable, current version, yet no row updated: the update policy's USING refused it.
    net.queue({ json: [] }, { json: [ticketRow] });
    expect((await rejection(backend.data.update('ticket', TICKET, 3, { priority: 'low' }))).code).toBe(
      'FORBIDDEN',
    );
  });

  it('deletes by id, counting, and explains a delete that matched nothing', async () => {
    net.queue({ status: 204, headers: { 'content-range': '*/1' } });
    await backend.data.delete('ticket', TICKET);
    const req = net.last();
    expectRequest(req, 'DELETE', `/rest/v1/ticket?id=eq.${TICKET}`);
    expect(req.headers.get('prefer')).toBe('count=exact');
    expectUserHeaders(req);
    net.queue({ status: 204, headers: { 'content-range': '*/0' } }, { json: [ticketRow] });
    expect((await rejection(backend.data.delete('ticket', TICKET))).code).toBe('FORBIDDEN');
    net.queue({ status: 204, headers: { 'content-range': '*/0' } }, { json: [] });
    expect((await rejection(backend.data.delete('ticket', TICKET))).code).toBe('NOT_FOUND');
    net.queue({
      status: 409,
      json: {
        code: '23503',
        message:
          'update or delete on table "ticket" violates foreign key constraint "ticket_attachment__ticket__fk" on table "ticket_attachment"',
        details: `Key (id)=(${TICKET}) is still referenced from table "ticket_attachment".`,
        hint: null,
      },
    });
    const inUse = await rejection(backend.data.delete('ticket', TICKET));
    expect([inUse.code, inUse.params]).toEqual([
      'REFERENCE',
      { reason: 'in-use', entity: 'ticketAttachment' },
    ]);
  });

  it('runs a transition through its RPC function', async () => {
    net.queue({ json: { ...ticketRow, status: 'solved', version: 4, resolution: 'Unplugged it' } });
    const row = await backend.data.transition('ticket', TICKET, 'solve', { resolution: 'Unplugged it' }, 3);
    const req = net.last();
    expectRequest(req, 'POST', '/rest/v1/rpc/ticket_solve');
    expectUserHeaders(req);
    expect(req.headers.get('accept')).toBe('application/vnd.pgrst.object+json');
    expect(json(req)).toEqual({ p_id: TICKET, p_version: 3, p_input: { resolution: 'Unplugged it' } });
    expect([row.status, row.resolution]).toEqual(['solved', 'Unplugged it']);
  });

  it('maps a guard failure raised as P0001 to its catalogue code with its parameters', async () => {
    net.queue({
      status: 400,
      json: {
        code: 'P0001',
        message: 'TICKET_REOPEN_WINDOW',
        details: '{"entity": "ticket", "reopenWindowDays": 14}',
        hint: null,
      },
    });
    const e = await rejection(backend.data.transition('ticket', TICKET, 'reopen'));
    expect(json(net.last())).toEqual({ p_id: TICKET, p_version: null, p_input: {} });
    expect(e.code).toBe('TICKET_REOPEN_WINDOW');
    expect(e.params).toEqual({ entity: 'ticket', reopenWindowDays: 14 });
    net.queue({
      status: 400,
      json: {
        code: 'P0001',
        message: 'CONFLICT',
        details: '{"entity":"ticket","version":2,"current":3}',
        hint: null,
      },
    });
    expect(
      (await rejection(backend.data.transition('ticket', TICKET, 'solve', { resolution: 'x' }, 2))).code,
    ).toBe('CONFLICT');
    expect((await rejection(backend.data.transition('ticket', TICKET, 'fly'))).code).toBe(
      'INVALID_TRANSITION',
    );
  });

  it('reads history from <table>_history, oldest first', async () => {
    net.queue({
      json: [
        {
          id: OTHER,
          row_id: TICKET,
          transition: 'solve',
          from_state: 'open',
          to_state: 'solved',
          actor: USER_ID,
          at: '2026-03-02T08:00:00+00:00',
          input: { resolution: 'x' },
        },
      ],
    });
    const h = await backend.data.history('ticket', TICKET);
    expectRequest(
      net.last(),
      'GET',
      `/rest/v1/ticket_history?select=*&row_id=eq.${TICKET}&order=at.asc,id.asc`,
    );
    expect(h).toEqual([
      {
        id: OTHER,
        kind: 'transition',
        rowId: TICKET,
        transition: 'solve',
        fromState: 'open',
        toState: 'solved',
        actor: USER_ID,
        at: '2026-03-02T08:00:00.000Z',
        input: { resolution: 'x' },
        // A history table of a deployment before old values were kept has no `previous` column.
        previous: {},
      },
    ]);
  });

  it('reads an edit with its old and new values (issue 31)', async () => {
    net.queue({
      json: [
        {
          id: OTHER,
          row_id: TICKET,
          kind: 'edit',
          transition: '',
          from_state: 'open',
          to_state: 'open',
          actor: USER_ID,
          at: '2026-03-02T09:00:00+00:00',
          input: { priority: 'high' },
          previous: { priority: 'normal' },
        },
      ],
    });
    const [edit] = await backend.data.history('ticket', TICKET);
    expect([edit?.kind, edit?.input, edit?.previous]).toEqual([
      'edit',
      { priority: 'high' },
      { priority: 'normal' },
    ]);
  });
});

describe('files in Storage (no live Supabase project: answers are recorded)', () => {
  const ATTACHMENT = {
    id: OTHER,
    created_at: '2026-03-01T10:00:00+00:00',
    updated_at: '2026-03-01T10:00:00+00:00',
    version: 1,
    ticket: TICKET,
    name: 'reçu 03.pdf',
    size_bytes: 3,
    mime_type: 'application/pdf',
    storage_path: `${OTHER}/re_u 03.pdf`,
  };

  beforeEach(async () => {
    await signIn();
  });

  it('finding 28.5: uploads the row first (rules decide; the server picks its id and path), then the bytes to <bucket>/<row id>/<name>', async () => {
    net.queue({ status: 201, json: ATTACHMENT }, { json: { Id: 'obj-1', Key: 'ticket_attachment/x' } });
    const row = await backend.files.upload('ticketAttachment', {
      values: { ticket: TICKET },
      name: 'reçu 03.pdf',
      type: 'application/pdf',
      bytes: new Uint8Array([1, 2, 3]),
    });
    const [insert, put] = net.requests as [RecordedRequest, RecordedRequest];
    expectRequest(insert, 'POST', '/rest/v1/ticket_attachment?select=*');
    // Neither the id nor the object path is the client's to choose.
    expect(json(insert)).toEqual({
      ticket: TICKET,
      name: 'reçu 03.pdf',
      size_bytes: 3,
      mime_type: 'application/pdf',
    });
    const body = { id: ATTACHMENT.id };
    expectRequest(put, 'POST', `/storage/v1/object/ticket_attachment/${ATTACHMENT.storage_path}`);
    expectUserHeaders(put);
    expect(put.headers.get('content-type')).toBe('application/pdf');
    expect(put.headers.get('x-upsert')).toBe('false');
    expect([...(put.bytes ?? [])]).toEqual([1, 2, 3]);
    expect(row).toMatchObject({
      id: body.id,
      ticket: TICKET,
      name: 'reçu 03.pdf',
      size: 3,
      type: 'application/pdf',
    });
    expect(row).not.toHaveProperty('storagePath');
  });

  it('removes the row again when Storage refuses the bytes', async () => {
    net.queue(
      { status: 201, json: ATTACHMENT },
      {
        status: 400,
        json: {
          statusCode: '403',
          error: 'Unauthorized',
          message: 'new row violates row-level security policy',
        },
      },
      { status: 204 },
    );
    const e = await rejection(
      backend.files.upload('ticketAttachment', {
        values: { ticket: TICKET },
        name: 'a.pdf',
        type: 'application/pdf',
        bytes: new Uint8Array([1]),
      }),
    );
    expect(e.code).toBe('FORBIDDEN');
    const undo = net.last();
    expect(undo.method).toBe('DELETE');
    expect(undo.url.pathname).toBe('/rest/v1/ticket_attachment');
    expect(undo.url.searchParams.get('id')).toMatch(/^eq\.[0-9a-f-]{36}$/);
  });

  it('refuses an upload the table rules refuse before any byte leaves', async () => {
    net.queue({
      status: 400,
      json: {
        code: '23514',
        message:
          'new row for relation "ticket_attachment" violates check constraint "ticket_attachment__size_bytes__nonnegative"',
        details: null,
        hint: null,
      },
    });
    const e = await rejection(
      backend.files.upload('ticketAttachment', {
        values: { ticket: TICKET },
        name: 'a.pdf',
        type: '',
        bytes: new Uint8Array([1]),
      }),
    );
    expect(e.code).toBe('INVALID_VALUE');
    expect(net.to('/storage/')).toHaveLength(0);
    expect(
      (
        await rejection(
          backend.files.upload('ticket', { values: {}, name: 'a', type: '', bytes: new Uint8Array() }),
        )
      ).code,
    ).toBe('INVALID_INPUT');
  });

  it('downloads: the row (read rule), then the object', async () => {
    net.queue(
      { json: [ATTACHMENT] },
      { body: new Uint8Array([7, 8, 9]), headers: { 'content-type': 'application/pdf' } },
    );
    const file = await backend.files.download('ticketAttachment', OTHER);
    expectRequest(
      net.requests[0] as RecordedRequest,
      'GET',
      `/rest/v1/ticket_attachment?select=*&id=eq.${OTHER}`,
    );
    const get = net.last();
    expectRequest(get, 'GET', `/storage/v1/object/ticket_attachment/${OTHER}/re_u 03.pdf`);
    expectUserHeaders(get);
    expect(file).toEqual({ name: 'reçu 03.pdf', type: 'application/pdf', bytes: new Uint8Array([7, 8, 9]) });
    net.queue(
      { json: [ATTACHMENT] },
      { status: 400, json: { statusCode: '404', error: 'not_found', message: 'Object not found' } },
    );
    expect((await rejection(backend.files.download('ticketAttachment', OTHER))).code).toBe('NOT_FOUND');
    net.queue(
      { json: [ATTACHMENT] },
      {
        status: 400,
        json: { statusCode: '403', error: 'Unauthorized', message: '"exp" claim timestamp check failed' },
      },
    );
    net.route((r) =>
      r.url.pathname.endsWith('/token')
        ? { status: 400, json: { error_code: 'session_expired', msg: 'x' } }
        : undefined,
    );
    expect((await rejection(backend.files.download('ticketAttachment', OTHER))).code).toBe('SESSION_EXPIRED');
  });

  it('removes: the object (its policy repeats the delete rule), then the row', async () => {
    net.queue(
      { json: [ATTACHMENT] },
      { json: [{ name: ATTACHMENT.storage_path }] },
      { status: 204, headers: { 'content-range': '*/1' } },
    );
    await backend.files.remove('ticketAttachment', OTHER);
    const [read, rm, del] = net.requests as [RecordedRequest, RecordedRequest, RecordedRequest];
    expectRequest(read, 'GET', `/rest/v1/ticket_attachment?select=*&id=eq.${OTHER}`);
    expectRequest(rm, 'DELETE', '/storage/v1/object/ticket_attachment');
    expectUserHeaders(rm);
    expect(json(rm)).toEqual({ prefixes: [ATTACHMENT.storage_path] });
    expectRequest(del, 'DELETE', `/rest/v1/ticket_attachment?id=eq.${OTHER}`);
    expect(del.headers.get('prefer')).toBe('count=exact');
    // Storage answers a refused delete with an empty list; the row's delete then says FORBIDDEN.
    net.queue({ json: [ATTACHMENT] }, { json: [] }, { status: 204, headers: { 'content-range': '*/0' } });
    expect((await rejection(backend.files.remove('ticketAttachment', OTHER))).code).toBe('FORBIDDEN');
    net.queue({ json: [] });
    expect((await rejection(backend.files.remove('ticketAttachment', OTHER))).code).toBe('NOT_FOUND');
  });
});

describe('live changes through Realtime (no live Supabase project: a fake socket answers)', () => {
  beforeEach(async () => {
    FakeRealtimeSocket.instances.length = 0;
    await signIn();
  });

  const settle = () => new Promise((r) => setTimeout(r, 20));

  it('subscribes to postgres_changes of the table and reports inserts, updates and deletes', async () => {
    const changes: unknown[] = [];
    const stop = backend.live.subscribe({ entity: 'ticket' }, (c) => changes.push(c));
    await settle();
    const socket = FakeRealtimeSocket.instances[0] as FakeRealtimeSocket;
    expect(socket.url).toMatch(
      /^wss:\/\/abcdefgh\.supabase\.co\/realtime\/v1\/websocket\?apikey=anon-key-for-tests/,
    );
    const join = socket.sent.find((f) => f.event === 'phx_join');
    expect(join?.topic).toMatch(/^realtime:ninefold:ticket:\*:\d+$/);
    expect(join?.payload).toMatchObject({
      access_token: ACCESS_TOKEN,
      config: { postgres_changes: [{ event: '*', schema: 'public', table: 'ticket' }] },
    });
    const topic = join?.topic ?? '';
    socket.pushChange(topic, 'INSERT', 'ticket', { id: TICKET, title: 'x' });
    socket.pushChange(topic, 'UPDATE', 'ticket', { id: TICKET, title: 'y' }, { id: TICKET });
    socket.pushChange(topic, 'DELETE', 'ticket', {}, { id: OTHER });
    expect(changes).toEqual([
      { entity: 'ticket', id: TICKET, kind: 'insert' },
      { entity: 'ticket', id: TICKET, kind: 'update' },
      // Finding 2 (issue 11): a table listener is not told which row was deleted.
      { entity: 'ticket', id: '*', kind: 'delete' },
    ]);
    stop();
    await settle();
    expect(socket.sent.some((f) => f.event === 'phx_leave' && f.topic === topic)).toBe(true);
    socket.pushChange(topic, 'INSERT', 'ticket', { id: OTHER });
    expect(changes).toHaveLength(3);
  });

  it('narrows a one-row subscription with id=eq filters (deletes matched by id here)', async () => {
    const changes: unknown[] = [];
    backend.live.subscribe({ entity: 'ticket', id: TICKET }, (c) => changes.push(c));
    await settle();
    const socket = FakeRealtimeSocket.instances[0] as FakeRealtimeSocket;
    const join = socket.sent.find((f) => f.event === 'phx_join');
    expect((join?.payload.config as { postgres_changes?: unknown } | undefined)?.postgres_changes).toEqual([
      { event: 'INSERT', schema: 'public', table: 'ticket', filter: `id=eq.${TICKET}` },
      { event: 'UPDATE', schema: 'public', table: 'ticket', filter: `id=eq.${TICKET}` },
      { event: 'DELETE', schema: 'public', table: 'ticket' },
    ]);
    const topic = join?.topic ?? '';
    socket.pushChange(topic, 'DELETE', 'ticket', {}, { id: OTHER });
    socket.pushChange(topic, 'DELETE', 'ticket', {}, { id: TICKET });
    expect(changes).toEqual([{ entity: 'ticket', id: TICKET, kind: 'delete' }]);
    expect(() => backend.live.subscribe({ entity: 'nope' }, () => undefined)).toThrow(BackendError);
  });
});

describe('declared calls (no live Supabase project: answers are recorded)', () => {
  it('checks the payload shape before anything leaves', async () => {
    await signIn(['agent']);
    const e = await rejection(
      backend.calls.invoke('notifyRequester', { ticketId: 'not-a-uuid', message: 'Hi', extra: 1 }),
    );
    expect(e.code).toBe('INVALID_INPUT');
    expect(e.params.issues).toEqual([
      { path: 'ticketId', problem: 'type', expected: 'uuid' },
      { path: 'extra', problem: 'unexpected' },
    ]);
    expect((await rejection(backend.calls.invoke('nope', {}))).code).toBe('UNKNOWN_CALL');
    expect(net.requests).toHaveLength(0);
  });

  it('refuses callers without the role, and anonymous callers, before sending', async () => {
    expect(
      (await rejection(backend.calls.invoke('notifyRequester', { ticketId: TICKET, message: 'Hi' }))).code,
    ).toBe('NOT_SIGNED_IN');
    await signIn(['customer']);
    expect(
      (await rejection(backend.calls.invoke('notifyRequester', { ticketId: TICKET, message: 'Hi' }))).code,
    ).toBe('FORBIDDEN');
    expect(net.requests).toHaveLength(0);
  });

  it('finding 11: queues the call through record_call; nothing leaves the browser for the service', async () => {
    await signIn(['admin']);
    net.queue({ json: 'a6f1c0de-0000-4000-8000-000000000001' });
    const out = await backend.calls.invoke('notifyRequester', {
      ticketId: TICKET,
      message: 'Solved',
      cc: ['b@c.co'],
    });
    expect(out).toEqual({ queued: true, id: 'a6f1c0de-0000-4000-8000-000000000001' });
    expect(net.requests).toHaveLength(1);
    const req = net.last();
    expectRequest(req, 'POST', '/rest/v1/rpc/record_call');
    expectUserHeaders(req);
    expect(json(req)).toEqual({
      p_call: 'notifyRequester',
      p_payload: { ticketId: TICKET, message: 'Solved', cc: ['b@c.co'] },
    });
    // The database's refusal (its own role and shape checks) arrives as the catalogue code.
    net.queue({
      status: 400,
      json: { code: 'P0001', message: 'FORBIDDEN', details: '{"call":"notifyRequester"}', hint: null },
    });
    expect(
      (await rejection(backend.calls.invoke('notifyRequester', { ticketId: TICKET, message: 'x' }))).code,
    ).toBe('FORBIDDEN');
  });

  it('finding 11: never calls an external host from the browser either', async () => {
    await signIn(['customer']);
    net.queue({ json: 'a6f1c0de-0000-4000-8000-000000000002' });
    expect(await backend.calls.invoke('exchangeRate', { currency: 'EUR', day: '2026-03-01' })).toMatchObject({
      queued: true,
    });
    expect(net.requests.map((r) => r.url.origin)).toEqual([URL_]);
    expectRequest(net.last(), 'POST', '/rest/v1/rpc/record_call');
  });

  it('finding 11: refuses a call a transition sends (its transition queues it when it commits)', async () => {
    const bound = createSupabaseBackend({
      spec: {
        ...deskSpec,
        states: {
          ...deskSpec.states,
          ticket: {
            ...deskSpec.states.ticket!,
            transitions: Object.fromEntries(
              Object.entries(deskSpec.states.ticket!.transitions).map(([n, t], i) => [
                n,
                i === 0 ? { ...t, calls: ['notifyRequester'] } : t,
              ]),
            ),
          },
        },
      },
      url: URL_,
      anonKey: ANON,
      fetch: net.fetch,
      webSocket: FakeRealtimeSocket as unknown as typeof WebSocket,
    });
    try {
      net.queue({ json: sessionBody() }, { json: ['agent'] });
      await bound.auth.signIn({ email: 'ada@example.com', password: 'correct horse' });
      net.requests.length = 0;
      const e = await rejection(bound.calls.invoke('notifyRequester', { ticketId: TICKET, message: 'Hi' }));
      expect([e.code, e.params.reason]).toEqual(['FORBIDDEN', 'sent-by-transition']);
      expect(net.requests).toHaveLength(0);
    } finally {
      await bound.close();
    }
  });
});

describe('administration through RPC (no live Supabase project: answers are recorded)', () => {
  beforeEach(async () => {
    await signIn(['admin']);
  });

  it('lists users through admin_list_users', async () => {
    net.queue({
      json: [
        { id: OTHER, email: 'bo@example.com', roles: ['agent'], created_at: '2026-01-02T03:04:05+00:00' },
      ],
    });
    expect(await backend.admin.listUsers()).toEqual([
      { id: OTHER, email: 'bo@example.com', roles: ['agent'], createdAt: '2026-01-02T03:04:05.000Z' },
    ]);
    expectRequest(net.last(), 'POST', '/rest/v1/rpc/admin_list_users');
    net.queue({
      status: 400,
      json: {
        code: 'P0001',
        message: 'FORBIDDEN',
        details: '{"entity":"users","action":"list"}',
        hint: null,
      },
    });
    expect((await rejection(backend.admin.listUsers())).code).toBe('FORBIDDEN');
  });

  it('sets roles in one set_roles call', async () => {
    net.queue({ status: 204 });
    await backend.admin.setRoles(OTHER, ['agent', 'admin']);
    expect(net.requests).toHaveLength(1);
    expectRequest(net.last(), 'POST', '/rest/v1/rpc/set_roles');
    expect(json(net.last())).toEqual({ p_user_id: OTHER, p_roles: ['agent', 'admin'] });
    net.queue({
      status: 400,
      json: {
        code: 'P0001',
        message: 'FORBIDDEN',
        details: '{"entity":"user_roles","action":"set"}',
        hint: null,
      },
    });
    expect((await rejection(backend.admin.setRoles(OTHER, ['agent']))).code).toBe('FORBIDDEN');
    expect(net.requests).toHaveLength(2);
  });

  it('falls back to granting and revoking the difference when set_roles is missing', async () => {
    const missing = {
      status: 404,
      json: {
        code: 'PGRST202',
        message: 'Could not find the function public.set_roles',
        details: null,
        hint: null,
      },
    };
    net.queue(missing, { json: ['customer', 'agent'] }, { status: 204 }, { status: 204 });
    await backend.admin.setRoles(OTHER, ['agent', 'admin']);
    const [, read, grant, revoke] = net.requests as [
      RecordedRequest,
      RecordedRequest,
      RecordedRequest,
      RecordedRequest,
    ];
    expectRequest(read, 'POST', '/rest/v1/rpc/user_roles');
    expect(json(read)).toEqual({ p_user_id: OTHER });
    expectRequest(grant, 'POST', '/rest/v1/rpc/grant_role');
    expect(json(grant)).toEqual({ p_user_id: OTHER, p_role: 'admin' });
    expectRequest(revoke, 'POST', '/rest/v1/rpc/revoke_role');
    expect(json(revoke)).toEqual({ p_user_id: OTHER, p_role: 'customer' });
    expect((await rejection(backend.admin.setRoles(OTHER, ['wizard']))).code).toBe('INVALID_INPUT');
    expect(net.requests).toHaveLength(4);
  });

  it('announces USER_UPDATED with the new roles when admins change their own', async () => {
    const events: [string, readonly string[] | undefined][] = [];
    backend.auth.onChange((e, s) => events.push([e, s?.user.roles]));
    net.queue({ status: 204 }, { json: ['admin', 'agent'] });
    await backend.admin.setRoles(USER_ID, ['admin', 'agent']);
    expect(events).toContainEqual(['USER_UPDATED', ['admin', 'agent']]);
  });
});
