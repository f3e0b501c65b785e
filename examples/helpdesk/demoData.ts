import { demoAccountPeople } from '../../src/backend/embedded/demo/demoAccountPeople.ts';
import { demoAccounts } from '../../src/backend/embedded/demo/demoAccounts.ts';
import type { DemoHistory, DemoPerson, DemoPlan, DemoRow } from '../../src/backend/embedded/demo/demoPlan.ts';
import { ref } from '../../src/backend/embedded/demo/demoPlan.ts';
import { person, prng } from '../../src/backend/embedded/demo/prng.ts';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

const CATEGORIES: [string, string, boolean][] = [
  ['Billing', 'Invoices, payments, refunds and VAT questions.', true],
  ['Login and accounts', 'Passwords, two-factor codes, locked accounts and user seats.', true],
  ['Integrations', 'Slack, Google Workspace, webhooks and the public API.', true],
  ['Mobile app', 'The iOS and Android apps: sync, notifications and crashes.', true],
  ['Reports', 'Dashboards, exports and scheduled reports.', true],
  ['Data import', 'CSV and spreadsheet imports, migrations from other tools.', true],
  ['Performance', 'Slow pages, timeouts and outages.', true],
  ['Legacy desktop client', 'The old Windows client, kept for existing tickets only.', false],
];

const BAD_RATING_COMMENTS = [
  'The answer did not fix the problem; I found a workaround myself.',
  'I had to explain the problem twice before anyone understood it.',
  'Solved, but the same error came back the next week.',
];

const PROBLEMS: Record<string, string[]> = {
  Billing: [
    'Invoice PDF will not download',
    'Charged twice for the March subscription',
    'VAT number missing on invoices',
    'Need a copy of last year’s invoices',
    'Card declined although it works elsewhere',
    'Refund for cancelled seats not received',
  ],
  'Login and accounts': [
    'Two-factor codes are rejected',
    'Locked out after password reset',
    'Cannot invite a new colleague',
    'Password reset e-mail never arrives',
    'SSO login loops back to the start page',
  ],
  Integrations: [
    'Slack notifications stopped yesterday',
    'Webhook deliveries fail with 401',
    'Google Calendar sync duplicates events',
    'API returns 429 far below our limit',
    'Zapier trigger no longer fires',
  ],
  'Mobile app': [
    'Android app crashes when opening attachments',
    'Push notifications arrive hours late',
    'iOS app logs me out every day',
    'Offline changes lost after sync',
  ],
  Reports: [
    'Monthly report shows the wrong totals',
    'CSV export cuts off after 1000 rows',
    'Scheduled report e-mail is empty',
    'Dashboard chart will not load',
  ],
  'Data import': [
    'Import fails on row 2 with no message',
    'Dates swapped between day and month after import',
    'Special characters garbled in imported names',
  ],
  Performance: [
    'Search takes more than ten seconds',
    'Timeouts when saving large projects',
    'Everything is slow since this morning',
  ],
  'Legacy desktop client': ['Desktop client will not start after Windows update'],
};

/**
 * Where or when a problem shows, to tell apart tickets about the same problem (a queue of
 * identical titles reads as broken demo data). Appended in turn, without a random draw, so the
 * rest of the demo stays as it was.
 */
const CONTEXTS = [
  'for the Rotterdam office',
  'on the staging account',
  'since the last update',
  'for one user only',
  'after the browser update',
  'in the EU workspace',
  'on Safari',
  'for our new colleagues',
  'again this week',
  'in the shared workspace',
  'for the finance team',
  'on the old plan',
  'for the Berlin team',
  'on two laptops',
  'since Monday',
  'for external guests',
  'on the test tenant',
  'for the sales team',
  'after the migration',
  'on the VPN',
  'for admins only',
  'in the trial account',
  'on Firefox',
  'for the support team',
];

/** The problem's title, first as it is, then with the next context it has not had yet. */
function distinctTitle(problem: string, used: Map<string, number>): string {
  const n = used.get(problem) ?? 0;
  used.set(problem, n + 1);
  if (n === 0) return problem;
  const context = CONTEXTS[(n - 1) % CONTEXTS.length] ?? '';
  const round = Math.floor((n - 1) / CONTEXTS.length);
  return `${problem} ${context}${round > 0 ? ` (${round + 1})` : ''}`;
}

const DETAILS = [
  'It started after the update on Monday and happens every time.',
  'Two colleagues see the same thing; a third one does not.',
  'I tried another browser and clearing the cache, no change.',
  'Steps: open the page, click the button, wait. Nothing happens and no error is shown.',
  'This blocks our month-end closing, so it is fairly urgent for us.',
  'Screenshots are attached. Our account is the one for the Rotterdam office.',
  'It worked fine last week. We did not change any settings on our side.',
];

const REPLIES = [
  'Thanks for the details, I can reproduce it and I am looking into it now.',
  'Could you tell me which browser and version you are using?',
  'We pushed a fix this morning; could you try again and let us know?',
  'I have reset this on our side. It may take up to ten minutes to take effect.',
  'Could you send a screenshot of the error message?',
];

