import { demoAccountPeople } from '../../src/backend/embedded/demo/demoAccountPeople.ts';
import { demoAccounts } from '../../src/backend/embedded/demo/demoAccounts.ts';
import type { DemoHistory, DemoPerson, DemoPlan, DemoRow } from '../../src/backend/embedded/demo/demoPlan.ts';
import { ref } from '../../src/backend/embedded/demo/demoPlan.ts';
import { type Prng, person, prng } from '../../src/backend/embedded/demo/prng.ts';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** One demo organisation: who holds which role in it, its projects and what its tasks are about. */
interface DemoOrganisation {
  key: string;
  name: string;
  timeZone: string;
  workdayStartHour: number;
  workdayEndHour: number;
  currency: string;
  /** The founder (the organisation's `owner` field) and the members by role. */
  founder: string;
  owners: string[];
  admins: string[];
  members: string[];
  /** Rates per hour: the lowest and the highest. */
  rates: [number, number];
  projects: { key: string; name: string; code: string; lead: string; archived?: boolean; tasks: string[] }[];
}

const NORTHWIND_TASKS = {
  web: [
    'Wireframes for the new start page',
    'Move the blog to the new CMS',
    'Cookie banner that respects the choice',
    'Image sizes for phones',
    'Redirects from the old URLs',
    'Contact form spam filter',
    'Accessibility review of the navigation',
    'Search results page',
    'Footer links and legal pages',
    'Load test before the launch',
    'Dark mode colours',
    'Newsletter sign-up',
  ],
  app: [
    'Push notifications on Android',
    'Offline list of saved items',
    'Sign in with Apple',
    'Crash on opening a shared link',
    'App Store screenshots',
    'Onboarding screens',
    'Settings page layout',
    'Reduce the app size',
    'Biometric unlock',
    'Release notes for 2.4',
  ],
  brand: [
    'Logo variants',
    'Colour palette',
    'Letterhead and slides',
    'Brand book PDF',
    'Social media avatars',
  ],
};

const BLUEFIN_TASKS = {
  data: [
    'Nightly import of the CRM export',
    'Schema for the events table',
    'Retention policy for raw logs',
    'Dashboard of weekly sign-ups',
    'Backfill last year’s orders',
    'Alert when the import fails',
    'Document the data model',
    'Deduplicate customer records',
    'Cost report for the warehouse',
    'Access rules for analysts',
  ],
  portal: [
    'Invoice download page',
    'Password reset flow',
    'Usage chart per month',
    'Team invitations',
    'Support chat widget',
    'Two-factor sign-in',
    'Billing address form',
    'Audit log for admins',
    'Empty states and help texts',
  ],
  onboarding: [
    'Welcome e-mail series',
    'Checklist for new customers',
    'Kick-off call template',
    'Import guide',
  ],
};

const DESCRIPTIONS = [
  'See the notes from the last planning meeting.',
  'Agreed with the customer in the weekly call.',
  'Small, but it blocks the next release.',
  'Needs a quick review by the lead before it is done.',
  'Follow the checklist in the project folder.',
];

const NOTES = [
  'Research and first draft',
  'Implementation',
  'Review and fixes',
  'Call with the customer',
  'Testing on devices',
  'Pairing session',
  'Documentation',
  'Bug fixing',
];

function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** Whole quarters of an hour between `min` and `max`. */
function quarters(r: Prng, min: number, max: number): number {
  return r.int(min * 4, max * 4) / 4;
}

