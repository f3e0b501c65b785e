import { createClient, type SupabaseClientOptions } from '@supabase/supabase-js';
import { modelOf, type SpecOrModel } from '../../model/modelOf.ts';
import { errorContext } from '../errors/mapDatabaseError.ts';
import type { Backend } from '../types.ts';
import { createAdminPort } from './adminPort.ts';
import { createAuthPort } from './authPort.ts';
import { createCallsPort } from './callsPort.ts';
import { createDataPort } from './dataPort.ts';
import { entityModels } from './entityModel.ts';
import { createFilesPort } from './filesPort.ts';
import { createLivePort } from './livePort.ts';
import type { SupabaseContext } from './supabaseContext.ts';

type RealtimeOptions = NonNullable<SupabaseClientOptions<'public'>['realtime']>;

export interface SupabaseBackendOptions {
  spec: SpecOrModel;
  /** The project URL, `https://<ref>.supabase.co`. */
  url: string;
  /** The anon (publishable) key. Never the service-role key: that one bypasses every rule. */
  anonKey: string;
  /** Replaces `fetch` for every request (PostgREST, Auth, Storage, Functions, external calls). */
  fetch?: typeof fetch;
  /**
   * WebSocket constructor for Realtime. Browsers have one; Node before 22 does not (pass `ws`),
   * and tests pass a fake.
   */
  webSocket?: RealtimeOptions['transport'];
  /** Where supabase-js keeps the session; defaults to localStorage in browsers, memory elsewhere. */
  authStorage?: NonNullable<SupabaseClientOptions<'public'>['auth']>['storage'];
}

/**
 * The hosted backend: the `Backend` interface on a Supabase project through supabase-js. Every
 * rule is enforced by the project's database (the migration from `ninefold sql --target supabase`);
 * this adapter translates calls and maps every failure to a catalogue code.
 *
 * @example
 * const backend = createSupabaseBackend({ spec, url: import.meta.env.VITE_SUPABASE_URL, anonKey: import.meta.env.VITE_SUPABASE_ANON_KEY });
 * const { rows } = await backend.data.list('ticket', { filters: [{ field: 'status', op: 'eq', value: 'open' }] });
 */
export function createSupabaseBackend(options: SupabaseBackendOptions): Backend {
  const fetchImpl = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const client = createClient(options.url, options.anonKey, {
    global: { fetch: fetchImpl },
    auth: {
      persistSession: true,
      autoRefreshToken: true,
      // Email + password only: no OAuth redirect to pick a session out of the URL.
      detectSessionInUrl: false,
      ...(options.authStorage ? { storage: options.authStorage } : {}),
    },
    ...(options.webSocket ? { realtime: { transport: options.webSocket } } : {}),
  });
  // The spec is resolved once, here at the door; the ports read the model.
  const model = modelOf(options.spec);
  const errors = errorContext(model);
  const auth = createAuthPort(client, errors, model);
  const ctx: SupabaseContext = {
    model,
    client,
    models: entityModels(model),
    errors,
    auth,
  };
  let closed = false;
  return {
    kind: 'supabase',
    auth,
    data: createDataPort(ctx),
    files: createFilesPort(ctx),
    live: createLivePort(ctx),
    calls: createCallsPort(ctx, auth.current),
    admin: createAdminPort(ctx, auth.rolesChanged),
    async close() {
      if (closed) return;
      closed = true;
      auth.close();
      await client.removeAllChannels();
      await client.auth.stopAutoRefresh();
    },
  };
}
