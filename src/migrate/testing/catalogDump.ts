import type { Queryable } from '../../sql/testing/testDb.ts';

/**
 * What a migration made of a database, read from pg_catalog (not from any SQL text): columns,
 * constraints, indexes, policies, functions, triggers, RLS flags and privileges of the schemas
 * `public` and `app` (plus Storage policies and triggers on `auth.users`). Column order and
 * physical details are left out: a chain of migrations adds columns at the end, a fresh one in
 * spec order, and both are the same schema.
 */
export interface CatalogDump {
  columns: string[];
  constraints: string[];
  indexes: string[];
  policies: string[];
  functions: string[];
  triggers: string[];
  tables: string[];
}

const SCHEMAS = "('public', 'app')";

const QUERIES: Record<keyof CatalogDump, string> = {
  tables: `select n.nspname || '.' || c.relname || ' rls=' || c.relrowsecurity || ' force=' || c.relforcerowsecurity
             || ' acl=' || coalesce((select string_agg(x::text, ',' order by x::text) from unnest(c.relacl) x), '') as v
           from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
           where n.nspname in ${SCHEMAS} and c.relkind = 'r'`,
  columns: `select n.nspname || '.' || c.relname || '.' || a.attname || ' ' || pg_catalog.format_type(a.atttypid, a.atttypmod)
              || case when a.attnotnull then ' not null' else '' end
              || coalesce(' default ' || pg_catalog.pg_get_expr(d.adbin, d.adrelid), '')
              || ' acl=' || coalesce((select string_agg(x::text, ',' order by x::text) from unnest(a.attacl) x), '') as v
            from pg_catalog.pg_attribute a
            join pg_catalog.pg_class c on c.oid = a.attrelid
            join pg_catalog.pg_namespace n on n.oid = c.relnamespace
            left join pg_catalog.pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
            where n.nspname in ${SCHEMAS} and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped`,
  constraints: `select k.conrelid::regclass::text || ' ' || k.conname || ' ' || pg_catalog.pg_get_constraintdef(k.oid)
                  || case when k.convalidated then '' else ' NOT VALID' end as v
                from pg_catalog.pg_constraint k join pg_catalog.pg_namespace n on n.oid = k.connamespace
                where n.nspname in ${SCHEMAS} and k.conrelid <> 0`,
  indexes: `select schemaname || ' ' || indexname || ' ' || indexdef as v from pg_catalog.pg_indexes where schemaname in ${SCHEMAS}`,
  policies: `select schemaname || '.' || tablename || ' ' || policyname || ' ' || permissive || ' ' || roles::text || ' ' || cmd
               || ' using ' || coalesce(qual, '-') || ' check ' || coalesce(with_check, '-') as v
             from pg_catalog.pg_policies where schemaname in ('public', 'app', 'storage')`,
  functions: `select p.oid::regprocedure::text || ' acl=' || coalesce((select string_agg(x::text, ',' order by x::text) from unnest(p.proacl) x), '')
                || E'\\n' || pg_catalog.pg_get_functiondef(p.oid) as v
              from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
              where n.nspname in ${SCHEMAS}`,
  triggers: `select t.tgrelid::regclass::text || ' ' || pg_catalog.pg_get_triggerdef(t.oid) as v
             from pg_catalog.pg_trigger t join pg_catalog.pg_class c on c.oid = t.tgrelid
             join pg_catalog.pg_namespace n on n.oid = c.relnamespace
             where not t.tgisinternal and (n.nspname in ${SCHEMAS} or (n.nspname = 'auth' and c.relname = 'users'))`,
};

/** Reads the catalog dump of a database (sorted lines per kind). */
export async function catalogDump(db: Queryable): Promise<CatalogDump> {
  const out = {} as CatalogDump;
  for (const [kind, sql] of Object.entries(QUERIES) as [keyof CatalogDump, string][]) {
    const r = await db.query<{ v: string }>(sql);
    out[kind] = r.rows.map((x) => x.v).sort();
  }
  return out;
}
