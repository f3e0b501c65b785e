import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeJwt } from '../backend/supabase/testing/fakeSession.ts';
import { backendBuildChoice } from './backendEnv.ts';

const ANON = fakeJwt({ iss: 'supabase', ref: 'abcdefgh', role: 'anon', exp: 4102444800 });
const SERVICE = fakeJwt({ iss: 'supabase', ref: 'abcdefgh', role: 'service_role', exp: 4102444800 });
const URL_ = 'https://abcdefgh.supabase.co';
const NAMES = ['VITE_NINEFOLD_BACKEND', 'VITE_SUPABASE_URL', 'VITE_SUPABASE_ANON_KEY'] as const;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ninefold-env-'));
  // The developer's own shell must not decide these tests.
  for (const name of NAMES) vi.stubEnv(name, undefined);
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

const define = (kind: string) => ({ 'import.meta.env.VITE_NINEFOLD_BACKEND': JSON.stringify(kind) });

describe('backendBuildChoice', () => {
  it('is embedded with no environment at all', () => {
    expect(backendBuildChoice('production', dir)).toEqual({ kind: 'embedded', define: define('embedded') });
  });

  it('reads .env, lets .env.<mode> override it, and lets the process environment override both', () => {
    writeFileSync(join(dir, '.env'), `VITE_SUPABASE_URL=${URL_}\nVITE_SUPABASE_ANON_KEY=${ANON}\n`);
    // Both Supabase variables and no explicit choice: supabase.
    expect(backendBuildChoice('production', dir).kind).toBe('supabase');
    writeFileSync(join(dir, '.env.development'), 'VITE_NINEFOLD_BACKEND=embedded\n');
    expect(backendBuildChoice('development', dir).kind).toBe('embedded');
    expect(backendBuildChoice('production', dir)).toEqual({ kind: 'supabase', define: define('supabase') });
    vi.stubEnv('VITE_NINEFOLD_BACKEND', 'embedded');
    expect(backendBuildChoice('production', dir).kind).toBe('embedded');
  });

  it('refuses a service-role key before anything is built, whichever backend is chosen', () => {
    writeFileSync(join(dir, '.env'), `VITE_NINEFOLD_BACKEND=embedded\nVITE_SUPABASE_ANON_KEY=${SERVICE}\n`);
    expect(() => backendBuildChoice('production', dir)).toThrow(/service-role \(secret\) key/);
  });

  it('names what is missing for a hosted build', () => {
    writeFileSync(join(dir, '.env'), 'VITE_NINEFOLD_BACKEND=supabase\n');
    expect(() => backendBuildChoice('production', dir)).toThrow(/VITE_SUPABASE_URL is not set/);
  });
});
