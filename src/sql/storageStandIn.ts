/**
 * The part of Supabase's `storage` schema and Realtime setup the supabase-target migration relies
 * on, for test servers (apply after `AUTH_STAND_IN_SQL`): `storage.buckets`, `storage.objects` (the
 * columns Supabase has and the Storage API writes: id, bucket_id, name, owner, created_at,
 * updated_at, metadata, path_tokens; one object per bucket and name), RLS enabled on both (Supabase
 * enables it; the migration's policies are what lets anything through), the API roles' privileges as
 * Supabase grants them, and the `supabase_realtime` publication (created empty). Idempotent.
 *
 * The Storage API inserts an object row as the caller (`set local role authenticated` with the JWT
 * claims, `owner` = the caller) before it stores the bytes, and reads and deletes rows the same
 * way, so a test doing those statements exercises the same policies a hosted project runs.
 *
 * @example
 * await db.exec(AUTH_STAND_IN_SQL + STORAGE_STAND_IN_SQL + compileMigration(spec, { target: 'supabase' }));
 */
export const STORAGE_STAND_IN_SQL = `-- Supabase stand-in (storage schema, realtime publication) for tests of the supabase target.
do $do$ begin
  -- Supabase's trusted server-side role (the migration grants it the file-removal queue).
  if not exists (select 1 from pg_catalog.pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
end $do$;

create schema if not exists storage;

create table if not exists storage.buckets (
  id text primary key,
  name text not null,
  owner uuid,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  public boolean default false,
  avif_autodetection boolean default false,
  file_size_limit bigint,
  allowed_mime_types text[],
  owner_id text
);
create unique index if not exists bname on storage.buckets (name);

create table if not exists storage.objects (
  id uuid primary key default gen_random_uuid(),
  bucket_id text references storage.buckets (id),
  name text,
  owner uuid,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now(),
  metadata jsonb,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  version text,
  owner_id text,
  user_metadata jsonb
);
create unique index if not exists bucketid_objname on storage.objects (bucket_id, name);

alter table storage.buckets enable row level security;
alter table storage.objects enable row level security;

grant usage on schema storage to anon, authenticated;
grant all on table storage.buckets, storage.objects to anon, authenticated;

do $do$ begin
  if not exists (select 1 from pg_catalog.pg_publication where pubname = 'supabase_realtime') then
    create publication supabase_realtime;
  end if;
end $do$;
`;
