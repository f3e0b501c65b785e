import { demoAccounts } from '../../src/backend/embedded/demo/demoAccounts.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import type { Credentials } from './context.ts';

/** The demo accounts' credentials, by role (the accounts the suite signs in as). */
export function demoCredentials(spec: AppSpec): Record<string, Credentials> {
  return Object.fromEntries(
    demoAccounts(spec).map((a) => [a.role, { email: a.email, password: a.password }]),
  );
}
