import { demoAccountPeople } from '../../src/backend/embedded/demo/demoAccountPeople.ts';
import { demoAccounts } from '../../src/backend/embedded/demo/demoAccounts.ts';
import type { DemoHistory, DemoPerson, DemoPlan, DemoRow } from '../../src/backend/embedded/demo/demoPlan.ts';
import { ref } from '../../src/backend/embedded/demo/demoPlan.ts';
import { person, prng } from '../../src/backend/embedded/demo/prng.ts';
import { modelOf, type SpecOrModel } from '../../src/model/modelOf.ts';
import { EXPENSES_DEPARTMENTS, EXPENSES_DIRECTOR, expensesCostCentre } from './demoPeople.ts';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

const DEPARTMENTS = EXPENSES_DEPARTMENTS;
const TRIPS = [
  'Customer visit Hamburg',
  'Trade fair Utrecht',
  'Team offsite Lisbon',
  'Client workshop Antwerp',
  'Conference Berlin',
  'Partner meeting Copenhagen',
  'Office supplies',
  'Training course',
  'Recruiting event Ghent',
  'Quarterly planning Paris',
];
const LINES: Record<string, [string, string, number, number][]> = {
  travel: [
    ['Train ticket', 'NS International', 40, 180],
    ['Flight', 'KLM', 90, 420],
    ['Taxi to airport', 'TaxiCentrale', 20, 65],
  ],
  lodging: [
    ['Hotel, 2 nights', 'Motel One', 160, 390],
    ['Hotel, 1 night', 'Ibis', 70, 150],
  ],
  meals: [
    ['Dinner with client', 'Brasserie Flo', 45, 180],
    ['Lunch', 'Bakery Bart', 8, 24],
    ['Team lunch', 'Pho Saigon', 30, 120],
  ],
  mileage: [['Mileage to customer site', '', 0, 0]],
  office: [
    ['Keyboard and mouse', 'Coolblue', 40, 120],
    ['Notebooks and pens', 'Bruna', 6, 22],
  ],
  software: [['Design tool, monthly', 'Figma', 12, 45]],
  training: [['Online course', 'Coursera', 39, 240]],
  other: [['Parking', 'Q-Park', 5, 30]],
};

const RETURN_REASONS = [
  'Please attach the hotel invoice, not the booking confirmation.',
  'The lunch on the 3rd was already claimed last month.',
];
const REJECT_REASONS = [
  'Personal expenses cannot be claimed, see the travel policy.',
  // Not "claimed more than 90 days after": the demo's lines are all recent (EXPENSE_TOO_OLD).
  'Conference tickets need the budget owner’s approval first.',
];

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/**
 * Deterministic demo data for expenses: departments with managers, finance, thirty employees,
 * about 150 claims in every state with lines, receipts and history; dates within the last two
 * months of `now` (which must be the real date: lines may not be older than the age limit).
 *
 * @example
 * await seedDemo(tx, resolve(expenses), expensesDemo(expenses, new Date()));
 */
