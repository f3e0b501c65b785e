import type { Transaction } from '@electric-sql/pglite';
import type { AppModel } from '../../model/appModel.ts';
import { modelOf } from '../../model/modelOf.ts';
import {
  createEmbeddedBackend,
  type EmbeddedBackend,
  type EmbeddedBackendOptions,
} from './createEmbeddedBackend.ts';
import { demoAccountPeople } from './demo/demoAccountPeople.ts';
import { demoAccounts } from './demo/demoAccounts.ts';
import type { DemoPerson } from './demo/demoPlan.ts';
import { demoPlanFor } from './demo/demoPlanFor.ts';
import { seedDemo } from './demo/seedDemo.ts';
import { seedDemoAccounts } from './demo/seedDemoAccounts.ts';

/** What an assembled embedded backend starts with besides the schema. */
export interface AssembleEmbeddedOptions extends EmbeddedBackendOptions {
  /**
   * `accounts`: the demo accounts (one per role), when missing; `data`: the app's whole demo (its
   * registered plan for `demoNow`, or the accounts' people), written as the owner.
   */
  demo?: 'accounts' | 'data';
  /** The date the demo data is planned for (default: now). */
  demoNow?: Date;
  /** The demo accounts as people (default: the app's registered demo makes them, `demoAccountPeople`). */
  demoPeople?: readonly DemoPerson[];
}

/**
 * The one place an embedded backend is put together in a process: the worker's leader
 * (serveBackend.ts), the snapshot builder (snapshot.ts) and the tests build it here; `startBackend` (src/backend/startBackend.ts) chooses where it runs.
 *
 * @example
 * const backend = await assembleEmbedded({ spec: helpdesk, dataDir: 'memory://', demo: 'accounts' });
 */
export async function assembleEmbedded(options: AssembleEmbeddedOptions): Promise<EmbeddedBackend> {
  const { demo, demoNow, demoPeople, ...rest } = options;
  const model = modelOf(options.spec);
  const backend = await createEmbeddedBackend({ ...rest, spec: model });
  if (demo === 'accounts') await ensureDemoAccounts(backend, model, demoPeople);
  else if (demo === 'data')
    await backend.asOwner((tx) => seedDemo(tx, model, demoPlanFor(model, demoNow ?? new Date())));
  return backend;
}

/** Creates the demo accounts when any is missing: hashing their passwords costs a few hundred ms, so a return visit skips it. */
async function ensureDemoAccounts(
  backend: { asOwner: <T>(fn: (tx: Transaction) => Promise<T>) => Promise<T> },
  model: AppModel,
  given: readonly DemoPerson[] | undefined,
): Promise<void> {
  const people = given ?? demoAccountPeople(model, demoAccounts(model));
  // The accounts are the people with a password (the others only complete the demo's profiles).
  const emails = people.filter((p) => p.password).map((p) => p.email);
  const have = await backend.asOwner(
    async (tx) =>
      (
        await tx.query<{ n: number }>('select count(*)::int as n from auth.users where email = any($1)', [
          emails,
        ])
      ).rows[0]?.n ?? 0,
  );
  if (have < emails.length) await backend.asOwner((tx) => seedDemoAccounts(tx, model, people));
}