function organisations(people: (domain: string, n: number) => string[]): DemoOrganisation[] {
  const northwind = people('northwind.example', 5);
  const bluefin = people('bluefin.example', 7);
  return [
    {
      key: 'northwind',
      name: 'Northwind Studio',
      timeZone: 'Europe/Berlin',
      workdayStartHour: 9,
      workdayEndHour: 17,
      currency: 'EUR',
      founder: 'orgOwner',
      owners: ['orgOwner'],
      admins: ['orgAdmin', northwind[0] as string],
      members: ['projectLead', 'member', ...northwind.slice(1)],
      rates: [55, 140],
      projects: [
        {
          key: 'web',
          name: 'Website relaunch',
          code: 'WEB',
          lead: 'projectLead',
          tasks: NORTHWIND_TASKS.web,
        },
        {
          key: 'app',
          name: 'Mobile app',
          code: 'APP',
          lead: northwind[1] as string,
          tasks: NORTHWIND_TASKS.app,
        },
        {
          key: 'brand',
          name: 'Brand refresh',
          code: 'BRAND',
          lead: 'orgAdmin',
          archived: true,
          tasks: NORTHWIND_TASKS.brand,
        },
      ],
    },
    {
      key: 'bluefin',
      name: 'Bluefin Labs',
      timeZone: 'America/New_York',
      workdayStartHour: 8,
      workdayEndHour: 16,
      currency: 'USD',
      founder: bluefin[0] as string,
      owners: [bluefin[0] as string],
      admins: [bluefin[1] as string],
      // The demo member and the demo organisation administrator work here as plain members.
      members: ['member', 'orgAdmin', ...bluefin.slice(2)],
      rates: [70, 180],
      projects: [
        {
          key: 'data',
          name: 'Data platform',
          code: 'DATA',
          lead: bluefin[2] as string,
          tasks: BLUEFIN_TASKS.data,
        },
        {
          key: 'portal',
          name: 'Customer portal',
          code: 'PORTAL',
          lead: 'member',
          tasks: BLUEFIN_TASKS.portal,
        },
        {
          key: 'onboarding',
          name: 'Customer onboarding',
          code: 'ONB',
          lead: bluefin[1] as string,
          archived: true,
          tasks: BLUEFIN_TASKS.onboarding,
        },
      ],
    },
  ];
}

type Status = 'open' | 'in_progress' | 'overdue' | 'done';

/** What the row builders share: the random stream, the clock and the plan being filled. */
interface Planner {
  r: Prng;
  now: Date;
  rows: DemoRow[];
  history: DemoHistory[];
  ago(days: number, hours?: number): Date;
}

/** One organisation's people: everyone in it, who approves time, each member's hourly rate. */
interface Staff {
  everyone: string[];
  approvers: string[];
  rateOf: Map<string, number>;
  /** Hours already logged per person and day (at most a working day, so DAY_FULL never fires). */
  logged: Map<string, number>;
}

/** The organisation row, a membership and a rate for everyone in it. */
function organisationRows(p: Planner, org: DemoOrganisation): Staff {
  p.rows.push({
    entity: 'organisation',
    key: org.key,
    values: {
      name: org.name,
      owner: ref(org.founder),
      timeZone: org.timeZone,
      workdayStartHour: org.workdayStartHour,
      workdayEndHour: org.workdayEndHour,
      currency: org.currency,
    },
    createdAt: p.ago(120),
  });
  const everyone = [...org.owners, ...org.admins, ...org.members];
  const roleOf = (key: string) =>
    org.owners.includes(key) ? 'owner' : org.admins.includes(key) ? 'admin' : 'member';
  const rateOf = new Map<string, number>();
  for (const [i, key] of everyone.entries()) {
    const joined = p.ago(110 - i * 3);
    p.rows.push({
      entity: 'membership',
      key: `${org.key}-m-${key}`,
      values: { organisation: ref(org.key), person: ref(key), role: roleOf(key) },
      createdAt: joined,
    });
    const rate = 5 * Math.round(p.r.int(org.rates[0], org.rates[1]) / 5);
    rateOf.set(key, rate);
    p.rows.push({
      entity: 'rate',
      key: `${org.key}-r-${key}`,
      values: { organisation: ref(org.key), person: ref(key), hourlyRate: rate, currency: org.currency },
      createdAt: joined,
    });
  }
  return { everyone, approvers: [...org.owners, ...org.admins], rateOf, logged: new Map() };
}

