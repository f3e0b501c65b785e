/**
 * Checks over the live schema after each reference app's migration: RLS enabled and forced on
 * every table, SECURITY DEFINER functions with a fixed search_path, no policy reading user-editable
 * metadata, API roles without superuser/BYPASSRLS, no EXECUTE for PUBLIC, views only with
 * security_invoker. Each check is also shown to catch a planted violation (rolled back).
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { TestDb } from '../../src/sql/testing/testDb.ts';
import { enforcementBackends } from './support/backends.ts';
import { CHECKS, violations } from './support/catalogueChecks.ts';
import { APPS, caseCounter } from './support/model.ts';
import { rolledBack } from './support/seed.ts';

const backends = await enforcementBackends('catalogue.test');
const counter = caseCounter();
afterAll(async () => {
  counter.print('catalogue');
  for (const b of backends) await b.closeAll();
});

describe.each(backends)('catalogue on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => {});
    return;
  }
  for (const app of APPS) {
    describe(app.name, () => {
      let db: TestDb;
      afterAll(async () => {
        if (db) await backend.release(db);
      });
      it('applies', async () => {
        db = await backend.open(app.spec);
        const tables = await db.query<{ n: number }>(
          `select count(*)::int as n from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
           where n.nspname = 'public' and c.relkind = 'r'`,
        );
        expect(tables.rows[0]?.n).toBeGreaterThanOrEqual(Object.keys(app.spec.entities).length);
      }, 180_000);
      for (const check of CHECKS)
        it(check.name, async () => {
          expect(await violations(db, check)).toEqual([]);
          // The check can fail: a planted violation is found (and rolled back).
          const planted = await rolledBack(
            (fn) => db.asOwner(fn),
            async (q) => {
              await q.query(check.plant);
              return violations(q, check);
            },
          );
          expect(planted.length).toBeGreaterThan(0);
          expect(await violations(db, check)).toEqual([]);
          counter.add(`${app.name} on ${backend.name}`, 1);
        });
    });
  }
});
