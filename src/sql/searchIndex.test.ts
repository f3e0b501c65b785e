import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileMigration } from './compileMigration.ts';
import { mini } from './fixtures/mini.ts';
import { createServerDb, serverAvailable } from './testing/pgDb.ts';
import { createPgliteDb } from './testing/pgliteDb.ts';
import type { TestDb } from './testing/testDb.ts';
import { applyMigration, createUser } from './testing/users.ts';

// The same migration text on PGlite and on the server: both must load pg_trgm and answer a
// contains-search (`ilike '%…%'`, what listQuery.ts and PostgREST send) from the trigram indexes.
const migration = compileMigration(mini);
const hasServer = await serverAvailable();
if (!hasServer && process.env.CI === 'true')
  throw new Error('CI=true but no Postgres server answers at DATABASE_URL');

const backends: { name: string; create: () => Promise<TestDb>; skip: boolean }[] = [
  { name: 'pglite', create: createPgliteDb, skip: false },
  { name: 'server', create: () => createServerDb(), skip: !hasServer },
];

const SEARCH = `select id from public.ticket t where (t.title ilike $1 or t.body ilike $1 or t.resolution ilike $1)`;

for (const backend of backends) {
  describe.skipIf(backend.skip)(`search index on ${backend.name}`, () => {
    let db: TestDb;
    let agent: string;
    let requester: string;

    beforeAll(async () => {
      db = await backend.create();
      await applyMigration(db, migration);
      agent = await createUser(db, 'agent@example.com', { roles: ['agent'] });
      requester = await createUser(db, 'customer@example.com');
      await db.query(
        `insert into public.ticket (title, body, requester)
         select 'Ticket number ' || g, 'printer ' || (g % 97) || ' jammed', $1
         from generate_series(1, 3000) g`,
        [requester],
      );
      await db.exec('analyze public.ticket');
    }, 120_000);
    afterAll(async () => {
      await db?.close();
    });

    it('creates pg_trgm in the extensions schema and a trigram index per searchable column', async () => {
      const ext = await db.query<{ schema: string }>(
        `select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`,
      );
      expect(ext.rows).toEqual([{ schema: 'extensions' }]);
      const idx = await db.query<{ name: string }>(
        `select indexname as name from pg_indexes where tablename = 'ticket' and indexname like '%trgm%' order by 1`,
      );
      expect(idx.rows.map((r) => r.name)).toEqual([
        'ticket__body__trgm_idx',
        'ticket__resolution__trgm_idx',
        'ticket__title__trgm_idx',
      ]);
    });

    it('cannot use the trigram indexes for a plain ilike under RLS (ilike is not leakproof)', async () => {
      const plan = await db.asUser(agent, async (q) => {
        await q.query(`select set_config('enable_seqscan', 'off', true)`);
        const r = await q.query<{ 'QUERY PLAN': string }>(`explain ${SEARCH}`, ['%number 177%']);
        return r.rows.map((x) => x['QUERY PLAN']).join('\n');
      });
      expect(plan).toMatch(/Seq Scan on ticket/);
      expect(plan).not.toMatch(/trgm_idx/);
    });

    it('the search function finds through the trigram indexes what a scan as the caller finds', async () => {
      // The function's own query, planned as its owner (no RLS in the way): a bitmap over the indexes.
      const owner = await db.asOwner(async (q) => {
        await q.query(`select set_config('enable_seqscan', 'off', true)`);
        const r = await q.query<{ 'QUERY PLAN': string }>(`explain ${SEARCH}`, ['%number 177%']);
        return r.rows.map((x) => x['QUERY PLAN']).join('\n');
      });
      expect(owner).toMatch(/Bitmap Index Scan on ticket__title__trgm_idx/);
      const ids = (user: string) =>
        db.asUser(user, async (q) => {
          const viaFunction = await q.query<{ id: string }>('select app.ticket__search($1) as id', [
            '%number 177%',
          ]);
          const scanned = await q.query<{ id: string }>(SEARCH, ['%number 177%']);
          return {
            viaFunction: viaFunction.rows.map((r) => r.id).sort(),
            scanned: scanned.rows.map((r) => r.id).sort(),
          };
        });
      const asAgent = await ids(agent);
      // 177, 1770-1779: 11 tickets, the same through the function as through a scan.
      expect(asAgent.viaFunction).toHaveLength(11);
      expect(asAgent.viaFunction).toEqual(asAgent.scanned);
    });

    it('the search function returns only rows the caller may read', async () => {
      const other = await createUser(db, 'other@example.com');
      const r = await db.asUser(other, (q) =>
        q.query<{ id: string }>('select app.ticket__search($1) as id', ['%number%']),
      );
      expect(r.rows).toEqual([]);
      const own = await db.asUser(requester, (q) =>
        q.query<{ n: number }>('select count(*)::int as n from app.ticket__search($1)', ['%number 2%']),
      );
      // 2, 20-29, 200-299, 2000-2999: 1,111 of the customer's own tickets.
      expect(own.rows[0]?.n).toBe(1111);
      await expect(db.asUser(null, (q) => q.query('select app.ticket__search($1)', ['%x%']))).rejects.toThrow(
        /permission denied/,
      );
    });

    it('re-applies cleanly (the extension and indexes exist already)', async () => {
      await db.exec(migration);
    });
  });
}