/** One task with its history, then the time logged on it. */
function taskRows(
  p: Planner,
  org: DemoOrganisation,
  project: DemoOrganisation['projects'][number],
  title: string,
  at: { key: string; taskNo: number; staff: Staff },
): void {
  const { key, taskNo, staff } = at;
  const { r, now } = p;
  const status: Status = project.archived
    ? 'done'
    : r.weighted([
        ['open', 4],
        ['in_progress', 3],
        ['overdue', 2],
        ['done', 3],
      ] as const);
  // The demo member has work in both organisations; the rest is spread over everyone.
  const assignee = taskNo % 4 === 0 ? 'member' : r.pick(staff.everyone);
  const created = p.ago(r.int(6, 40), r.int(0, 8));
  const due =
    status === 'overdue'
      ? p.ago(r.int(1, 6))
      : status === 'done'
        ? new Date(created.getTime() + r.int(5, 20) * DAY)
        : new Date(now.getTime() + r.int(1, 30) * DAY);
  const startedAt = new Date(Math.min(created.getTime() + r.int(1, 72) * HOUR, now.getTime() - 2 * DAY));
  const doneAt = new Date(Math.min(startedAt.getTime() + r.int(1, 10) * DAY, now.getTime() - HOUR));
  const past = due.getTime() < now.getTime();
  p.rows.push({
    entity: 'task',
    key,
    values: {
      organisation: ref(org.key),
      project: ref(`${org.key}-${project.key}`),
      title,
      description: r.pick(DESCRIPTIONS),
      assignee: ref(assignee),
      createdBy: ref(project.lead),
      // A due date that has passed since was in the future when the task was planned.
      dueDate: isoDay(past ? new Date(now.getTime() + 7 * DAY) : due),
      priority: r.weighted([
        ['low', 2],
        ['normal', 5],
        ['high', 2],
        ['urgent', 1],
      ] as const),
      estimateHours: r.int(1, 16),
    },
    createdAt: created,
    updatedAt: status === 'done' ? doneAt : status === 'open' ? created : startedAt,
    ...(past ? { backdated: { dueDate: isoDay(due) } } : {}),
    ...(status !== 'open' ? { after: { status, ...(status === 'done' ? { doneAt } : {}) } } : {}),
  });
  const h = (transition: string, from: string, to: string, actor: string | null, when: Date) =>
    p.history.push({ entity: 'task', row: key, transition, from, to, actor, at: when });
  if (status !== 'open') h('start', 'open', 'in_progress', assignee, startedAt);
  if (status === 'done') h('finish', 'in_progress', 'done', assignee, doneAt);
  // The system marks a task overdue (a transition by time): the history names no actor.
  if (status === 'overdue') h('markOverdue', 'in_progress', 'overdue', null, new Date(due.getTime() + DAY));
  if (status === 'open') return;
  // Time logged by the assignee between the start and the end of the work (the last four weeks).
  const until = status === 'done' ? doneAt : now;
  const from = Math.max(startedAt.getTime(), p.ago(28).getTime());
  if (until.getTime() < from) return;
  for (let e = 0; e < r.int(1, 4); e++) {
    const day = new Date(from + r.next() * Math.max(0, until.getTime() - from));
    timeRow(p, org, staff, { task: key, entry: `${key}-e${e}`, assignee, day, taskDone: status === 'done' });
  }
}

