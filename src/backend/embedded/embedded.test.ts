import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/spec.ts';
import type { AppSpec } from '../../spec/types.ts';
import { BackendError } from '../types.ts';
import { createEmbeddedBackend } from './createEmbeddedBackend.ts';
import { demoAccounts } from './demo/demoAccounts.ts';
import { seedDemoAccounts } from './demo/seedDemoAccounts.ts';
import { pgliteExtensions } from './pgliteExtensions.ts';

// One database shared by the tests below, handed to each backend (as the browser worker does).
let db: PGlite;
beforeAll(async () => {
  db = await PGlite.create({ extensions: pgliteExtensions });
}, 180_000);
afterAll(async () => {
  await db.close();
});

const withField: AppSpec = {
  ...helpdesk,
  entities: {
    ...helpdesk.entities,
    ticket: {
      ...helpdesk.entities.ticket!,
      fields: { ...helpdesk.entities.ticket!.fields, channel: { type: 'text', label: 'Channel' } },
    },
  },
};

const otherGuardCode: AppSpec = {
  ...helpdesk,
  states: {
    ticket: {
      ...helpdesk.states.ticket!,
      transitions: {
        ...helpdesk.states.ticket!.transitions,
        ask_customer: { ...helpdesk.states.ticket!.transitions.ask_customer!, guardError: 'NOT_REQUESTER' },
      },
    },
  },
};

describe('schema versions', () => {
  let ticketId = '';

  it('applies the migration once, then finds it in place', async () => {
    const first = await createEmbeddedBackend({ spec: helpdesk, db });
    expect(first.schema.outcome).toBe('created');
    await first.asOwner((tx) => seedDemoAccounts(tx, helpdesk));
    const customer = demoAccounts(helpdesk).find((a) => a.role === 'customer')!;
    await first.auth.signIn(customer);
    ticketId = (
      await first.data.create('ticket', { title: 'Kept across boots', description: 'x'.repeat(30) })
    ).id;
    await first.close();
    const again = await createEmbeddedBackend({ spec: helpdesk, db });
    expect(again.schema).toEqual({ version: first.schema.version, outcome: 'unchanged' });
  });

  it('upgrades a database made with an older spec in place, keeping every row', async () => {
    const progress: string[] = [];
    const changed = await createEmbeddedBackend({
      spec: withField,
      db,
      onUpgradeProgress: (l) => progress.push(l),
    });
    expect(changed.schema.outcome).toBe('upgraded');
    expect(progress[0]).toMatch(/^Upgrading your data/);
    const cols = await db.query(
      `select 1 from information_schema.columns where table_name = 'ticket' and column_name = 'channel'`,
    );
    expect(cols.rows).toHaveLength(1);
    expect((await db.query('select id from public.ticket where id = $1', [ticketId])).rows).toHaveLength(1);
  });

  it('refuses to drop data on its own, touching nothing, and says what would be lost', async () => {
    // Back to the spec without the field: that deletes the column's data; the database already had
    // this spec's version, so it is newer than the app.
    const e = await createEmbeddedBackend({ spec: helpdesk, db }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(BackendError);
    const be = e as BackendError;
    expect(be.code).toBe('SCHEMA_CHANGED');
    expect(be.params).toMatchObject({ reason: 'database-newer', exportWith: 'exportDatabase()' });
    expect(String((be.params.problems as string[])[0])).toContain('field ticket.channel');
    const cols = await db.query(
      `select 1 from information_schema.columns where table_name = 'ticket' and column_name = 'channel'`,
    );
    expect(cols.rows).toHaveLength(1);
  });

  it('applies a spec change that leaves the tables as they are, and drops data only when allowed', async () => {
    const changed = await createEmbeddedBackend({
      spec: { ...otherGuardCode, entities: withField.entities },
      db,
    });
    expect(changed.schema.outcome).toBe('upgraded');
    const fn = await db.query<{ src: string }>(
      `select prosrc as src from pg_proc where proname = 'ticket_ask_customer'`,
    );
    expect(fn.rows[0]?.src).toContain('NOT_REQUESTER');
    const back = await createEmbeddedBackend({ spec: helpdesk, db, allowDestructiveUpgrade: true });
    expect(back.schema.outcome).toBe('upgraded');
    expect((await db.query('select id from public.ticket where id = $1', [ticketId])).rows).toHaveLength(1);
  });

  it('upgrades once when two tabs boot at the same time', async () => {
    const [a, b] = await Promise.all([
      createEmbeddedBackend({ spec: withField, db }),
      createEmbeddedBackend({ spec: withField, db }),
    ]);
    expect([a.schema.outcome, b.schema.outcome].sort()).toEqual(['unchanged', 'upgraded']);
    await createEmbeddedBackend({ spec: helpdesk, db, allowDestructiveUpgrade: true });
  });

  it('exports the database and imports it into another backend', async () => {
    const source = await createEmbeddedBackend({ spec: helpdesk, db });
    const dump = await source.exportDatabase();
    expect(dump.size).toBeGreaterThan(1000);
    const target = await createEmbeddedBackend({ spec: helpdesk });
    try {
      await target.importDatabase(dump);
      expect(target.schema.outcome).toBe('unchanged');
      const customer = demoAccounts(helpdesk).find((a) => a.role === 'customer')!;
      await target.auth.signIn(customer);
      expect((await target.data.get('ticket', ticketId)).title).toBe('Kept across boots');
    } finally {
      await target.close();
    }
  });
});
