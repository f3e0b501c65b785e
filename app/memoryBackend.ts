import {
  createEmbeddedBackend,
  type EmbeddedBackend,
} from '../src/backend/embedded/createEmbeddedBackend.ts';
import { demoAccounts } from '../src/backend/embedded/demo/demoAccounts.ts';
import { seedDemoAccounts } from '../src/backend/embedded/demo/seedDemoAccounts.ts';
import type { AppSpec } from '../src/spec/types.ts';

/**
 * `?memory`: the backend in the page on a throw-away in-memory database (the end-to-end tests'
 * owner hook needs one). Its own chunk: the shipped mode (the worker) never loads the backend's
 * code into the tab.
 *
 * @example
 * const backend = await createMemoryBackend(spec, snapshot.version);
 */
export async function createMemoryBackend(spec: AppSpec, schemaVersion: string): Promise<EmbeddedBackend> {
  const backend = await createEmbeddedBackend({ spec, schemaVersion, dataDir: 'memory://' });
  const emails = demoAccounts(spec).map((a) => a.email);
  const have = await backend.asOwner(
    async (tx) =>
      (
        await tx.query<{ n: number }>('select count(*)::int as n from auth.users where email = any($1)', [
          emails,
        ])
      ).rows[0]?.n ?? 0,
  );
  if (have < emails.length) await backend.asOwner((tx) => seedDemoAccounts(tx, spec));
  return backend;
}
