/**
 * Finding 28.7 of the attack review (issue 28): a migration lists the existing rows that break a
 * tightened rule of any kind — a CHECK, a count, a sum, a uniqueness — and refuses, as it did for
 * CHECKs alone; the file `ninefold migrate` writes is one transaction, so `psql -f` (which goes
 * on after an error) leaves nothing half done, and a runner that opened a transaction already
 * (`supabase db push`) still applies it. On PGlite and on the PostgreSQL server.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { enforcementBackends } from '../../test/enforcement/support/backends.ts';
import { inTransaction } from '../cli/migrateCommand.ts';
import type { AppSpec } from '../spec/types.ts';
import type { TestDb } from '../sql/testing/testDb.ts';
import { createUser } from '../sql/testing/users.ts';
import { lockJson, lockModel } from './lockModel.ts';
import { planMigration } from './planMigration.ts';

const backends = await enforcementBackends('tightenedRules.test');
afterAll(async () => {
  for (const b of backends) await b.closeAll();
});

/** The helpdesk with a sum rule too: the bytes of a ticket's attachments. */
function withLimits(o: { attachments: number; bytes: number; titleMin: number; uniqueTitle: boolean }) {
  const s = structuredClone(helpdesk) as AppSpec;
  const c = s.constants;
  if (c.maxAttachmentsPerTicket) c.maxAttachmentsPerTicket.value = o.attachments;
  if (c.titleMinLength) c.titleMinLength.value = o.titleMin;
  c.maxTicketBytes = { value: o.bytes, label: 'Most bytes on one ticket', unit: 'count' };
  s.validation.attachment = [
    ...(s.validation.attachment ?? []),
    {
      kind: 'row',
      rule: 'sum(attachment.size where ticket = this.ticket) <= maxTicketBytes',
      error: 'ATTACHMENT_TOO_LARGE',
    },
  ];
  const title = s.entities.ticket?.fields.title;
  if (title && o.uniqueTitle) title.unique = true;
  return s;
}

const before = withLimits({ attachments: 20, bytes: 1_000_000, titleMin: 5, uniqueTitle: false });
const lock = lockModel(before, 'embedded');

describe('finding 28.7: the plan of a tightened count or sum', () => {
  it('checks the rules that relate a row to other rows, not those reading the user, the clock or only a parent', async () => {
    const expenses = (await import('../../examples/expenses/spec.ts')).default as AppSpec;
    expect(lockModel(expenses, 'embedded').invariants?.map((v) => v.code)).toEqual([
      'CLAIM_EMPTY',
      'CURRENCY_MISMATCH',
      'TOO_MANY_LINES',
      'RECEIPT_REQUIRED',
      'RECEIPT_LINE_MISMATCH',
      'TOO_MANY_RECEIPTS',
    ]);
  });

  it('finding 28.7: a tightened count limit changes the lock and the plan checks existing rows', () => {
    const tight = withLimits({ attachments: 5, bytes: 1_000_000, titleMin: 5, uniqueTitle: false });
    // Before, the lock did not change: `ninefold migrate` said "nothing to migrate".
    expect(lockJson(lockModel(tight, 'embedded'))).not.toBe(lockJson(lock));
    const plan = planMigration(lock, tight);
    expect(plan.changes).toEqual([
      'rule attachment__too_many_attachments__2 on attachment (new or changed): existing rows are checked',
    ]);
    expect(plan.sql).toMatch(/from public\.attachment r where not \(.*<= 5/);
    // Unchanged rules are not checked again; a lock from before they were recorded checks them all.
    expect(planMigration(lock, before).sql).not.toContain('$guard$');
    const { invariants: _, ...old } = lock;
    expect(planMigration(old, before).changes).toEqual([
      'rule attachment__too_many_attachments__2 on attachment (new or changed): existing rows are checked',
      'rule attachment__attachment_too_large__4 on attachment (new or changed): existing rows are checked',
    ]);
  });
});

describe.each(backends)('finding 28.7: tightened rules against existing rows, on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => {});
    return;
  }
  let db: TestDb;
  let ids: string[];
  beforeAll(async () => {
    db = await backend.open(before);
    const user = await createUser(db, 't.customer@example.com', { meta: { name: 'Customer' } });
    const t = await db.query<{ id: string }>(
      `insert into public.ticket (title, description, requester) values
         ('Printer jams', 'The printer on floor two jams.', $1), ('Printer jams', 'Again, on floor three.', $1)
       returning id`,
      [user],
    );
    const ticket = t.rows[0]?.id as string;
    ids = [];
    for (let i = 0; i < 8; i++) {
      const a = await db.query<{ id: string }>(
        `insert into public.attachment (name, size_bytes, ticket, uploaded_by) values ($1, 300, $2, $3) returning id`,
        [`scan-${i}.png`, ticket, user],
      );
      ids.push(a.rows[0]?.id as string);
    }
    ids.sort();
  }, 120_000);
  afterAll(async () => {
    if (db) await backend.release(db);
  });

  async function refusal(sql: string): Promise<Record<string, unknown>[]> {
    try {
      await db.exec(inTransaction(sql));
    } catch (e) {
      const err = e as { message?: string; detail?: string };
      expect(err.message).toBe('MIGRATION_REFUSED');
      return JSON.parse(err.detail ?? '[]') as Record<string, unknown>[];
    } finally {
      // PGlite keeps the failed transaction open after a script error.
      await db.exec('rollback').catch(() => {});
    }
    throw new Error('the migration was not refused');
  }

  it('finding 28.7: a count limit tightened 20 → 5 and a sum limit below the data are refused, listing the rows', async () => {
    const tight = withLimits({ attachments: 5, bytes: 1000, titleMin: 5, uniqueTitle: false });
    const problems = await refusal(planMigration(lock, tight).sql);
    expect(problems).toEqual([
      {
        kind: 'rule',
        table: 'public.attachment',
        constraint: 'attachment__too_many_attachments__2',
        code: 'TOO_MANY_ATTACHMENTS',
        rule: 'count(attachment where ticket = this.ticket and internal = this.internal) <= maxAttachmentsPerTicket',
        count: 8,
        examples: ids.slice(0, 5),
      },
      {
        kind: 'rule',
        table: 'public.attachment',
        constraint: 'attachment__attachment_too_large__4',
        code: 'ATTACHMENT_TOO_LARGE',
        rule: 'sum(attachment.size where ticket = this.ticket) <= maxTicketBytes',
        count: 8,
        examples: ids.slice(0, 5),
      },
    ]);
    // Nothing changed: the trigger still allows 20.
    await db.query(
      `insert into public.attachment (name, size_bytes, ticket, uploaded_by)
       select 'one more.png', 1, ticket, uploaded_by from public.attachment limit 1`,
    );
    await db.query(`delete from public.attachment where name = 'one more.png'`);
  });

  it('finding 28.7: a tightened CHECK and a new uniqueness are listed in the same refusal', async () => {
    const tight = withLimits({ attachments: 20, bytes: 1_000_000, titleMin: 20, uniqueTitle: true });
    const problems = await refusal(planMigration(lock, tight).sql);
    expect(problems.map((p) => [p.kind, p.constraint, p.count])).toEqual([
      ['unique', 'ticket__title__unique', 1],
      ['rule', 'ticket__title_too_short__1', 2],
    ]);
  });

  it('finding 28.7: the same migration goes through once the rows keep the rule', async () => {
    const tight = withLimits({ attachments: 10, bytes: 1_000_000, titleMin: 5, uniqueTitle: false });
    await db.exec(inTransaction(planMigration(lock, tight).sql));
    await db.exec(inTransaction(planMigration(lockModel(tight, 'embedded'), before).sql));
  });
});

