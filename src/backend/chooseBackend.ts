// The environment check on its own, without the adapters' dynamic imports: a hosted build's
// entry (app/startBackend.ts) imports this file, and importing loadBackend.ts would pull the
// embedded adapter (and PGlite's wasm and data files) into the build even where it is unused.

/**
 * The build-time environment that picks the backend (Vite exposes `VITE_*` variables to the
 * browser as `import.meta.env`):
 *
 * - `VITE_NINEFOLD_BACKEND`: `embedded` or `supabase`. Unset: `supabase` when both Supabase
 *   variables are set, otherwise `embedded`.
 * - `VITE_SUPABASE_URL`: the project URL, `https://<ref>.supabase.co`.
 * - `VITE_SUPABASE_ANON_KEY`: the anon / publishable key. Never the service-role (secret) key:
 *   everything in this environment ships to every visitor's browser.
 */
export interface BackendEnv {
  VITE_NINEFOLD_BACKEND?: string;
  VITE_SUPABASE_URL?: string;
  VITE_SUPABASE_ANON_KEY?: string;
}

export type BackendConfigProblem =
  | 'UNKNOWN_BACKEND'
  | 'MISSING_SUPABASE_URL'
  | 'MISSING_SUPABASE_ANON_KEY'
  | 'INVALID_SUPABASE_URL'
  | 'SERVICE_ROLE_KEY_IN_BROWSER';

/** A configuration mistake found before any backend starts; the message says how to fix it. */
export class BackendConfigError extends Error {
  readonly code: BackendConfigProblem;
  constructor(code: BackendConfigProblem, message: string) {
    super(message);
    this.name = 'BackendConfigError';
    this.code = code;
  }
}

function jwtRole(key: string): unknown {
  const payload = key.split('.')[1];
  if (key.split('.').length !== 3 || !payload) return undefined;
  try {
    const base64 = payload
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(payload.length / 4) * 4, '=');
    const claims: unknown = JSON.parse(atob(base64));
    return typeof claims === 'object' && claims !== null ? (claims as { role?: unknown }).role : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a key grants more than the anon role: a legacy JWT key whose `role` is `service_role`,
 * or a new-style secret key (`sb_secret_…`). Such a key bypasses row-level security.
 *
 * @example
 * isPrivilegedKey('sb_secret_abc'); // true
 * isPrivilegedKey('sb_publishable_abc'); // false
 */
export function isPrivilegedKey(key: string): boolean {
  const k = key.trim();
  return k.startsWith('sb_secret_') || jwtRole(k) === 'service_role';
}

/** The adapter the environment asks for, with its Supabase settings checked. Pure. */
export function chooseBackend(
  env: BackendEnv,
): { kind: 'embedded' } | { kind: 'supabase'; url: string; anonKey: string } {
  const url = env.VITE_SUPABASE_URL?.trim() || undefined;
  const anonKey = env.VITE_SUPABASE_ANON_KEY?.trim() || undefined;
  const wanted = env.VITE_NINEFOLD_BACKEND?.trim() || (url && anonKey ? 'supabase' : 'embedded');
  // Checked whatever the choice: a secret in the browser environment is shipped even if unused.
  if (anonKey && isPrivilegedKey(anonKey)) {
    throw new BackendConfigError(
      'SERVICE_ROLE_KEY_IN_BROWSER',
      'VITE_SUPABASE_ANON_KEY holds a service-role (secret) key. It bypasses every row-level security rule and would be shipped to every visitor. Use the anon (publishable) key from the project API settings, keep the service-role key out of any VITE_ variable, and rotate it if this build was ever deployed.',
    );
  }
  if (wanted === 'embedded') return { kind: 'embedded' };
  if (wanted !== 'supabase') {
    throw new BackendConfigError(
      'UNKNOWN_BACKEND',
      `VITE_NINEFOLD_BACKEND is "${wanted}"; use "embedded" (the database runs in the browser) or "supabase" (a hosted project).`,
    );
  }
  if (!url) {
    throw new BackendConfigError(
      'MISSING_SUPABASE_URL',
      'VITE_NINEFOLD_BACKEND is "supabase" but VITE_SUPABASE_URL is not set. Set it to the project URL (https://<ref>.supabase.co).',
    );
  }
  if (!/^https?:\/\/[^/\s]+/.test(url)) {
    throw new BackendConfigError('INVALID_SUPABASE_URL', `VITE_SUPABASE_URL "${url}" is not an http(s) URL.`);
  }
  if (!anonKey) {
    throw new BackendConfigError(
      'MISSING_SUPABASE_ANON_KEY',
      'VITE_NINEFOLD_BACKEND is "supabase" but VITE_SUPABASE_ANON_KEY is not set. Set it to the anon (publishable) key.',
    );
  }
  return { kind: 'supabase', url, anonKey };
}
