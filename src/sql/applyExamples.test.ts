import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AppSpec } from '../spec/types.ts';
import { compileMigration } from './compileMigration.ts';
import { createServerDb, serverAvailable } from './testing/pgDb.ts';
import { createPgliteDb } from './testing/pgliteDb.ts';
import { applyMigration } from './testing/users.ts';

const here = dirname(fileURLToPath(import.meta.url));
const hasServer = await serverAvailable();
if (!hasServer && process.env.CI === 'true')
  throw new Error('CI=true but no Postgres server answers at DATABASE_URL');

async function loadExample(name: string): Promise<AppSpec | undefined> {
  const path = join(here, '..', '..', 'examples', name, 'spec.ts');
  if (!existsSync(path)) return undefined;
  const mod = (await import(path)) as Record<string, unknown>;
  return (mod.default ??
    Object.values(mod).find((v) => typeof v === 'object' && v !== null && 'entities' in v)) as
    | AppSpec
    | undefined;
}

describe('reference app migrations apply (twice) on both backends', () => {
  for (const name of ['helpdesk', 'expenses', 'tasks']) {
    it(`examples/${name}`, async (ctx) => {
      const spec = await loadExample(name);
      if (!spec) return ctx.skip(`examples/${name}/spec.ts does not exist yet`);
      const sql = compileMigration(spec);
      const dbs = [await createPgliteDb(), ...(hasServer ? [await createServerDb()] : [])];
      for (const db of dbs) {
        try {
          await applyMigration(db, sql);
          await db.exec(sql);
          const forced = await db.query<{ n: number }>(
            `select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
             where n.nspname = 'public' and c.relkind = 'r' and not (c.relrowsecurity and c.relforcerowsecurity)`,
          );
          expect(forced.rows[0]?.n, `${db.kind}: tables without forced RLS`).toBe(0);
        } finally {
          await db.close();
        }
      }
    }, 90_000);
  }
});
