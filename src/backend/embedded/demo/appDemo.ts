import type { AppModel } from '../../../model/appModel.ts';
import { modelOf, type SpecOrModel } from '../../../model/modelOf.ts';
import type { DemoAccount } from './demoAccount.ts';
import type { DemoPerson, DemoPlan } from './demoPlan.ts';

/**
 * An app's own demo data: the extension point through which an app (not the library) decides
 * what a first visitor sees. Written in a `demo.ts` beside the app's `spec.ts`
 * (`export default defineDemo({...})`); `ninefold dev`/`build` load it with the spec and register
 * it (src/cli/devServer.ts, src/cli/snapshotPlugin.ts); tests register it themselves. An app
 * without one gets one demo account per role and no rows. See docs/architecture.md.
 */
export interface AppDemo {
  /** The demo rows, people and history, deterministic for a given `now`. */
  plan?(model: AppModel, now: Date): DemoPlan;
  /**
   * The demo accounts as people with the profile fields the app's flows need (a manager, an
   * organisation); used for the accounts-only seeding too. Receives one person per account.
   */
  people?(model: AppModel, people: DemoPerson[], accounts: readonly DemoAccount[]): DemoPerson[];
  /**
   * The demo accounts, given the default one per role: an app adds those its flows need to be
   * walkable by one visitor (each with its own `key`, e.g. a second finance account where the
   * finance approver may not also pay).
   */
  accounts?(model: AppModel, accounts: DemoAccount[]): DemoAccount[];
}

/**
 * Declares an app's demo data (identity function, for types).
 *
 * @example
 * // examples/helpdesk/demo.ts
 * export default defineDemo({ plan: (model, now) => helpdeskDemo(model, now) });
 */
export function defineDemo(demo: AppDemo): AppDemo {
  return demo;
}

// One registry per process, not per module instance: `ninefold dev` re-reads the spec (and its
// demo.ts) without jiti's module cache, so this file can be loaded more than once, and each copy
// must see what the others registered.
const REGISTRY = Symbol.for('ninefold.demoRegistry');
const shared = globalThis as Record<symbol, WeakMap<AppModel, AppDemo> | undefined>;
if (!shared[REGISTRY]) shared[REGISTRY] = new WeakMap<AppModel, AppDemo>();
const registry: WeakMap<AppModel, AppDemo> = shared[REGISTRY];

/**
 * Attaches an app's demo to its model (the one `resolve` gives for this spec object), so the
 * embedded backend seeds it.
 */
export function registerDemo<S extends SpecOrModel>(app: S, demo: AppDemo | undefined): S {
  if (demo) registry.set(modelOf(app), demo);
  return app;
}

/** The demo registered for an app, if any. */
export function demoOf(model: AppModel): AppDemo | undefined {
  return registry.get(model);
}
