import { defineDemo } from '../../src/backend/embedded/demo/appDemo.ts';
import { tasksDemo } from './demoData.ts';
import { tasksAccounts } from './demoPeople.ts';

/**
 * Team Tasks' demo data (the extension point is `AppDemo`, docs/architecture.md): two
 * organisations in different time zones, each with members in every role, projects, tasks in every
 * state (overdue ones included) and time entries, approved ones with their billable amount; and
 * demo accounts for every role in an organisation (owner, administrator, project lead, member).
 */
export default defineDemo({ plan: tasksDemo, accounts: tasksAccounts });
