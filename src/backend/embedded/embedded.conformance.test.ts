import helpdesk from '../../../examples/helpdesk/spec.ts';
import { runConformance } from '../conformance/runConformance.ts';
import { createEmbeddedBackend } from './createEmbeddedBackend.ts';
import { demoAccounts } from './demo/demoAccounts.ts';
import { seedDemoAccounts } from './demo/seedDemoAccounts.ts';

const account = (role: string) => {
  const a = demoAccounts(helpdesk).find((x) => x.role === role);
  if (!a) throw new Error(`no demo account for ${role}`);
  return { email: a.email, password: a.password };
};

// The embedded adapter on in-process PGlite (memory://), the helpdesk migration and its demo accounts.
runConformance(helpdesk, {
  makeBackend: async ({ now }) => {
    const backend = await createEmbeddedBackend({ spec: helpdesk, now });
    await backend.asOwner((tx) => seedDemoAccounts(tx, helpdesk));
    return backend;
  },
  accounts: { customer: account('customer'), agent: account('agent'), admin: account('admin') },
  controlsClock: true,
});
