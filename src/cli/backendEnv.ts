import { loadEnv } from 'vite';
import { chooseBackend } from '../backend/chooseBackend.ts';

/** The backend a build is for, and the `define` entries that bake the choice into the bundle. */
export interface BackendBuildChoice {
  kind: 'embedded' | 'supabase';
  define: Record<string, string>;
}

/**
 * Reads the backend environment the way Vite does (`.env`, `.env.local`, `.env.<mode>`,
 * `.env.<mode>.local` in `envDir`, overridden by `VITE_*` variables of the process) and resolves
 * it with `chooseBackend`, so a build (or dev server) refuses a bad configuration, above all a
 * service-role key in `VITE_SUPABASE_ANON_KEY`, before anything is bundled.
 *
 * The resolved kind replaces `import.meta.env.VITE_NINEFOLD_BACKEND` in the bundle. With a
 * constant there, `app/startBackend.ts`'s branch on it is decided at build time and the other
 * adapter (PGlite, or supabase-js) is left out of the output altogether.
 *
 * @example
 * backendBuildChoice('production', process.cwd());
 * // { kind: 'embedded', define: { 'import.meta.env.VITE_NINEFOLD_BACKEND': '"embedded"' } }
 */
export function backendBuildChoice(mode: string, envDir: string): BackendBuildChoice {
  const { kind } = chooseBackend(loadEnv(mode, envDir, 'VITE_'));
  return { kind, define: { 'import.meta.env.VITE_NINEFOLD_BACKEND': JSON.stringify(kind) } };
}
