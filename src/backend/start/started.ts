import type { BrowserBackendOptions } from '../embedded/browser/createBrowserBackend.ts';
import type { SupabaseBackendOptions } from '../supabase/createSupabaseBackend.ts';
import type { Backend } from '../types.ts';

/** A backend whose calls can be made now, and when its database is open. */
export interface Started<B extends Backend = Backend> {
  backend: B;
  /** Settles when the backend is ready (at once for a hosted one); rejects with why it cannot be. */
  ready: Promise<void>;
  /** Whether a session token was stored when it started (someone may still be signed in). */
  signedIn: boolean;
}

/** How the embedded backend runs: in the app's worker (a browser), or in this process (Node, tests). */
export type EmbeddedStartOptions = Omit<BrowserBackendOptions, 'spec'>;
export type HostedStartOptions = Omit<SupabaseBackendOptions, 'spec' | 'url' | 'anonKey'>;
