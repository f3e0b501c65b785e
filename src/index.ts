/**
 * Ninefold: one nine-section application specification → a React app, a Postgres migration that
 * enforces every rule, and an embedded PGlite backend.
 *
 * This entry exports everything (for Node, tests and scripts). Browser code imports the subpaths
 * (`ninefold/spec`, `ninefold/react`, `ninefold/embedded`, `ninefold/supabase`), so a bundle holds
 * only what it uses: bundlers emit PGlite's WebAssembly and worker for every module they reach, even
 * one tree-shaking drops, so a hosted build must never reach `ninefold/embedded`. `ninefold/compiler`
 * holds the loader and the compilers for build tools.
 *
 * @example
 * import { defineApp } from 'ninefold';
 * export default defineApp({ purpose: { name: 'Helpdesk', summary: '…', users: ['Agents'] }, … });
 */

export * from './backend/embedded/index.ts';
export * from './backend/loadBackend.ts';
export * from './backend/supabase/index.ts';
export * from './backend/types.ts';
export type { Diagnostic } from './diagnostics.ts';
export * from './react/index.ts';
export * from './spec/index.ts';
