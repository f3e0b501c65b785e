/**
 * The embedded backend: PGlite (Postgres in WebAssembly) in the browser or in Node, with the same
 * migration, rules and errors as a hosted project. Import it from `ninefold/embedded` so that only
 * an embedded build carries PGlite.
 */
export {
  type BrowserBackendOptions,
  createBrowserBackend,
} from './browser/createBrowserBackend.ts';
export {
  appSlug,
  createEmbeddedBackend,
  type EmbeddedBackend,
  type EmbeddedBackendOptions,
} from './createEmbeddedBackend.ts';
export { demoAccounts } from './demo/demoAccounts.ts';
export { seedDemoAccounts } from './demo/seedDemoAccounts.ts';
