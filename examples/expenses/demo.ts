import { defineDemo } from '../../src/backend/embedded/demo/appDemo.ts';
import { expensesDemo } from './demoData.ts';
import { expensesAccounts, expensesPeople } from './demoPeople.ts';

/**
 * The expenses app's demo data (the extension point is `AppDemo`, docs/architecture.md):
 * claims in every state across a few months, and demo accounts wired into a reporting line (two
 * finance accounts: one approves, the other pays).
 */
export default defineDemo({ plan: expensesDemo, people: expensesPeople, accounts: expensesAccounts });