const CUSTOMER_REPLIES = [
  'Thanks, that fixed it!',
  'Still the same for me, unfortunately.',
  'Chrome 131 on Windows 11. A colleague on a Mac sees it too.',
  'Screenshot attached. It happens right after clicking Save.',
];

const INTERNAL = [
  'Looks like the same root cause as last week’s billing incident.',
  'Escalated to engineering, waiting for the on-call developer.',
  'Customer is on the enterprise plan, keep an eye on the response time.',
];

const RESOLUTIONS = [
  'Reset the two-factor secret and sent new setup instructions.',
  'Regenerated the invoice with the VAT number and e-mailed it.',
  'Fixed by the hotfix released this morning; confirmed with the customer.',
  'Refunded the duplicate charge; it shows up within five working days.',
  'Raised the API rate limit for this account to the contracted level.',
];

const TARGET_HOURS: Record<string, number> = { urgent: 8, high: 24, normal: 72, low: 168 };

/**
 * Deterministic demo data for the helpdesk: a support team, customers from a dozen companies,
 * categories, about 260 tickets in every state with conversations, internal notes, saved replies,
 * attachments and history. Dates are relative to `now`, so the desk always looks current.
 *
 * @example
 * await seedDemo(tx, resolve(helpdesk), helpdeskDemo(helpdesk, new Date()));
 */
