/**
 * The catalog audit: checks over a live schema (RLS enabled and forced on every table, SECURITY
 * DEFINER functions with a fixed search_path, …). Shared by the catalogue suite (each check also
 * shown to catch a planted violation) and the evolution suite (the audit after every migration).
 */
import type { Queryable } from '../../../src/sql/testing/testDb.ts';

const SCHEMAS = "('public', 'app')";

export interface Check {
  name: string;
  /** Returns one line per violation. */
  sql: string;
  /** A statement that plants a violation (run as the owner, rolled back). */
  plant: string;
}

export const CHECKS: readonly Check[] = [
  {
    name: 'every table in public/app has RLS enabled and forced',
    sql: `select n.nspname || '.' || c.relname as v from pg_catalog.pg_class c
          join pg_catalog.pg_namespace n on n.oid = c.relnamespace
          where n.nspname in ${SCHEMAS} and c.relkind in ('r', 'p')
            and not (c.relrowsecurity and c.relforcerowsecurity)`,
    plant: `alter table app.user_roles no force row level security`,
  },
  {
    name: 'every SECURITY DEFINER function has a fixed search_path',
    sql: `select p.oid::regprocedure::text as v from pg_catalog.pg_proc p
          join pg_catalog.pg_namespace n on n.oid = p.pronamespace
          where n.nspname in ('public', 'app', 'auth') and p.prosecdef
            and not exists (select 1 from unnest(coalesce(p.proconfig, '{}'::text[])) c where c like 'search_path=%')`,
    plant: `create function public.planted() returns int language sql security definer as 'select 1'`,
  },
  {
    name: 'no policy reads user-editable metadata',
    sql: `select schemaname || '.' || tablename || '.' || policyname as v from pg_catalog.pg_policies
          where schemaname in ${SCHEMAS}
            and coalesce(qual, '') || ' ' || coalesce(with_check, '') ~* '(raw_user_meta_data|user_metadata|auth\\.jwt\\(\\))'`,
    plant: `create policy planted on app.user_roles for select to authenticated
            using ((auth.jwt() -> 'user_metadata' ->> 'role') = 'admin')`,
  },
  {
    name: 'no function writes roles from user metadata',
    sql: `select p.oid::regprocedure::text as v from pg_catalog.pg_proc p
          join pg_catalog.pg_namespace n on n.oid = p.pronamespace
          where n.nspname in ${SCHEMAS}
            and exists (select 1 from regexp_split_to_table(p.prosrc, ';') s
                        where s ~* 'user_roles' and s ~* '(meta_data|metadata|jwt)')`,
    plant: `create function app.planted() returns void language sql set search_path = '' as
            $$ insert into app.user_roles (user_id, role) select id, raw_user_meta_data ->> 'role' from auth.users $$`,
  },
  {
    name: 'the API roles are neither superuser nor BYPASSRLS (nor members of such roles)',
    sql: `select r.rolname as v from pg_catalog.pg_roles r
          where r.rolname in ('anon', 'authenticated')
            and (r.rolsuper or r.rolbypassrls or r.rolcreaterole or r.rolcreatedb or exists (
              select 1 from pg_catalog.pg_auth_members m join pg_catalog.pg_roles g on g.oid = m.roleid
              where m.member = r.oid and (g.rolsuper or g.rolbypassrls)))`,
    plant: `alter role anon bypassrls`,
  },
  {
    name: 'PUBLIC may execute no function in public/app',
    sql: `select p.oid::regprocedure::text as v from pg_catalog.pg_proc p
          join pg_catalog.pg_namespace n on n.oid = p.pronamespace
          where n.nspname in ${SCHEMAS}
            and exists (select 1 from aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
                        where a.grantee = 0 and a.privilege_type = 'EXECUTE')`,
    plant: `grant execute on function app.is_admin() to public`,
  },
  {
    name: 'every view is security_invoker',
    sql: `select n.nspname || '.' || c.relname as v from pg_catalog.pg_class c
          join pg_catalog.pg_namespace n on n.oid = c.relnamespace
          where n.nspname in ${SCHEMAS} and c.relkind in ('v', 'm')
            and not coalesce(c.reloptions @> array['security_invoker=true'], false)`,
    plant: `create view public.planted as select 1 as x`,
  },
];

export async function violations(q: Queryable, check: Check): Promise<string[]> {
  const r = await q.query<{ v: string }>(check.sql);
  return r.rows.map((x) => x.v);
}
