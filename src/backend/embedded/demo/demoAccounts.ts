import type { AppSpec } from '../../../spec/types.ts';
import { demoOf } from './appDemo.ts';

// The seeding (hashing, inserts, profiles) is in seedDemoAccounts.ts: the sign-in screen lists
// these accounts on the first screen's path, which must not carry the database code with it.

export interface DemoAccount {
  /** Names the account in the demo plan (`ref(key)`); the role when absent (one account per role). */
  key?: string;
  role: string;
  email: string;
  password: string;
  name: string;
}

/**
 * One demo account per role, with a password anyone may read (`demo-<role>`): the sign-in screen
 * shows them. Emails use the reserved `.test` domain so nothing is ever sent anywhere. An app's
 * registered demo (`AppDemo.accounts`) may add accounts its flows need (a second finance
 * account in expenses, since whoever approves for finance may not also pay).
 *
 * @example
 * demoAccounts(helpdesk)[0]; // { role: 'customer', email: 'customer@demo.test', password: 'demo-customer', ... }
 */
export function demoAccounts(spec: AppSpec): DemoAccount[] {
  const base = Object.entries(spec.roles.roles).map(([role, r]) => ({
    role,
    email: `${role.toLowerCase()}@demo.test`,
    password: `demo-${role}`,
    name: `Demo ${r.label}`,
  }));
  const own = demoOf(spec)?.accounts;
  return own ? own(spec, base) : base;
}