/** One time entry of `assignee` on `day`: logged, or approved at their rate, or rejected. */
function timeRow(
  p: Planner,
  org: DemoOrganisation,
  staff: Staff,
  at: { task: string; entry: string; assignee: string; day: Date; taskDone: boolean },
): void {
  const { r, now } = p;
  const { task, entry, assignee, day, taskDone } = at;
  const dayKey = `${assignee}-${isoDay(day)}`;
  const hours = quarters(r, 0.5, 6);
  if ((staff.logged.get(dayKey) ?? 0) + hours > 8) return;
  staff.logged.set(dayKey, (staff.logged.get(dayKey) ?? 0) + hours);
  const loggedAt = new Date(Math.min(day.getTime() + 17 * HOUR, now.getTime() - HOUR));
  const state = r.weighted([
    ['approved', taskDone ? 8 : 4],
    ['logged', taskDone ? 0 : 4],
    ['rejected', 1],
  ] as const);
  const approver = r.pick(staff.approvers.filter((a) => a !== assignee));
  const approvedAt = new Date(Math.min(loggedAt.getTime() + r.int(2, 48) * HOUR, now.getTime() - HOUR / 2));
  const rate = staff.rateOf.get(assignee) ?? 0;
  const after =
    state === 'approved'
      ? {
          status: state,
          approvedBy: ref(approver),
          approvedAt,
          rate,
          billableAmount: Math.round(hours * rate * 100) / 100,
        }
      : state === 'rejected'
        ? { status: state }
        : undefined;
  p.rows.push({
    entity: 'timeEntry',
    key: entry,
    values: {
      organisation: ref(org.key),
      task: ref(task),
      person: ref(assignee),
      date: isoDay(day),
      hours,
      note: r.pick(NOTES),
      currency: org.currency,
    },
    createdAt: loggedAt,
    updatedAt: state === 'logged' ? loggedAt : approvedAt,
    ...(after ? { after } : {}),
  });
  if (state !== 'logged')
    p.history.push({
      entity: 'timeEntry',
      row: entry,
      transition: state === 'approved' ? 'approve' : 'reject',
      from: 'logged',
      to: state,
      actor: approver,
      at: approvedAt,
    });
}

/**
 * Deterministic demo data for Team Tasks: two organisations (Northwind Studio in Berlin, EUR;
 * Bluefin Labs in New York, USD), each with an owner, administrators and members (the demo
 * accounts among them), a rate for everyone, three projects (one archived), tasks in every state
 * and time entries of the last four weeks, logged, approved (with rate and billable amount) or
 * rejected. Dates are relative to `now`, which must be the real date (rules compare with today).
 *
 * @example
 * await seedDemo(tx, resolve(tasks), tasksDemo(tasks, new Date()));
 */
export function tasksDemo(model: Parameters<typeof demoAccounts>[0], now: Date): DemoPlan {
  const r = prng(20261126);
  const people: DemoPerson[] = demoAccountPeople(model, demoAccounts(model));
  const used = new Set(people.map((p) => p.email));
  const generated = (domain: string, n: number) =>
    Array.from({ length: n }, (_, i) => {
      const key = `${domain.split('.')[0]}${i}`;
      people.push({ key, ...person(r, domain, used), roles: ['member'] });
      return key;
    });
  const orgs = organisations(generated);
  const p: Planner = {
    r,
    now,
    rows: [],
    history: [],
    ago: (days, hours = 0) => new Date(now.getTime() - days * DAY - hours * HOUR),
  };
  for (const org of orgs) {
    const staff = organisationRows(p, org);
    let taskNo = 0;
    for (const [i, project] of org.projects.entries()) {
      p.rows.push({
        entity: 'project',
        key: `${org.key}-${project.key}`,
        values: {
          organisation: ref(org.key),
          name: project.name,
          code: project.code,
          description: `${project.name} for ${org.name}.`,
          lead: ref(project.lead),
          archived: false,
        },
        createdAt: p.ago(100 - i * 10),
        ...(project.archived ? { after: { archived: true } } : {}),
      });
      for (const title of project.tasks) {
        const key = `${org.key}-t${taskNo++}`;
        taskRows(p, org, project, title, { key, taskNo, staff });
      }
    }
  }
  // Parents before children: organisations, memberships and rates, projects, tasks, time entries.
  const order = ['organisation', 'membership', 'rate', 'project', 'task', 'timeEntry'];
  p.rows.sort((a, b) => order.indexOf(a.entity) - order.indexOf(b.entity));
  return { people, rows: p.rows, history: p.history };
}