export function helpdeskDemo(spec: Parameters<typeof demoAccounts>[0], now: Date): DemoPlan {
  const r = prng(20260101);
  const used = new Set<string>();
  const people: DemoPerson[] = demoAccountPeople(spec, demoAccounts(spec));
  for (let i = 0; i < 5; i++) {
    const p = person(r, 'support.example.test', used);
    people.push({ key: `agent${i}`, ...p, roles: ['agent'], profile: { organisation: 'Ninefold Support' } });
  }
  const orgs = [
    'Acme Logistics',
    'Brightside Dental',
    'Copperleaf Studio',
    'Delta Freight',
    'Evergreen Schools',
    'Fjord Analytics',
    'Granite Legal',
    'Harbour Foods',
    'Iris Health',
    'Juniper Hotels',
    'Keystone Retail',
  ];
  for (let i = 0; i < 40; i++) {
    const org = r.pick(orgs);
    const p = person(r, `${org.split(' ')[0]?.toLowerCase()}.example.test`, used);
    people.push({
      key: `customer${i}`,
      ...p,
      roles: ['customer'],
      profile: {
        organisation: org,
        ...(r.chance(0.4) ? { phone: `+31 20 ${r.int(100, 999)} ${r.int(1000, 9999)}` } : {}),
      },
    });
  }
  const agents = [
    'agent',
    'admin',
    ...people.filter((p) => p.key.startsWith('agent') && p.key !== 'agent').map((p) => p.key),
  ];
  const customers = people.filter((p) => p.roles.includes('customer')).map((p) => p.key);

  const rows: DemoRow[] = [];
  const history: DemoHistory[] = [];
  const start = new Date(now.getTime() - 90 * DAY);
  CATEGORIES.forEach(([name, description, active], i) => {
    rows.push({
      entity: 'category',
      key: `category${i}`,
      values: {
        name,
        description,
        active,
        defaultAssignee: active ? ref(agents[i % agents.length] ?? 'agent') : null,
      },
      createdAt: start,
    });
  });
  for (let i = 0; i < 12; i++) {
    rows.push({
      entity: 'savedReply',
      key: `reply${i}`,
      values: {
        title:
          ['Ask for browser', 'Fix deployed', 'Reset done', 'Need screenshot', 'Refund issued', 'Escalated'][
            i % 6
          ] + (i >= 6 ? ' (short)' : ''),
        body: r.pick(REPLIES),
        category: i % 3 === 0 ? null : ref(`category${i % 7}`),
        shared: i % 2 === 0,
        createdBy: ref(r.pick(agents)),
      },
      createdAt: new Date(start.getTime() + i * DAY),
    });
  }

  const titlesUsed = new Map<string, number>();
  for (let i = 0; i < 260; i++) {
    const key = `ticket${i}`;
    const catIndex = r.weighted(CATEGORIES.map((c, ci) => [ci, c[2] ? 3 : 0.2] as const));
    const category = CATEGORIES[catIndex]?.[0] ?? 'Billing';
    const priority = r.weighted([
      ['low', 2],
      ['normal', 5],
      ['high', 2],
      ['urgent', 1],
    ] as const);
    const age = i < 20 ? r.int(1, 36) * HOUR : r.int(2, 85) * DAY + r.int(0, 23) * HOUR;
    const created = new Date(now.getTime() - age);
    const ageDays = age / DAY;
    const status =
      ageDays < 2
        ? r.weighted([
            ['new', 5],
            ['open', 3],
            ['pending', 1],
          ] as const)
        : ageDays < 14
          ? r.weighted([
              ['new', 1],
              ['open', 4],
              ['pending', 2],
              ['solved', 3],
              ['closed', 2],
            ] as const)
          : r.weighted([
              ['open', 1],
              ['pending', 1],
              ['solved', 1],
              ['closed', 8],
            ] as const);
    const requester = i % 9 === 0 ? 'customer' : r.pick(customers);
    const assignee = status === 'new' ? null : i % 4 === 0 ? 'agent' : r.pick(agents);
    const firstResponse = new Date(created.getTime() + r.int(10, 300) * 60_000);
    const solvedAt = new Date(Math.min(now.getTime() - HOUR, created.getTime() + r.int(2, 60) * HOUR));
    const closedAt = new Date(Math.min(now.getTime() - HOUR / 2, solvedAt.getTime() + r.int(1, 6) * DAY));
    const done = status === 'solved' || status === 'closed';
    const resolution = done ? r.pick(RESOLUTIONS) : null;
    const rating =
      done && r.chance(0.5)
        ? r.weighted([
            ['good', 4],
            ['bad', 1],
          ] as const)
        : null;
    // Backdated: a due date that has passed since is an overdue ticket, which `DUE_IN_PAST`
    // refuses only when someone sets it (onChange), not on the insert made today. (Drawn in the order the values are listed, as before, so the demo stays the same.)
    const title = distinctTitle(r.pick(PROBLEMS[category] ?? ['Something is wrong']), titlesUsed);
    const description = `${r.pick(DETAILS)} ${r.pick(DETAILS)}`;
    const dueAt = r.chance(0.6) ? new Date(created.getTime() + (TARGET_HOURS[priority] ?? 72) * HOUR) : null;
    rows.push({
      entity: 'ticket',
      key,
      values: {
        title,
        description,
        priority,
        category: catIndex === 7 && status === 'new' ? null : ref(`category${catIndex}`),
        requester: ref(requester),
        assignee: assignee ? ref(assignee) : null,
        // Closed tickets take comments only before closing: they are closed in the `after` step.
        status: status === 'closed' ? 'solved' : status,
        firstResponseAt: status === 'new' ? null : firstResponse,
        solvedAt: done ? solvedAt : null,
        resolution,
        rating,
        // Said of this ticket's own story (a first answer within hours, not "three days").
        ratingComment: rating === 'bad' ? BAD_RATING_COMMENTS[i % BAD_RATING_COMMENTS.length] : null,
      },
      createdAt: created,
      updatedAt:
        status === 'closed' ? closedAt : done ? solvedAt : status === 'new' ? created : firstResponse,
      ...(dueAt ? { backdated: { dueAt } } : {}),
      ...(status === 'closed' ? { after: { status: 'closed', closedAt } } : {}),
    });
    if (assignee) {
      history.push({
        entity: 'ticket',
        row: key,
        transition: 'take',
        from: 'new',
        to: 'open',
        actor: assignee,
        at: firstResponse,
      });
    }
    if (status === 'pending') {
      history.push({
        entity: 'ticket',
        row: key,
        transition: 'ask_customer',
        from: 'open',
        to: 'pending',
        actor: assignee ?? 'agent',
        at: new Date(firstResponse.getTime() + HOUR),
      });
    }
    if (done) {
      history.push({
        entity: 'ticket',
        row: key,
        transition: 'solve',
        from: 'open',
        to: 'solved',
        actor: assignee ?? 'agent',
        at: solvedAt,
        input: { resolution },
      });
    }
    if (status === 'closed') {
      history.push({
        entity: 'ticket',
        row: key,
        transition: 'close',
        from: 'solved',
        to: 'closed',
        actor: requester,
        at: closedAt,
      });
    }
    const conversation = status === 'new' ? r.int(0, 1) : r.int(1, 4);
    for (let c = 0; c < conversation; c++) {
      const fromAgent = c % 2 === 0 && assignee !== null;
      const internal = fromAgent && r.chance(0.25);
      rows.push({
        entity: 'comment',
        key: `${key}-comment${c}`,
        values: {
          ticket: ref(key),
          author: ref(fromAgent ? (assignee ?? 'agent') : requester),
          body: internal ? r.pick(INTERNAL) : fromAgent ? r.pick(REPLIES) : r.pick(CUSTOMER_REPLIES),
          internal,
        },
        // Before the ticket was solved: the conversation leads to the solution, not past it.
        createdAt: new Date(
          Math.min(
            created.getTime() + (c + 1) * r.int(20, 240) * 60_000,
            (done ? solvedAt.getTime() : now.getTime()) - (conversation - c) * 60_000,
          ),
        ),
      });
    }
    if (i % 8 === 0) {
      // Logged just before the ticket was filed (not a fixed day in January).
      const at = new Date(created.getTime() - 10 * 60_000).toISOString().slice(0, 19).replace('T', ' ');
      const text = `Log excerpt for ticket ${i}\n${at} ERROR request failed (code ${400 + (i % 30)})\n`;
      rows.push({
        entity: 'attachment',
        key: `${key}-file`,
        values: { ticket: ref(key), uploadedBy: ref(requester), internal: false },
        file: { name: `log-${i}.txt`, type: 'text/plain', bytes: new TextEncoder().encode(text) },
        createdAt: new Date(created.getTime() + 5 * 60_000),
      });
    }
  }
  return { people, rows, history };
}
