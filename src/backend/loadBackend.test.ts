import { afterEach, describe, expect, it, vi } from 'vitest';
import { BackendConfigError, chooseBackend, isPrivilegedKey, loadBackend } from './loadBackend.ts';
import { deskSpec } from './supabase/testing/deskSpec.ts';
import { FakeRealtimeSocket } from './supabase/testing/fakeRealtimeSocket.ts';
import { fakeJwt } from './supabase/testing/fakeSession.ts';
import type { Backend } from './types.ts';

const loaded = vi.hoisted(() => ({ embedded: 0 }));

// Stands in for PGlite: counts evaluations, so a test sees whether the module was loaded at all.
vi.mock('./embedded/createEmbeddedBackend.ts', () => {
  loaded.embedded += 1;
  return {
    createEmbeddedBackend: async () => ({ kind: 'embedded' }) as unknown as Backend,
  };
});

const ANON = fakeJwt({ iss: 'supabase', ref: 'abcdefgh', role: 'anon', exp: 4102444800 });
const SERVICE = fakeJwt({ iss: 'supabase', ref: 'abcdefgh', role: 'service_role', exp: 4102444800 });
const URL_ = 'https://abcdefgh.supabase.co';

describe('chooseBackend', () => {
  it('picks embedded by default and supabase when configured', () => {
    expect(chooseBackend({})).toEqual({ kind: 'embedded' });
    expect(chooseBackend({ VITE_SUPABASE_URL: URL_ })).toEqual({ kind: 'embedded' });
    expect(chooseBackend({ VITE_SUPABASE_URL: URL_, VITE_SUPABASE_ANON_KEY: ANON })).toEqual({
      kind: 'supabase',
      url: URL_,
      anonKey: ANON,
    });
    expect(
      chooseBackend({
        VITE_NINEFOLD_BACKEND: 'embedded',
        VITE_SUPABASE_URL: URL_,
        VITE_SUPABASE_ANON_KEY: ANON,
      }),
    ).toEqual({ kind: 'embedded' });
  });

  it('explains missing or wrong settings', () => {
    const problem = (env: Parameters<typeof chooseBackend>[0]) => {
      try {
        chooseBackend(env);
      } catch (e) {
        expect(e).toBeInstanceOf(BackendConfigError);
        return (e as BackendConfigError).code;
      }
      return 'none';
    };
    expect(problem({ VITE_NINEFOLD_BACKEND: 'firebase' })).toBe('UNKNOWN_BACKEND');
    expect(problem({ VITE_NINEFOLD_BACKEND: 'supabase', VITE_SUPABASE_ANON_KEY: ANON })).toBe(
      'MISSING_SUPABASE_URL',
    );
    expect(problem({ VITE_NINEFOLD_BACKEND: 'supabase', VITE_SUPABASE_URL: URL_ })).toBe(
      'MISSING_SUPABASE_ANON_KEY',
    );
    expect(
      problem({
        VITE_NINEFOLD_BACKEND: 'supabase',
        VITE_SUPABASE_URL: 'abcdefgh',
        VITE_SUPABASE_ANON_KEY: ANON,
      }),
    ).toBe('INVALID_SUPABASE_URL');
  });

  it('refuses a service-role key in the browser environment, whichever backend is chosen', () => {
    expect(isPrivilegedKey(SERVICE)).toBe(true);
    expect(isPrivilegedKey('sb_secret_0123456789abcdef')).toBe(true);
    expect(isPrivilegedKey(ANON)).toBe(false);
    expect(isPrivilegedKey('sb_publishable_0123456789abcdef')).toBe(false);
    expect(isPrivilegedKey('not.a.jwt')).toBe(false);
    for (const key of [SERVICE, ` sb_secret_abc `]) {
      for (const kind of ['supabase', 'embedded']) {
        expect(() =>
          chooseBackend({
            VITE_NINEFOLD_BACKEND: kind,
            VITE_SUPABASE_URL: URL_,
            VITE_SUPABASE_ANON_KEY: key,
          }),
        ).toThrow(/service-role \(secret\) key/);
      }
    }
  });
});

describe('loadBackend', () => {
  let backend: Backend | undefined;
  afterEach(async () => {
    await backend?.close();
    backend = undefined;
  });

  it('loads only the hosted adapter for a Supabase environment (the embedded module is never imported)', async () => {
    backend = await loadBackend(
      deskSpec,
      { VITE_SUPABASE_URL: URL_, VITE_SUPABASE_ANON_KEY: ANON },
      {
        supabase: {
          webSocket: FakeRealtimeSocket as unknown as typeof WebSocket,
          fetch: async () => new Response('[]'),
        },
      },
    );
    expect(backend.kind).toBe('supabase');
    expect(loaded.embedded).toBe(0);
  });

  it('loads the embedded adapter by default', async () => {
    const b = await loadBackend(deskSpec, {});
    expect(b.kind).toBe('embedded');
    expect(loaded.embedded).toBe(1);
  });
});
