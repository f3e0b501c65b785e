import type { AppSpec } from '../../src/spec/types.ts';
import { AUTH_STAND_IN_SQL } from '../../src/sql/authStandIn.ts';
import { compileMigration } from '../../src/sql/compileMigration.ts';
import { STORAGE_STAND_IN_SQL } from '../../src/sql/storageStandIn.ts';
import type { Queryable } from '../../src/sql/testing/testDb.ts';

/**
 * Applies what a hosted Supabase project has (auth and storage stand-ins) and the supabase-target
 * migration, as `supabase db push` would (owner, one script each).
 */
export async function applyHosted(db: { exec(sql: string): Promise<void> }, spec: AppSpec): Promise<void> {
  await db.exec(AUTH_STAND_IN_SQL);
  await db.exec(STORAGE_STAND_IN_SQL);
  await db.exec(compileMigration(spec, { target: 'supabase' }));
}

/**
 * What the migration leaves in the catalogue: policies (with their expressions), constraints,
 * indexes, functions, triggers, buckets and the publication's tables. Equal before and after a
 * second run when the migration is idempotent.
 */
export async function catalogueFingerprint(q: Queryable): Promise<string[]> {
  const parts = [
    `select 'policy ' || schemaname || '.' || tablename || ' ' || policyname || ' ' || cmd || ' ' || coalesce(qual, '') || ' ' || coalesce(with_check, '') as x from pg_policies`,
    `select 'constraint ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) as x from pg_constraint where connamespace in ('public'::regnamespace, 'app'::regnamespace)`,
    `select 'index ' || schemaname || '.' || indexname || ' ' || indexdef as x from pg_indexes where schemaname in ('public', 'app', 'storage')`,
    `select 'function ' || p.oid::regprocedure::text || ' ' || md5(p.prosrc) || ' ' || p.prosecdef::text || ' ' || coalesce(array_to_string(p.proacl, ','), '') as x from pg_proc p where p.pronamespace in ('public'::regnamespace, 'app'::regnamespace)`,
    `select 'trigger ' || tgrelid::regclass::text || ' ' || tgname as x from pg_trigger where not tgisinternal`,
    `select 'bucket ' || id || ' ' || name || ' ' || public::text || ' ' || coalesce(file_size_limit::text, '-') as x from storage.buckets`,
    `select 'published ' || schemaname || '.' || tablename as x from pg_publication_tables where pubname = 'supabase_realtime'`,
    `select 'grant ' || grantee || ' ' || table_schema || '.' || table_name || ' ' || column_name || ' ' || privilege_type as x from information_schema.column_privileges where table_schema in ('public', 'app', 'storage') and grantee in ('anon', 'authenticated')`,
  ];
  const out: string[] = [];
  for (const sql of parts) out.push(...(await q.query<{ x: string }>(sql)).rows.map((r) => r.x));
  return out.sort();
}
