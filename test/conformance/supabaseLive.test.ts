/**
 * The shared conformance suite against a live Supabase project. No project is reachable in the
 * default test run, so this skips with one line unless SUPABASE_URL, SUPABASE_ANON_KEY and
 * SUPABASE_SERVICE_ROLE_KEY are set. The project must have the helpdesk migration pushed
 * (`ninefold sql examples/helpdesk --target supabase`, `supabase db push`). The service-role key
 * is used here, in Node, only to create the demo accounts; the backend under test gets the anon key.
 * Agent and admin roles are granted through SUPABASE_DB_URL (a direct Postgres connection) when
 * given; otherwise they must already be granted (docs/hosting.md, "Create the first admin").
 */
import { createClient } from '@supabase/supabase-js';
import pg from 'pg';
import { describe } from 'vitest';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { demoAccounts } from '../../src/backend/embedded/demo/demoAccounts.ts';
import { createSupabaseBackend } from '../../src/backend/supabase/createSupabaseBackend.ts';
import { demoCredentials } from './accounts.ts';
import { helpdeskSample, helpdeskScenarios } from './helpdesk.ts';
import { runConformance } from './runConformance.ts';

const url = process.env.SUPABASE_URL;
const anonKey = process.env.SUPABASE_ANON_KEY;
const serviceKey = process.env.SUPABASE_SERVICE_ROLE_KEY;
const dbUrl = process.env.SUPABASE_DB_URL;
const webSocket = (globalThis as { WebSocket?: typeof WebSocket }).WebSocket;

const missing = [
  ['SUPABASE_URL', url],
  ['SUPABASE_ANON_KEY', anonKey],
  ['SUPABASE_SERVICE_ROLE_KEY', serviceKey],
]
  .filter(([, v]) => !v)
  .map(([k]) => k);
const skipReason =
  missing.length > 0
    ? `no live Supabase project configured (${missing.join(', ')} not set)`
    : !webSocket
      ? 'no WebSocket in this Node for Realtime (use Node 22+, or NODE_OPTIONS=--experimental-websocket on Node 20)'
      : undefined;

if (skipReason) console.log(`[supabase live conformance] skipped: ${skipReason}`);

const accounts = demoAccounts(helpdesk);

/** Creates the demo accounts if missing (service role, Node only) and grants their roles. */
async function prepareAccounts(): Promise<void> {
  const admin = createClient(url ?? '', serviceKey ?? '', {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: webSocket ? { transport: webSocket } : {},
  });
  for (const a of accounts) {
    const { error } = await admin.auth.admin.createUser({
      email: a.email,
      password: a.password,
      email_confirm: true,
      user_metadata: { name: a.name },
    });
    if (error && error.code !== 'email_exists' && error.status !== 422) throw error;
  }
  if (!dbUrl) return;
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    for (const a of accounts) {
      await client.query(
        `delete from app.user_roles where user_id = (select id from auth.users where email = $1) and role <> $2`,
        [a.email, a.role],
      );
      await client.query(
        'insert into app.user_roles (user_id, role) select id, $2 from auth.users where email = $1 on conflict do nothing',
        [a.email, a.role],
      );
    }
  } finally {
    await client.end();
  }
}

describe.skipIf(skipReason !== undefined)('supabase adapter on a live project', () => {
  runConformance(helpdesk, {
    makeBackend: async () => {
      await prepareAccounts();
      return createSupabaseBackend({
        spec: helpdesk,
        url: url ?? '',
        anonKey: anonKey ?? '',
        ...(webSocket ? { webSocket } : {}),
      });
    },
    accounts: demoCredentials(helpdesk),
    sample: helpdeskSample,
    scenarios: helpdeskScenarios,
    controlsClock: false,
  });
});
