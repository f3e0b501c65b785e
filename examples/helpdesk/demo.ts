import { defineDemo } from '../../src/backend/embedded/demo/appDemo.ts';
import type { DemoPerson } from '../../src/backend/embedded/demo/demoPlan.ts';
import { helpdeskDemo } from './demoData.ts';

/** Everyone has an organisation: customers the demo customer's, staff the desk's. */
function helpdeskPeople(_spec: unknown, people: DemoPerson[]): DemoPerson[] {
  for (const p of people)
    p.profile = { organisation: p.key === 'customer' ? 'Demo Ltd' : 'Ninefold Support' };
  return people;
}

/**
 * The helpdesk's demo data (the extension point is `AppDemo`, docs/architecture.md): tickets in
 * every state with comments, attachments and history, categories and saved replies.
 */
export default defineDemo({ plan: helpdeskDemo, people: helpdeskPeople });
