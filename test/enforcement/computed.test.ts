/**
 * Computed values and money rounding (issue 32, item 5), on PGlite and on the PostgreSQL server:
 * - rounding half away from zero to a currency's minor unit agrees between the browser
 *   (`roundHalfAwayFromZero`) and Postgres `round(numeric, n)` on generated amounts;
 * - a computed field (`amount = hours × rate`, in the entry's own currency) is set by the database
 *   on insert and update exactly as the form's preview computes it, and a client's own value is
 *   refused with FIELD_NOT_WRITABLE;
 * - a transition's `set` of money (`gross = total × vatFactor`) is rounded to the cent;
 * - money shows its currency in cells and messages (a constant currency, a currency field).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorContext, mapDatabaseError } from '../../src/backend/errors/mapDatabaseError.ts';
import { resolve } from '../../src/model/resolve.ts';
import { cellText } from '../../src/runtime/cellText.ts';
import { computedValues, currencyOf } from '../../src/runtime/computedValues.ts';
import { formSchema } from '../../src/runtime/formSchema.ts';
import { moneyText } from '../../src/runtime/moneyText.ts';
import { minorUnits, roundHalfAwayFromZero } from '../../src/spec/currencies.ts';
import type { TestDb } from '../../src/sql/testing/testDb.ts';
import { createUser } from '../../src/sql/testing/users.ts';
import { enforcementBackends } from './support/backends.ts';
import { orders } from './support/orders.ts';

const backends = await enforcementBackends('computed.test');
afterAll(async () => {
  for (const b of backends) await b.closeAll();
});

const model = resolve(orders);
const CURRENCIES = ['EUR', 'JPY', 'KWD', 'CLF', 'usd'];

/** Amounts whose decimal form sits on a rounding edge, and any others. */
const amountArb = fc.oneof(
  fc.constantFrom(0.5, -0.5, 1.005, 2.675, -2.675, 0.125, 1e-7, 123456.785, 1.0005, -1.0049, 1e21),
  fc.integer({ min: -10_000_000, max: 10_000_000 }).map((n) => n / 1000),
  fc.double({ min: -1e9, max: 1e9, noNaN: true, noDefaultInfinity: true }),
);

