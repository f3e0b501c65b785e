/**
 * The hosted adapter of an app with transitions that happen by time asks the server to run what is
 * due (`ninefold_run_timed`, the server's clock) before a read, so a row is never shown in a state
 * time has left between two pg_cron runs; an app without them sends no such request.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loanSpec } from '../../../test/enforcement/support/loanSpec.ts';
import type { Backend } from '../types.ts';
import { createSupabaseBackend } from './createSupabaseBackend.ts';
import { deskSpec } from './testing/deskSpec.ts';
import { FakeRealtimeSocket } from './testing/fakeRealtimeSocket.ts';
import { ACCESS_TOKEN, sessionBody, USER_ID } from './testing/fakeSession.ts';
import { type RecordingFetch, recordingFetch } from './testing/recordingFetch.ts';

const LOAN = '11111111-2222-4333-8444-555555555555';
let backend: Backend | undefined;
afterEach(async () => {
  await backend?.close();
});

async function signedIn(spec: typeof loanSpec): Promise<{ net: RecordingFetch; backend: Backend }> {
  const net = recordingFetch();
  backend = createSupabaseBackend({
    spec,
    url: 'https://abcdefgh.supabase.co',
    anonKey: 'anon-key-for-tests',
    fetch: net.fetch,
    webSocket: FakeRealtimeSocket as unknown as typeof WebSocket,
  });
  net.queue({ json: sessionBody() }, { json: ['member'] });
  await backend.auth.signIn({ email: 'ada@example.com', password: 'correct horse' });
  net.requests.length = 0;
  return { net, backend };
}

describe('transitions by time through the hosted adapter (recorded fetch)', () => {
  it('runs what is due, as the signed-in user, before reading a row', async () => {
    const { net, backend } = await signedIn(loanSpec);
    net.queue(
      { json: 1 },
      {
        json: {
          id: LOAN,
          created_at: '2027-03-01T10:00:00+00:00',
          updated_at: '2027-03-28T22:00:00+00:00',
          version: 2,
          title: 'A book',
          due_date: '2027-03-28',
          status: 'overdue',
          borrower: USER_ID,
          overdue_since: '2027-03-28T22:00:00+00:00',
        },
      },
    );
    const row = await backend.data.get('loan', LOAN);
    expect(row.status).toBe('overdue');
    const [run, read] = net.requests;
    expect(run?.method).toBe('POST');
    expect(run?.url.pathname).toBe('/rest/v1/rpc/ninefold_run_timed');
    expect(run?.headers.get('authorization')).toBe(`Bearer ${ACCESS_TOKEN}`);
    expect(read?.url.pathname).toBe('/rest/v1/loan');
  });

  it('sends no such request for an app without transitions by time', async () => {
    const { net, backend } = await signedIn(deskSpec);
    net.queue({ json: null });
    await backend.data.get('ticket', LOAN).catch(() => undefined);
    expect(net.requests.map((r) => r.url.pathname)).toEqual(['/rest/v1/ticket']);
  });
});
