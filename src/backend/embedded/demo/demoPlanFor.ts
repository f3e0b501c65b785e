import { modelOf, type SpecOrModel } from '../../../model/modelOf.ts';
import { demoOf } from './appDemo.ts';
import { demoAccountPeople } from './demoAccountPeople.ts';
import { demoAccounts } from './demoAccounts.ts';
import type { DemoPlan } from './demoPlan.ts';

/**
 * The demo data for an app: what its registered demo (`registerDemo`, an app's `demo.ts`)
 * plans; without one, its demo accounts only (one per role), which is enough to sign in and try
 * every screen.
 *
 * @example
 * demoPlanFor(registerDemo(helpdesk, helpdeskDemo), new Date()).rows.length; // hundreds
 */
export function demoPlanFor(app: SpecOrModel, now: Date): DemoPlan {
  const model = modelOf(app);
  const plan = demoOf(model)?.plan;
  if (plan) return plan(model, now);
  return { people: demoAccountPeople(model, demoAccounts(model)), rows: [], history: [] };
}