describe.each(backends)('computed values on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => {});
    return;
  }
  let db: TestDb;
  let clerk: string;
  let manager: string;
  beforeAll(async () => {
    db = await backend.open(orders);
    clerk = await createUser(db, 'cv.clerk@example.com', { roles: ['clerk'], meta: { name: 'Clerk' } });
    manager = await createUser(db, 'cv.boss@example.com', { roles: ['manager'], meta: { name: 'Boss' } });
  }, 120_000);
  afterAll(async () => {
    if (db) await backend.release(db);
  });

  it('rounds half away from zero as Postgres round(numeric, n) does', async () => {
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(amountArb, fc.integer({ min: 0, max: 4 }), async (v, digits) => {
        const r = await db.query<{ r: string }>('select round($1::numeric, $2)::text as r', [
          String(v),
          digits,
        ]);
        expect(roundHalfAwayFromZero(v, digits), `${v} at ${digits}`).toBe(Number(r.rows[0]?.r));
        cases += 1;
      }),
      { numRuns: 300, seed: 32 },
    );
    expect(cases).toBeGreaterThanOrEqual(300);
  });

  it('computes a time entry’s amount on insert and update as the form’s preview does', async () => {
    const form = formSchema(model, 'timeEntry', 'create', ['clerk'], { userId: clerk });
    expect(form.fields.find((f) => f.name === 'amount')).toMatchObject({ computed: true, editable: false });
    let n = 0;
    for (const currency of CURRENCIES)
      for (const [hours, rate] of [
        [1.5, 33.3333],
        [0.25, 10.002],
        [3, 0.1235],
        [-1, 0.0005],
        [7.5, 1.23456789],
      ] as const) {
        const values = { currency, hours, rate };
        const preview = form.computedValues(values, { id: clerk, roles: ['clerk'] });
        const r = await db.asUser(clerk, (q) =>
          q.query('insert into public.time_entry (currency, hours, rate) values ($1, $2, $3) returning id', [
            currency,
            hours,
            rate,
          ]),
        );
        const id = (r.rows[0] as { id: string }).id;
        const stored = await db.query<{ amount: string; billed: number }>(
          'select amount::text, billed from public.time_entry where id = $1',
          [id],
        );
        const row = stored.rows[0];
        expect({ currency, hours, rate, amount: Number(row?.amount), billed: row?.billed }).toEqual({
          currency,
          hours,
          rate,
          amount: preview.amount,
          billed: preview.billed,
        });
        // At most the currency's minor unit of decimals.
        expect((row?.amount.split('.')[1] ?? '').replace(/0+$/, '').length).toBeLessThanOrEqual(
          minorUnits(currency),
        );
        // An update recomputes it.
        await db.asUser(clerk, (q) =>
          q.query('update public.time_entry set hours = hours * 2 where id = $1', [id]),
        );
        const again = await db.query<{ amount: string }>(
          'select amount::text from public.time_entry where id = $1',
          [id],
        );
        const twice = computedValues(model, 'timeEntry', { ...values, hours: hours * 2 }, null);
        expect(Number(again.rows[0]?.amount)).toBe(twice.amount);
        n += 1;
      }
    expect(n).toBe(CURRENCIES.length * 5);
  });

  it('refuses a client’s own value for a computed field, on insert and on update', async () => {
    const ctx = errorContext(orders);
    const insert = await db
      .asUser(clerk, (q) =>
        q.query("insert into public.time_entry (currency, hours, rate, amount) values ('EUR', 1, 1, 999)"),
      )
      .then(
        () => null,
        (e) => e,
      );
    expect(insert).not.toBeNull();
    expect([mapDatabaseError(insert, ctx).code, mapDatabaseError(insert, ctx).field]).toEqual([
      'FIELD_NOT_WRITABLE',
      'timeEntry.amount',
    ]);
    const r = await db.asUser(clerk, (q) =>
      q.query("insert into public.time_entry (currency, hours, rate) values ('EUR', 1, 2) returning id"),
    );
    const id = (r.rows[0] as { id: string }).id;
    const update = await db
      .asUser(clerk, (q) => q.query('update public.time_entry set amount = 1 where id = $1', [id]))
      .then(
        () => null,
        (e) => e,
      );
    expect(update).not.toBeNull();
    // No role may update the column: the column privilege refuses it before the trigger would.
    expect(['FIELD_NOT_WRITABLE', 'FORBIDDEN']).toContain(mapDatabaseError(update, ctx).code);
  });

  it('rounds money a transition sets to the cent', async () => {
    for (const total of [100, 10.05, 0.01, 999.99, 1234.5]) {
      const r = await db.asUser(clerk, (q) =>
        q.query("insert into public.purchase (title, total) values ('Desk', $1) returning id", [total]),
      );
      const id = (r.rows[0] as { id: string }).id;
      await db.asUser(manager, (q) =>
        q.query('select public.purchase_approve($1::uuid, 1, $2::jsonb)', [id, '{}']),
      );
      const g = await db.query<{ gross: string }>('select gross::text from public.purchase where id = $1', [
        id,
      ]);
      const vat = model.constants.get('vatFactor')?.value as number;
      // The evaluator multiplies on the decimal form (exactly), then rounds as the database does.
      const exact =
        Number((BigInt(Math.round(total * 100)) * BigInt(Math.round(vat * 100))).toString()) / 10_000;
      expect(Number(g.rows[0]?.gross)).toBe(roundHalfAwayFromZero(exact, 2));
    }
  });
});

describe('money shows its currency', () => {
  it('in cells (a constant currency, a currency field) and in messages', () => {
    expect(currencyOf(model, 'purchase', 'total', {})).toBe('EUR');
    expect(cellText(model, 'purchase', 'total', { total: 5000 }, () => undefined)).toBe(
      moneyText(5000, 'EUR'),
    );
    expect(cellText(model, 'purchase', 'total', { total: 5000 }, () => undefined)).not.toBe(
      moneyText(5000, undefined),
    );
    expect(cellText(model, 'timeEntry', 'amount', { amount: 12, currency: 'JPY' }, () => undefined)).toBe(
      moneyText(12, 'JPY'),
    );
  });
});