const exec = promisify(execFile);
const server = backends.find((b) => b.name === 'server');

describe.skipIf(server?.skip !== false)('finding 28.7: the migration file is one transaction', () => {
  let db: TestDb;
  let dir: string;
  beforeAll(async () => {
    db = await (server as NonNullable<typeof server>).open(before);
    const user = await createUser(db, 'p.customer@example.com', { meta: { name: 'Customer' } });
    await db.query(
      `insert into public.ticket (title, description, requester) values ('Short title', 'The printer jams again.', $1)`,
      [user],
    );
    dir = await mkdtemp(join(tmpdir(), 'ninefold-psql-'));
  });
  afterAll(async () => {
    if (db) await server?.release(db);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const notValid = async () =>
    (await db.query<{ n: number }>('select count(*)::int as n from pg_constraint where not convalidated'))
      .rows[0]?.n;

  it('finding 28.7: under psql -f a refused migration leaves no rule NOT VALID and no change', async () => {
    const tight = withLimits({ attachments: 20, bytes: 1_000_000, titleMin: 12, uniqueTitle: false });
    const file = join(dir, 'refused.sql');
    await writeFile(file, inTransaction(planMigration(lock, tight).sql));
    // psql goes on after an error unless ON_ERROR_STOP is set: the transaction is what stops it.
    const r = await exec('psql', ['-X', '-q', '-d', db.connectionString as string, '-f', file]).catch(
      (e: { stderr?: string; code?: number }) => e,
    );
    expect(r.stderr).toContain('MIGRATION_REFUSED');
    expect(r.stderr).toContain('current transaction is aborted');
    expect(await notValid()).toBe(0);
    const check = await db.query<{ def: string }>(
      `select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'ticket__title_too_short__1'`,
    );
    expect(check.rows[0]?.def).toContain('>= 5');
  });

  it('finding 28.7: inside a runner’s own transaction (supabase db push) the file applies, with a warning', async () => {
    const tight = withLimits({ attachments: 10, bytes: 1_000_000, titleMin: 5, uniqueTitle: false });
    const client = new pg.Client({ connectionString: db.connectionString });
    const notices: string[] = [];
    client.on('notice', (n) => notices.push(n.message ?? ''));
    await client.connect();
    try {
      await client.query('create table if not exists public.runner_versions (v text)');
      // What a runner does: its transaction, the file, its bookkeeping, its commit.
      await client.query('begin');
      await client.query(inTransaction(planMigration(lock, tight).sql));
      await client.query(`insert into public.runner_versions values ('1')`);
      await client.query('commit');
    } finally {
      await client.end();
    }
    expect(notices).toContain('there is already a transaction in progress');
    const fn = await db.query<{ src: string }>(
      `select prosrc as src from pg_proc where proname = 'attachment__validate'`,
    );
    expect(fn.rows[0]?.src).toContain('<= 10');
    expect((await db.query('select v from public.runner_versions')).rows).toEqual([{ v: '1' }]);
  });
});
