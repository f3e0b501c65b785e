import { PGlite } from '@electric-sql/pglite';
import dayjs from 'dayjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedBackend } from '../../src/backend/embedded/createEmbeddedBackend.ts';
import { demoAccounts } from '../../src/backend/embedded/demo/demoAccounts.ts';
import { seedDemoAccounts } from '../../src/backend/embedded/demo/seedDemoAccounts.ts';
import { pgliteExtensions } from '../../src/backend/embedded/pgliteExtensions.ts';
import { type Backend, BackendError } from '../../src/backend/types.ts';
import { resolve } from '../../src/model/resolve.ts';
import { formatMessage } from '../../src/runtime/formatMessage.ts';
import { formSchema } from '../../src/runtime/formSchema.ts';
import expenses from './spec.ts';

/** Expense lines on the server (PGlite, the real migration): editing, and the distance rule (issue 14, item 14). */
describe('expense lines', () => {
  let db: PGlite;
  let backend: Backend;
  let claim = '';
  const line = {
    date: dayjs().subtract(1, 'day').format('YYYY-MM-DD'),
    category: 'travel',
    description: 'Train to Lyon',
    amount: 40,
    currency: 'EUR',
  };

  beforeAll(async () => {
    db = await PGlite.create({ extensions: pgliteExtensions });
    const b = await createEmbeddedBackend({ spec: expenses, db });
    await b.asOwner((tx) => seedDemoAccounts(tx, expenses));
    backend = b;
    await backend.auth.signIn(demoAccounts(expenses).find((a) => a.role === 'employee')!);
    claim = (await backend.data.create('claim', { title: 'Customer visit' })).id;
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  it('refuses a negative distance on any line, with its code and field', async () => {
    const e = await backend.data.create('line', { ...line, claim, distanceKm: -10 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(BackendError);
    expect((e as BackendError).code).toBe('DISTANCE_NEGATIVE');
    expect((e as BackendError).field).toBe('line.distanceKm');
  });

  it('lets the claimant edit a line of a draft claim', async () => {
    const made = await backend.data.create('line', { ...line, claim });
    const edited = await backend.data.update('line', made.id, made.version, {
      amount: 45,
      category: 'meals',
    });
    expect([edited.amount, edited.category]).toEqual([45, 'meals']);
    const e = await backend.data
      .update('line', made.id, edited.version, { distanceKm: -1 })
      .catch((x: unknown) => x);
    expect((e as BackendError).code).toBe('DISTANCE_NEGATIVE');
  });

  it('issue 31.6: a line that breaks several rules shows, at each field, the message the server answers with', async () => {
    const employee = demoAccounts(expenses).find((a) => a.role === 'employee')!;
    const me = await backend.auth.session();
    const user = { id: me?.user.id ?? '', roles: ['employee'] };
    const model = resolve(expenses);
    const form = formSchema(model, 'line', 'create', user.roles, {
      fields: ['date', 'category', 'description', 'distanceKm', 'amount', 'currency'],
      userId: user.id,
    });
    // −10 km on a mileage line breaks DISTANCE_NEGATIVE and MILEAGE_DISTANCE_REQUIRED (and the rate).
    const cases = [
      { ...line, category: 'mileage', distanceKm: -10, amount: 1 },
      { ...line, category: 'mileage', distanceKm: -10, amount: 999 },
      { ...line, category: 'travel', distanceKm: -3 },
    ];
    expect(employee).toBeDefined();
    for (const values of cases) {
      const e = (await backend.data
        .create('line', { ...values, claim })
        .catch((x: unknown) => x)) as BackendError;
      expect(e).toBeInstanceOf(BackendError);
      const field = e.field?.split('.')[1] ?? '_form';
      expect(form.validate(values, user)[field], JSON.stringify(values)).toBe(
        formatMessage(model, e.code, values),
      );
    }
  });
});