export function expensesDemo(app: SpecOrModel, now: Date): DemoPlan {
  const model = modelOf(app);
  const r = prng(20260202);
  const used = new Set<string>();
  const rate = Number(model.constants.get('mileageRatePerKm')?.value ?? 0.3);
  const receiptAbove = Number(model.constants.get('receiptRequiredAbove')?.value ?? 25);
  // One finance threshold per currency (the claim's total is compared in its own currency).
  const financeThreshold = (currency: string) =>
    Number(model.constants.get(`financeThreshold${currency}`)?.value ?? 1000);
  // The demo accounts (and the director the demo manager reports to) come first, with numbers below these.
  let employeeNumber = 1100;
  const profile = (department: string, manager?: string) => ({
    department,
    costCentre: expensesCostCentre(department),
    employeeNumber: `E${employeeNumber++}`,
    ...(manager ? { manager: ref(manager) } : {}),
  });
  const people: DemoPerson[] = demoAccountPeople(model, demoAccounts(model));
  for (const p of people) used.add(p.email);
  const managers = ['manager'];
  for (const [i, dept] of DEPARTMENTS.slice(1).entries()) {
    people.push({
      key: `manager${i}`,
      ...person(r, 'example.test', used),
      roles: ['manager'],
      profile: profile(dept, EXPENSES_DIRECTOR.key),
    });
    managers.push(`manager${i}`);
  }
  for (let i = 0; i < 2; i++) {
    people.push({
      key: `finance${i}`,
      ...person(r, 'example.test', used),
      roles: ['finance'],
      profile: profile('Operations', 'manager3'),
    });
  }
  const employees = ['employee'];
  for (let i = 0; i < 30; i++) {
    const m = i % managers.length;
    const dept = m === 0 ? 'Sales' : (DEPARTMENTS[m] ?? 'Sales');
    people.push({
      key: `employee${i}`,
      ...person(r, 'example.test', used),
      roles: ['employee'],
      profile: profile(dept, managers[m]),
    });
    employees.push(`employee${i}`);
  }
  const managerOf = new Map(
    people.map((p) => [p.key, (p.profile?.manager as { $ref: string } | undefined)?.$ref]),
  );
  const finance = ['finance', 'finance0', 'finance1'];

  const rows: DemoRow[] = [];
  const history: DemoHistory[] = [];
  for (let i = 0; i < 150; i++) {
    const key = `claim${i}`;
    const submitter = i % 6 === 0 ? 'employee' : r.pick(employees);
    const manager = managerOf.get(submitter) ?? 'manager';
    const currency = r.weighted([
      ['EUR', 8],
      ['USD', 1],
      ['GBP', 1],
    ] as const);
    const created = new Date(now.getTime() - r.int(3, 55) * DAY - r.int(0, 20) * HOUR);
    const status = r.weighted([
      ['draft', 2],
      ['submitted', 3],
      ['returned', 1],
      ['approved', 2],
      ['finance_approved', 1],
      ['rejected', 1],
      ['paid', 5],
    ] as const);
    let total = 0;
    const lineCount = r.int(1, 5);
    for (let l = 0; l < lineCount; l++) {
      const category = r.weighted([
        ['travel', 3],
        ['lodging', 2],
        ['meals', 3],
        ['mileage', 1],
        ['office', 1],
        ['software', 1],
        ['training', 1],
        ['other', 1],
      ] as const);
      const [description, merchant, min, max] = r.pick(LINES[category] ?? []);
      const distanceKm = category === 'mileage' ? r.int(12, 240) : null;
      const amount = distanceKm !== null ? round2(distanceKm * rate) : round2(min + r.next() * (max - min));
      total = round2(total + amount);
      const lineKey = `${key}-line${l}`;
      const date = new Date(created.getTime() - r.int(0, 4) * DAY);
      rows.push({
        entity: 'line',
        key: lineKey,
        values: {
          claim: ref(key),
          submitter: ref(submitter),
          date: isoDay(date),
          category,
          description,
          merchant: merchant || null,
          distanceKm,
          amount,
          currency,
        },
        createdAt: created,
      });
      if (amount > receiptAbove) {
        rows.push({
          entity: 'receipt',
          key: `${lineKey}-receipt`,
          values: { claim: ref(key), line: ref(lineKey), uploadedBy: ref(submitter) },
          file: {
            name: `receipt-${i}-${l}.txt`,
            type: 'text/plain',
            bytes: new TextEncoder().encode(
              `${merchant || 'Mileage'}\n${isoDay(date)}\nTotal ${currency} ${amount.toFixed(2)}\n`,
            ),
          },
          createdAt: created,
        });
      }
    }
    // Each step after the one before and before now (a claim from three days ago was not approved
    // "tomorrow", nor paid before finance approved it).
    const submitted = new Date(Math.min(created.getTime() + r.int(1, 30) * HOUR, now.getTime() - 4 * HOUR));
    const approved = new Date(Math.min(submitted.getTime() + r.int(2, 48) * HOUR, now.getTime() - 3 * HOUR));
    const financeApproved = new Date(
      Math.min(approved.getTime() + r.int(2, 48) * HOUR, now.getTime() - 2 * HOUR),
    );
    const paid = new Date(Math.min(now.getTime() - HOUR, financeApproved.getTime() + r.int(1, 5) * DAY));
    const fin = r.pick(finance.filter((f) => f !== submitter));
    const needsFinance =
      status === 'finance_approved' || (status === 'paid' && total > financeThreshold(currency));
    // Separation of duties: whoever approved for finance does not also pay (no extra PRNG draw, so
    // the rest of the demo stays as it was).
    const payer = needsFinance ? (finance.find((f) => f !== submitter && f !== fin) ?? fin) : fin;
    const after: Record<string, unknown> = { status };
    if (status !== 'draft') Object.assign(after, { submittedAt: submitted, total });
    // A returned claim was submitted: it keeps saying when (only a recall clears it).
    if (status === 'returned') after.returnReason = r.pick(RETURN_REASONS);
    if (status === 'rejected') after.rejectionReason = r.pick(REJECT_REASONS);
    if (['approved', 'finance_approved', 'paid'].includes(status))
      Object.assign(after, { approvedBy: ref(manager), approvedAt: approved });
    if (needsFinance)
      Object.assign(after, { financeApprovedBy: ref(fin), financeApprovedAt: financeApproved });
    if (status === 'paid')
      Object.assign(after, {
        paidBy: ref(payer),
        paidAt: paid,
        paymentReference: `PAY-${2026}${String(i).padStart(4, '0')}`,
      });
    rows.push({
      entity: 'claim',
      key,
      values: {
        title: r.pick(TRIPS),
        purpose: 'Travel and costs for the engagement described in the title.',
        submitter: ref(submitter),
        currency,
        total: 0,
      },
      createdAt: created,
      updatedAt: status === 'paid' ? paid : status === 'draft' ? created : submitted,
      after,
    });
    const h = (
      transition: string,
      from: string,
      to: string,
      actor: string,
      at: Date,
      input?: Record<string, unknown>,
    ) =>
      history.push({
        entity: 'claim',
        row: key,
        transition,
        from,
        to,
        actor,
        at,
        ...(input ? { input } : {}),
      });
    if (status === 'draft') continue;
    h('submit', 'draft', 'submitted', submitter, submitted);
    if (status === 'returned')
      h('send_back', 'submitted', 'returned', manager, approved, { returnReason: after.returnReason });
    if (status === 'rejected')
      h('reject', 'submitted', 'rejected', manager, approved, { rejectionReason: after.rejectionReason });
    if (['approved', 'finance_approved', 'paid'].includes(status))
      h('approve', 'submitted', 'approved', manager, approved);
    if (needsFinance) h('finance_approve', 'approved', 'finance_approved', fin, financeApproved);
    if (status === 'paid')
      h('pay', needsFinance ? 'finance_approved' : 'approved', 'paid', payer, paid, {
        paymentReference: after.paymentReference,
      });
  }
  // Claims before their lines: lines and receipts reference them.
  rows.sort(
    (a, b) =>
      (a.entity === 'claim' ? 0 : a.entity === 'line' ? 1 : 2) -
      (b.entity === 'claim' ? 0 : b.entity === 'line' ? 1 : 2),
  );
  return { people, rows, history };
}
