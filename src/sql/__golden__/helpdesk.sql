-- Ninefold migration for "Helpdesk" (target: embedded). Generated: do not edit.
-- Conventions (see src/sql/README.md):
--   tables public.<entity_snake>, columns <field_snake>; id/created_at/updated_at/version on every table;
--   updates bump version: clients update "where version = $v" (0 rows = CONFLICT).
--   errors: SQLSTATE P0001, message = catalogue code, detail = JSON parameters.
--   validation CHECKs are named <table>__<error_code_lower>__<n> (n = rule position, from 1).
--   roles: app.user_roles (admins only), app.has_role(uid, role) follows inheritance.

-- ======================================================================
-- Schemas
-- ======================================================================

create schema if not exists app;

grant usage on schema public to anon, authenticated;
grant usage on schema app to anon, authenticated;
grant usage on schema auth to anon, authenticated;

do $do$begin
  if not exists (select 1 from pg_catalog.pg_roles where rolname = 'anon' and 'jit=off' = any (rolconfig)) then
    alter role anon set jit = off;
  end if;
exception when internal_error then null;
end$do$;
do $do$begin
  if not exists (select 1 from pg_catalog.pg_roles where rolname = 'authenticated' and 'jit=off' = any (rolconfig)) then
    alter role authenticated set jit = off;
  end if;
exception when internal_error then null;
end$do$;

create schema if not exists extensions;
create extension if not exists pg_trgm with schema extensions;

-- ======================================================================
-- Roles
-- ======================================================================

create table if not exists app.user_roles (
  user_id uuid not null references auth.users (id) on delete cascade,
  role text not null constraint user_roles__role__values check (role in ('customer', 'agent', 'admin')),
  granted_at timestamptz not null default now(),
  primary key (user_id, role)
);
alter table app.user_roles enable row level security;
alter table app.user_roles force row level security;

-- Whether a user holds a role, directly or through a role that inherits it. Null user: false. Only about the caller, unless the rules ask it of others or the caller is an admin.
create or replace function app.has_role(p_user_id uuid, p_role text)
returns boolean
language sql stable security definer
set search_path = ''
as $fn$
select exists (
  select 1 from app.user_roles ur
  where ur.user_id = p_user_id
    and (p_user_id = (select auth.uid()) or (select auth.uid()) is null
      or p_role = any (array['agent']::text[])
      or exists (select 1 from app.user_roles a where a.user_id = (select auth.uid()) and a.role = any (array['admin']::text[])))
    and ur.role = any (case p_role
      when 'customer' then array['customer']::text[]
      when 'agent' then array['agent', 'admin']::text[]
      when 'admin' then array['admin']::text[]
      else array[p_role] end)
)
$fn$;
revoke execute on function app.has_role(uuid, text) from public, anon, authenticated;
grant execute on function app.has_role(uuid, text) to authenticated;

-- The signed-in user's roles, inherited ones included.
create or replace function app.current_roles()
returns text[]
language sql stable security definer
set search_path = ''
as $fn$
select coalesce(array_agg(distinct r.role order by r.role), array[]::text[])
from app.user_roles ur
cross join lateral unnest(case ur.role
  when 'customer' then array['customer']::text[]
  when 'agent' then array['agent']::text[]
  when 'admin' then array['admin', 'agent']::text[]
  else array[ur.role] end) as r(role)
where ur.user_id = (select auth.uid())
$fn$;
revoke execute on function app.current_roles() from public, anon, authenticated;
grant execute on function app.current_roles() to authenticated;

-- Admins manage roles: roles that may update every person row (admin).
create or replace function app.is_admin()
returns boolean
language sql stable security definer
set search_path = ''
as $fn$
select exists (select 1 from app.user_roles ur where ur.user_id = (select auth.uid()) and ur.role = any (array['admin']::text[]))
$fn$;
revoke execute on function app.is_admin() from public, anon, authenticated;
grant execute on function app.is_admin() to authenticated;

drop policy if exists user_roles__read on app.user_roles;
create policy user_roles__read on app.user_roles for select to authenticated using (user_id = (select auth.uid()) or (select app.is_admin()));
drop policy if exists user_roles__grant on app.user_roles;
create policy user_roles__grant on app.user_roles for insert to authenticated with check ((select app.is_admin()));
drop policy if exists user_roles__revoke on app.user_roles;
create policy user_roles__revoke on app.user_roles for delete to authenticated using ((select app.is_admin()));
revoke all on table app.user_roles from anon, authenticated;
grant select, insert, delete on table app.user_roles to authenticated;

-- The caller's roles (inherited included), for the client.
create or replace function public.my_roles()
returns text[]
language sql stable
set search_path = ''
as $fn$
select app.current_roles()
$fn$;
revoke execute on function public.my_roles() from public, anon, authenticated;
grant execute on function public.my_roles() to authenticated;

-- Roles held directly by a user (RLS: yourself, or any user if you are an admin).
create or replace function public.user_roles(p_user_id uuid)
returns text[]
language sql stable
set search_path = ''
as $fn$
select coalesce(array_agg(ur.role order by ur.role), array[]::text[]) from app.user_roles ur where ur.user_id = p_user_id
$fn$;
revoke execute on function public.user_roles(uuid) from public, anon, authenticated;
grant execute on function public.user_roles(uuid) to authenticated;

-- Grants a role (admins only).
create or replace function public.grant_role(p_user_id uuid, p_role text)
returns void
language plpgsql volatile
set search_path = ''
as $fn$
begin
  if not app.is_admin() then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'user_roles', 'action', 'grant')::text;
  end if;
  insert into app.user_roles (user_id, role) values (p_user_id, p_role) on conflict do nothing;
end;
$fn$;
revoke execute on function public.grant_role(uuid, text) from public, anon, authenticated;
grant execute on function public.grant_role(uuid, text) to authenticated;

-- Revokes a role (admins only).
create or replace function public.revoke_role(p_user_id uuid, p_role text)
returns void
language plpgsql volatile
set search_path = ''
as $fn$
begin
  if not app.is_admin() then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'user_roles', 'action', 'revoke')::text;
  end if;
  delete from app.user_roles ur where ur.user_id = p_user_id and ur.role = p_role;
end;
$fn$;
revoke execute on function public.revoke_role(uuid, text) from public, anon, authenticated;
grant execute on function public.revoke_role(uuid, text) to authenticated;

-- ======================================================================
-- Locks
-- ======================================================================

-- The advisory-lock key of one group value; counts a client transaction's groups (at most 64).
create or replace function app.group_lock_key(p_group text, p_value text)
returns bigint
language plpgsql volatile
set search_path = ''
as $fn$
declare
  k bigint;
  held text;
begin
  if p_value is null then
    return null;
  end if;
  k := pg_catalog.hashtextextended(p_group || ':' || p_value, 0);
  if pg_catalog.current_setting('role') in ('anon', 'authenticated') or session_user in ('anon', 'authenticated') then
    held := coalesce(pg_catalog.current_setting('ninefold.group_locks', true), '');
    if pg_catalog.strpos(held, ',' || k || ',') = 0 then
      if pg_catalog.length(held) - pg_catalog.length(pg_catalog.replace(held, ',', '')) > 64 then
        raise exception using errcode = 'P0001', message = 'BATCH_TOO_LARGE', detail = jsonb_build_object('entity', pg_catalog.split_part(p_group, '.', 1), 'limit', 64)::text;
      end if;
      perform pg_catalog.set_config('ninefold.group_locks', coalesce(nullif(held, ''), ',') || k || ',', true);
    end if;
  end if;
  return k;
end;
$fn$;
revoke execute on function app.group_lock_key(text, text) from public, anon, authenticated;
grant execute on function app.group_lock_key(text, text) to authenticated;
-- Serialises the writers and readers of one group of rows until the end of the transaction.
create or replace function app.lock_group(p_group text, p_value text)
returns void
language sql volatile
set search_path = ''
as $fn$
select pg_catalog.pg_advisory_xact_lock(k) from (select app.group_lock_key(p_group, p_value) as k) x where k is not null
$fn$;
revoke execute on function app.lock_group(text, text) from public, anon, authenticated;
grant execute on function app.lock_group(text, text) to authenticated;
-- A writer’s lock on a group its own rules do not read: writers share it, readers wait for them.
create or replace function app.lock_group_shared(p_group text, p_value text)
returns void
language sql volatile
set search_path = ''
as $fn$
select pg_catalog.pg_advisory_xact_lock_shared(k) from (select app.group_lock_key(p_group, p_value) as k) x where k is not null
$fn$;
revoke execute on function app.lock_group_shared(text, text) from public, anon, authenticated;
grant execute on function app.lock_group_shared(text, text) to authenticated;

-- ======================================================================
-- Tables
-- ======================================================================

create table if not exists public.person (
  id uuid primary key references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  name text not null,
  email text not null,
  organisation text,
  phone text,
  constraint person__name__blank check (not (btrim(name, E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '')),
  constraint person__email__unique unique (email),
  constraint person__email__blank check (not (btrim(email, E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '')),
  constraint person__email__values check (char_length(email) <= 10000),
  constraint person__organisation__values check (char_length(organisation) <= 10000),
  constraint person__phone__values check (char_length(phone) <= 10000),
  constraint person__name_too_long__1 check (name is null or (char_length(name) <= 100)),
  constraint person__email_invalid__2 check (email is null or (email ~ '^[^ \t\n\r\f\v@]+@[^ \t\n\r\f\v@]+\.[^ \t\n\r\f\v@]+$')),
  constraint person__phone_invalid__3 check (phone is null or (phone ~ '^\+?[0-9 ()./-]{6,20}$'))
);

create table if not exists public.ticket (
  id uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  title text not null,
  description text not null,
  priority text not null default 'normal'::text,
  category uuid,
  requester uuid not null,
  assignee uuid,
  status text not null default 'new',
  due_at timestamptz,
  first_response_at timestamptz,
  solved_at timestamptz,
  closed_at timestamptz,
  resolution text,
  reopen_reason text,
  reopen_count integer not null default 0::integer,
  rating text,
  rating_comment text,
  constraint ticket__title__blank check (not (btrim(title, E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '')),
  constraint ticket__description__blank check (not (btrim(description, E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '')),
  constraint ticket__priority__values check (priority in ('low', 'normal', 'high', 'urgent')),
  constraint ticket__status__values check (status in ('new', 'open', 'pending', 'solved', 'closed')),
  constraint ticket__due_at__values check (isfinite(due_at)),
  constraint ticket__first_response_at__values check (isfinite(first_response_at)),
  constraint ticket__solved_at__values check (isfinite(solved_at)),
  constraint ticket__closed_at__values check (isfinite(closed_at)),
  constraint ticket__resolution__values check (char_length(resolution) <= 100000),
  constraint ticket__rating__values check (rating in ('good', 'bad')),
  constraint ticket__title_too_short__1 check (title is null or (char_length(title) >= 5)),
  constraint ticket__title_too_long__2 check (title is null or (char_length(title) <= 120)),
  constraint ticket__description_too_short__3 check (description is null or (char_length(description) >= 20)),
  constraint ticket__description_too_long__4 check (description is null or (char_length(description) <= 10000)),
  constraint ticket__resolution_too_short__5 check (resolution is null or (char_length(resolution) >= 10)),
  constraint ticket__comment_too_long__6 check (reopen_reason is null or (char_length(reopen_reason) <= 5000)),
  constraint ticket__comment_too_long__7 check (rating_comment is null or (char_length(rating_comment) <= 5000)),
  constraint ticket__due_after_target__10 check (not coalesce(((priority = 'urgent') and (not (due_at is null))), false) or coalesce((due_at <= (created_at + ((8)::double precision * interval '3600 seconds'))), false)),
  constraint ticket__due_after_target__11 check (not coalesce(((priority = 'high') and (not (due_at is null))), false) or coalesce((due_at <= (created_at + ((24)::double precision * interval '3600 seconds'))), false)),
  constraint ticket__due_after_target__12 check (not coalesce(((priority = 'normal') and (not (due_at is null))), false) or coalesce((due_at <= (created_at + ((72)::double precision * interval '3600 seconds'))), false)),
  constraint ticket__due_after_target__13 check (not coalesce(((priority = 'low') and (not (due_at is null))), false) or coalesce((due_at <= (created_at + ((168)::double precision * interval '3600 seconds'))), false)),
  constraint ticket__rating_before_solved__14 check (coalesce(((rating is null) or (status in ('solved', 'closed'))), false))
);

create table if not exists public.comment (
  id uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  ticket uuid not null,
  author uuid not null,
  body text not null,
  internal boolean not null default false::boolean,
  constraint comment__body__blank check (not (btrim(body, E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '')),
  constraint comment__comment_too_long__1 check (body is null or (char_length(body) <= 5000))
);

create table if not exists public.attachment (
  id uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  name text not null,
  size_bytes bigint not null,
  mime_type text not null default 'application/octet-stream',
  content bytea,
  ticket uuid not null,
  uploaded_by uuid not null,
  internal boolean not null default false::boolean,
  constraint attachment__attachment_too_large__1 check (coalesce((size_bytes <= ((10)::numeric * 1048576)), false))
);

create table if not exists public.category (
  id uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  name text not null,
  description text,
  active boolean not null default true::boolean,
  default_assignee uuid,
  constraint category__name__unique unique (name),
  constraint category__name__blank check (not (btrim(name, E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '')),
  constraint category__description__values check (char_length(description) <= 100000),
  constraint category__name_too_long__1 check (name is null or (char_length(name) <= 100))
);

create table if not exists public.saved_reply (
  id uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  title text not null,
  body text not null,
  category uuid,
  shared boolean not null default false::boolean,
  created_by uuid not null,
  constraint saved_reply__title__blank check (not (btrim(title, E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '')),
  constraint saved_reply__body__blank check (not (btrim(body, E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '')),
  constraint saved_reply__title_too_long__1 check (title is null or (char_length(title) <= 120)),
  constraint saved_reply__comment_too_long__2 check (body is null or (char_length(body) <= 5000))
);

-- ======================================================================
-- References and indexes
-- ======================================================================

create index if not exists person__name__idx on public.person (name);

do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'ticket__category__fk' and conrelid = 'public.ticket'::regclass) then
    alter table public.ticket add constraint ticket__category__fk foreign key (category) references public.category (id) on delete restrict;
  end if;
end $do$;
do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'ticket__requester__fk' and conrelid = 'public.ticket'::regclass) then
    alter table public.ticket add constraint ticket__requester__fk foreign key (requester) references public.person (id) on delete restrict;
  end if;
end $do$;
do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'ticket__assignee__fk' and conrelid = 'public.ticket'::regclass) then
    alter table public.ticket add constraint ticket__assignee__fk foreign key (assignee) references public.person (id) on delete set null;
  end if;
end $do$;

create index if not exists ticket__assignee__idx on public.ticket (assignee);
create index if not exists ticket__category__idx on public.ticket (category);
create index if not exists ticket__created_at__idx on public.ticket (created_at);
create index if not exists ticket__due_at__idx on public.ticket (due_at);
create index if not exists ticket__requester__idx on public.ticket (requester);
create index if not exists ticket__status__idx on public.ticket (status);
create index if not exists ticket__assignee__due_at__id__where_status__idx on public.ticket (assignee, due_at, id) include (priority, requester, status) where status in ('new', 'open', 'pending');
create index if not exists ticket__status__created_at__id__idx on public.ticket (status, created_at, id) include (category, priority, requester);
create index if not exists ticket__status__priority__created_at__id__idx on public.ticket (status, priority, created_at, id) include (category, requester);
create index if not exists ticket__requester__created_at__id__idx on public.ticket (requester, created_at, id) include (assignee, category, priority, status);

do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'comment__ticket__fk' and conrelid = 'public.comment'::regclass) then
    alter table public.comment add constraint comment__ticket__fk foreign key (ticket) references public.ticket (id) on delete cascade;
  end if;
end $do$;
do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'comment__author__fk' and conrelid = 'public.comment'::regclass) then
    alter table public.comment add constraint comment__author__fk foreign key (author) references public.person (id) on delete restrict;
  end if;
end $do$;

create index if not exists comment__author__idx on public.comment (author);
create index if not exists comment__internal__idx on public.comment (internal);
create index if not exists comment__ticket__idx on public.comment (ticket);

do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'attachment__ticket__fk' and conrelid = 'public.attachment'::regclass) then
    alter table public.attachment add constraint attachment__ticket__fk foreign key (ticket) references public.ticket (id) on delete cascade;
  end if;
end $do$;
do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'attachment__uploaded_by__fk' and conrelid = 'public.attachment'::regclass) then
    alter table public.attachment add constraint attachment__uploaded_by__fk foreign key (uploaded_by) references public.person (id) on delete restrict;
  end if;
end $do$;

create index if not exists attachment__internal__idx on public.attachment (internal);
create index if not exists attachment__ticket__idx on public.attachment (ticket);
create index if not exists attachment__uploaded_by__idx on public.attachment (uploaded_by);

do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'attachment__size_bytes__nonnegative' and conrelid = 'public.attachment'::regclass) then
    alter table public.attachment add constraint attachment__size_bytes__nonnegative check (size_bytes >= 0);
  end if;
end $do$;
do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'attachment__name__values' and conrelid = 'public.attachment'::regclass) then
    alter table public.attachment add constraint attachment__name__values check (char_length(name) <= 255);
  end if;
end $do$;
do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'attachment__mime_type__values' and conrelid = 'public.attachment'::regclass) then
    alter table public.attachment add constraint attachment__mime_type__values check (char_length(mime_type) <= 255);
  end if;
end $do$;
do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'attachment__size_bytes__matches_content' and conrelid = 'public.attachment'::regclass) then
    alter table public.attachment add constraint attachment__size_bytes__matches_content check (content is null or octet_length(content) = size_bytes);
  end if;
end $do$;

do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'category__default_assignee__fk' and conrelid = 'public.category'::regclass) then
    alter table public.category add constraint category__default_assignee__fk foreign key (default_assignee) references public.person (id) on delete set null;
  end if;
end $do$;

create index if not exists category__active__idx on public.category (active);
create index if not exists category__default_assignee__idx on public.category (default_assignee);

do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'saved_reply__category__fk' and conrelid = 'public.saved_reply'::regclass) then
    alter table public.saved_reply add constraint saved_reply__category__fk foreign key (category) references public.category (id) on delete set null;
  end if;
end $do$;
do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'saved_reply__created_by__fk' and conrelid = 'public.saved_reply'::regclass) then
    alter table public.saved_reply add constraint saved_reply__created_by__fk foreign key (created_by) references public.person (id) on delete cascade;
  end if;
end $do$;

create index if not exists saved_reply__category__idx on public.saved_reply (category);
create index if not exists saved_reply__created_by__idx on public.saved_reply (created_by);
create index if not exists saved_reply__shared__idx on public.saved_reply (shared);
create index if not exists saved_reply__title__idx on public.saved_reply (title);

-- ======================================================================
-- Users
-- ======================================================================

-- A new auth user gets a person row and the sign-up roles (customer).
create or replace function app.on_auth_user_created()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  begin
    insert into public.person (id, name, email, organisation, phone)
    values (new.id, coalesce(nullif(new.raw_user_meta_data ->> 'name', ''), split_part(new.email, '@', 1)), new.email, nullif(new.raw_user_meta_data ->> 'organisation', ''), nullif(new.raw_user_meta_data ->> 'phone', ''))
    on conflict (id) do nothing;
  exception when check_violation or not_null_violation then
    declare
      v_state text; v_message text; v_constraint text; v_schema text; v_table text; v_column text;
    begin
      get stacked diagnostics v_state = returned_sqlstate, v_message = message_text,
        v_constraint = constraint_name, v_schema = schema_name, v_table = table_name, v_column = column_name;
      raise exception using errcode = v_state, message = v_message, constraint = v_constraint,
        schema = v_schema, table = v_table, column = v_column;
    end;
  end;
  insert into app.user_roles (user_id, role) values (new.id, 'customer') on conflict do nothing;
  return new;
end;
$fn$;
revoke execute on function app.on_auth_user_created() from public, anon, authenticated;
create or replace trigger ninefold_on_auth_user_created after insert on auth.users for each row execute function app.on_auth_user_created();
-- The person's e-mail follows the account's e-mail.
create or replace function app.on_auth_user_email_changed()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  update public.person set email = new.email where id = new.id;
  return new;
end;
$fn$;
revoke execute on function app.on_auth_user_email_changed() from public, anon, authenticated;
create or replace trigger ninefold_on_auth_user_email_changed after update of email on auth.users for each row when (old.email is distinct from new.email) execute function app.on_auth_user_email_changed();

-- ======================================================================
-- Row bookkeeping and column rules
-- ======================================================================

-- Insert bookkeeping of person.
create or replace function app.person__on_insert()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  new.created_at := now();
  new.updated_at := new.created_at;
  new.version := 1;
  return new;
end;
$fn$;
revoke execute on function app.person__on_insert() from public, anon, authenticated;
create or replace trigger ninefold_10_on_insert before insert on public.person for each row execute function app.person__on_insert();
-- Update bookkeeping and column rules of person.
create or replace function app.person__on_update()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  new.id := old.id;
  new.created_at := old.created_at;
  new.version := old.version + 1;
  new.updated_at := now();
  if current_user in ('anon', 'authenticated') then
    if new.name is distinct from old.name and not ((app.has_role((select auth.uid()), 'customer') and coalesce((old.id = (select auth.uid())), false)) or (app.has_role((select auth.uid()), 'agent') and coalesce((old.id = (select auth.uid())), false)) or app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'person', 'field', 'name')::text;
    end if;
    if new.email is distinct from old.email and not (app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'person', 'field', 'email')::text;
    end if;
    if new.organisation is distinct from old.organisation and not ((app.has_role((select auth.uid()), 'customer') and coalesce((old.id = (select auth.uid())), false)) or (app.has_role((select auth.uid()), 'agent') and coalesce((old.id = (select auth.uid())), false)) or app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'person', 'field', 'organisation')::text;
    end if;
    if new.phone is distinct from old.phone and not ((app.has_role((select auth.uid()), 'customer') and coalesce((old.id = (select auth.uid())), false)) or (app.has_role((select auth.uid()), 'agent') and coalesce((old.id = (select auth.uid())), false)) or app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'person', 'field', 'phone')::text;
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.person__on_update() from public, anon, authenticated;
create or replace trigger ninefold_20_on_update before update on public.person for each row execute function app.person__on_update();

-- Insert bookkeeping of ticket.
create or replace function app.ticket__on_insert()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  new.created_at := now();
  new.updated_at := new.created_at;
  new.version := 1;
  if current_user in ('anon', 'authenticated') then
    new.requester := (select auth.uid());
    new.status := 'new';
    if new.category is not null and not exists (select 1 from public.category x where x.id = new.category) then
      raise exception using errcode = '23503', constraint = 'ticket__category__fk',
        message = 'insert or update on table "ticket" violates foreign key constraint "ticket__category__fk"',
        detail = 'Key (category) is not present in table "category".';
    end if;
    if new.assignee is not null and not exists (select 1 from public.person x where x.id = new.assignee) then
      raise exception using errcode = '23503', constraint = 'ticket__assignee__fk',
        message = 'insert or update on table "ticket" violates foreign key constraint "ticket__assignee__fk"',
        detail = 'Key (assignee) is not present in table "person".';
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.ticket__on_insert() from public, anon, authenticated;
create or replace trigger ninefold_10_on_insert before insert on public.ticket for each row execute function app.ticket__on_insert();
-- Update bookkeeping and column rules of ticket.
create or replace function app.ticket__on_update()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  new.id := old.id;
  new.created_at := old.created_at;
  new.version := old.version + 1;
  new.updated_at := now();
  if current_user in ('anon', 'authenticated') then
    if new.requester is distinct from old.requester then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'ticket', 'field', 'requester')::text;
    end if;
    if new.status is distinct from old.status then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'ticket', 'field', 'status')::text;
    end if;
    if new.first_response_at is distinct from old.first_response_at then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'ticket', 'field', 'firstResponseAt')::text;
    end if;
    if new.solved_at is distinct from old.solved_at then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'ticket', 'field', 'solvedAt')::text;
    end if;
    if new.closed_at is distinct from old.closed_at then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'ticket', 'field', 'closedAt')::text;
    end if;
    if new.resolution is distinct from old.resolution then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'ticket', 'field', 'resolution')::text;
    end if;
    if new.reopen_reason is distinct from old.reopen_reason then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'ticket', 'field', 'reopenReason')::text;
    end if;
    if new.reopen_count is distinct from old.reopen_count then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'ticket', 'field', 'reopenCount')::text;
    end if;
    if new.title is distinct from old.title and not ((app.has_role((select auth.uid()), 'customer') and coalesce(((old.requester = (select auth.uid())) and (old.status <> 'closed')), false)) or (app.has_role((select auth.uid()), 'agent') and coalesce((old.status <> 'closed'), false)) or app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'ticket', 'field', 'title')::text;
    end if;
    if new.description is distinct from old.description and not ((app.has_role((select auth.uid()), 'customer') and coalesce(((old.requester = (select auth.uid())) and (old.status <> 'closed')), false)) or (app.has_role((select auth.uid()), 'agent') and coalesce((old.status <> 'closed'), false)) or app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'ticket', 'field', 'description')::text;
    end if;
    if new.priority is distinct from old.priority and not ((app.has_role((select auth.uid()), 'agent') and coalesce((old.status <> 'closed'), false)) or app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'ticket', 'field', 'priority')::text;
    end if;
    if new.category is distinct from old.category and not ((app.has_role((select auth.uid()), 'agent') and coalesce((old.status <> 'closed'), false)) or app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'ticket', 'field', 'category')::text;
    end if;
    if new.assignee is distinct from old.assignee and not ((app.has_role((select auth.uid()), 'agent') and coalesce((old.status <> 'closed'), false)) or app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'ticket', 'field', 'assignee')::text;
    end if;
    if new.due_at is distinct from old.due_at and not ((app.has_role((select auth.uid()), 'agent') and coalesce((old.status <> 'closed'), false)) or app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'ticket', 'field', 'dueAt')::text;
    end if;
    if new.rating is distinct from old.rating and not ((app.has_role((select auth.uid()), 'customer') and coalesce(((old.requester = (select auth.uid())) and (old.status <> 'closed')), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'ticket', 'field', 'rating')::text;
    end if;
    if new.rating_comment is distinct from old.rating_comment and not ((app.has_role((select auth.uid()), 'customer') and coalesce(((old.requester = (select auth.uid())) and (old.status <> 'closed')), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'ticket', 'field', 'ratingComment')::text;
    end if;
    if new.category is not null and new.category is distinct from old.category and not exists (select 1 from public.category x where x.id = new.category) then
      raise exception using errcode = '23503', constraint = 'ticket__category__fk',
        message = 'insert or update on table "ticket" violates foreign key constraint "ticket__category__fk"',
        detail = 'Key (category) is not present in table "category".';
    end if;
    if new.assignee is not null and new.assignee is distinct from old.assignee and not exists (select 1 from public.person x where x.id = new.assignee) then
      raise exception using errcode = '23503', constraint = 'ticket__assignee__fk',
        message = 'insert or update on table "ticket" violates foreign key constraint "ticket__assignee__fk"',
        detail = 'Key (assignee) is not present in table "person".';
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.ticket__on_update() from public, anon, authenticated;
create or replace trigger ninefold_20_on_update before update on public.ticket for each row execute function app.ticket__on_update();

-- Locks the groups of ticket that rules read, before the write (see emitGroupLocks.ts).
create or replace function app.ticket__lock_groups()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  if tg_op = 'INSERT' or (tg_op = 'UPDATE' and old.category is distinct from new.category) then
    perform 1 from public.category p where p.id = new.category for key share;
  end if;
  if tg_op = 'INSERT' then
    perform app.lock_group_shared('ticket.category', (new.category)::text);
  elsif tg_op = 'DELETE' then
    if exists (select 1 from public.category p where p.id = old.category) then
      perform app.lock_group_shared('ticket.category', (old.category)::text);
    end if;
  else
    perform app.lock_group_shared('ticket.category', (least(old.category::text, new.category::text))::text);
    if old.category is distinct from new.category then
      perform app.lock_group_shared('ticket.category', (greatest(old.category::text, new.category::text))::text);
    end if;
  end if;
  if tg_op = 'UPDATE' and (old.requester is distinct from new.requester or old.status is distinct from new.status) then
    perform app.lock_group('attachment.ticket', (new.id)::text);
  end if;
  if tg_op = 'UPDATE' and (old.requester is distinct from new.requester or old.status is distinct from new.status) then
    perform app.lock_group('comment.ticket', (new.id)::text);
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.ticket__lock_groups() from public, anon, authenticated;
create or replace trigger ninefold_05_lock_groups before insert or update or delete on public.ticket for each row execute function app.ticket__lock_groups();

-- Insert bookkeeping of comment.
create or replace function app.comment__on_insert()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  new.created_at := now();
  new.updated_at := new.created_at;
  new.version := 1;
  if current_user in ('anon', 'authenticated') then
    new.author := (select auth.uid());
    if new.ticket is not null and not exists (select 1 from public.ticket x where x.id = new.ticket) then
      raise exception using errcode = '23503', constraint = 'comment__ticket__fk',
        message = 'insert or update on table "comment" violates foreign key constraint "comment__ticket__fk"',
        detail = 'Key (ticket) is not present in table "ticket".';
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.comment__on_insert() from public, anon, authenticated;
create or replace trigger ninefold_10_on_insert before insert on public.comment for each row execute function app.comment__on_insert();
-- Update bookkeeping and column rules of comment.
create or replace function app.comment__on_update()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  new.id := old.id;
  new.created_at := old.created_at;
  new.version := old.version + 1;
  new.updated_at := now();
  if current_user in ('anon', 'authenticated') then
    if new.ticket is distinct from old.ticket then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'comment', 'field', 'ticket')::text;
    end if;
    if new.author is distinct from old.author then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'comment', 'field', 'author')::text;
    end if;
    if new.body is distinct from old.body and not ((app.has_role((select auth.uid()), 'agent') and coalesce(((old.author = (select auth.uid())) and (old.internal = true)), false)) or app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'comment', 'field', 'body')::text;
    end if;
    if new.internal is distinct from old.internal and not (app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'comment', 'field', 'internal')::text;
    end if;
    if new.ticket is not null and new.ticket is distinct from old.ticket and not exists (select 1 from public.ticket x where x.id = new.ticket) then
      raise exception using errcode = '23503', constraint = 'comment__ticket__fk',
        message = 'insert or update on table "comment" violates foreign key constraint "comment__ticket__fk"',
        detail = 'Key (ticket) is not present in table "ticket".';
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.comment__on_update() from public, anon, authenticated;
create or replace trigger ninefold_20_on_update before update on public.comment for each row execute function app.comment__on_update();

-- Locks the groups of comment that rules read, before the write (see emitGroupLocks.ts).
create or replace function app.comment__lock_groups()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  if tg_op = 'INSERT' or (tg_op = 'UPDATE' and old.ticket is distinct from new.ticket) then
    perform 1 from public.ticket p where p.id = new.ticket for key share;
  end if;
  if tg_op = 'INSERT' then
    perform app.lock_group_shared('comment.ticket', (new.ticket)::text);
  elsif tg_op = 'DELETE' then
    if exists (select 1 from public.ticket p where p.id = old.ticket) then
      perform app.lock_group_shared('comment.ticket', (old.ticket)::text);
    end if;
  else
    perform app.lock_group_shared('comment.ticket', (least(old.ticket::text, new.ticket::text))::text);
    if old.ticket is distinct from new.ticket then
      perform app.lock_group_shared('comment.ticket', (greatest(old.ticket::text, new.ticket::text))::text);
    end if;
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.comment__lock_groups() from public, anon, authenticated;
create or replace trigger ninefold_05_lock_groups before insert or update or delete on public.comment for each row execute function app.comment__lock_groups();

-- Insert bookkeeping of attachment.
create or replace function app.attachment__on_insert()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  new.created_at := now();
  new.updated_at := new.created_at;
  new.version := 1;
  if current_user in ('anon', 'authenticated') then
    new.uploaded_by := (select auth.uid());
    if new.ticket is not null and not exists (select 1 from public.ticket x where x.id = new.ticket) then
      raise exception using errcode = '23503', constraint = 'attachment__ticket__fk',
        message = 'insert or update on table "attachment" violates foreign key constraint "attachment__ticket__fk"',
        detail = 'Key (ticket) is not present in table "ticket".';
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.attachment__on_insert() from public, anon, authenticated;
create or replace trigger ninefold_10_on_insert before insert on public.attachment for each row execute function app.attachment__on_insert();
-- Update bookkeeping and column rules of attachment.
create or replace function app.attachment__on_update()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  new.id := old.id;
  new.created_at := old.created_at;
  new.version := old.version + 1;
  new.updated_at := now();
  if current_user in ('anon', 'authenticated') then
    if new.ticket is distinct from old.ticket then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'attachment', 'field', 'ticket')::text;
    end if;
    if new.uploaded_by is distinct from old.uploaded_by then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'attachment', 'field', 'uploadedBy')::text;
    end if;
    if new.name is distinct from old.name then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'attachment', 'field', 'name')::text;
    end if;
    if new.size_bytes is distinct from old.size_bytes then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'attachment', 'field', 'size_bytes')::text;
    end if;
    if new.mime_type is distinct from old.mime_type then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'attachment', 'field', 'mime_type')::text;
    end if;
    if new.internal is distinct from old.internal and not (app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'attachment', 'field', 'internal')::text;
    end if;
    if new.ticket is not null and new.ticket is distinct from old.ticket and not exists (select 1 from public.ticket x where x.id = new.ticket) then
      raise exception using errcode = '23503', constraint = 'attachment__ticket__fk',
        message = 'insert or update on table "attachment" violates foreign key constraint "attachment__ticket__fk"',
        detail = 'Key (ticket) is not present in table "ticket".';
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.attachment__on_update() from public, anon, authenticated;
create or replace trigger ninefold_20_on_update before update on public.attachment for each row execute function app.attachment__on_update();

-- Locks the groups of attachment that rules read, before the write (see emitGroupLocks.ts).
create or replace function app.attachment__lock_groups()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  if tg_op = 'INSERT' or (tg_op = 'UPDATE' and old.ticket is distinct from new.ticket) then
    perform 1 from public.ticket p where p.id = new.ticket for key share;
  end if;
  if tg_op = 'INSERT' then
    perform app.lock_group('attachment.ticket', (new.ticket)::text);
  elsif tg_op = 'DELETE' then
    if exists (select 1 from public.ticket p where p.id = old.ticket) then
      perform app.lock_group('attachment.ticket', (old.ticket)::text);
    end if;
  else
    perform app.lock_group('attachment.ticket', (least(old.ticket::text, new.ticket::text))::text);
    if old.ticket is distinct from new.ticket then
      perform app.lock_group('attachment.ticket', (greatest(old.ticket::text, new.ticket::text))::text);
    end if;
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.attachment__lock_groups() from public, anon, authenticated;
create or replace trigger ninefold_05_lock_groups before insert or update or delete on public.attachment for each row execute function app.attachment__lock_groups();

-- Insert bookkeeping of category.
create or replace function app.category__on_insert()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  new.created_at := now();
  new.updated_at := new.created_at;
  new.version := 1;
  if current_user in ('anon', 'authenticated') then
    if new.default_assignee is not null and not exists (select 1 from public.person x where x.id = new.default_assignee) then
      raise exception using errcode = '23503', constraint = 'category__default_assignee__fk',
        message = 'insert or update on table "category" violates foreign key constraint "category__default_assignee__fk"',
        detail = 'Key (default_assignee) is not present in table "person".';
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.category__on_insert() from public, anon, authenticated;
create or replace trigger ninefold_10_on_insert before insert on public.category for each row execute function app.category__on_insert();
-- Update bookkeeping and column rules of category.
create or replace function app.category__on_update()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  new.id := old.id;
  new.created_at := old.created_at;
  new.version := old.version + 1;
  new.updated_at := now();
  if current_user in ('anon', 'authenticated') then
    if new.name is distinct from old.name and not (app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'category', 'field', 'name')::text;
    end if;
    if new.description is distinct from old.description and not (app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'category', 'field', 'description')::text;
    end if;
    if new.active is distinct from old.active and not (app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'category', 'field', 'active')::text;
    end if;
    if new.default_assignee is distinct from old.default_assignee and not (app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'category', 'field', 'defaultAssignee')::text;
    end if;
    if new.default_assignee is not null and new.default_assignee is distinct from old.default_assignee and not exists (select 1 from public.person x where x.id = new.default_assignee) then
      raise exception using errcode = '23503', constraint = 'category__default_assignee__fk',
        message = 'insert or update on table "category" violates foreign key constraint "category__default_assignee__fk"',
        detail = 'Key (default_assignee) is not present in table "person".';
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.category__on_update() from public, anon, authenticated;
create or replace trigger ninefold_20_on_update before update on public.category for each row execute function app.category__on_update();

-- Locks the groups of category that rules read, before the write (see emitGroupLocks.ts).
create or replace function app.category__lock_groups()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  if tg_op = 'UPDATE' and (old.active is distinct from new.active) then
    perform app.lock_group('ticket.category', (new.id)::text);
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.category__lock_groups() from public, anon, authenticated;
create or replace trigger ninefold_05_lock_groups before insert or update or delete on public.category for each row execute function app.category__lock_groups();

-- Insert bookkeeping of savedReply.
create or replace function app.saved_reply__on_insert()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  new.created_at := now();
  new.updated_at := new.created_at;
  new.version := 1;
  if current_user in ('anon', 'authenticated') then
    new.created_by := (select auth.uid());
    if new.category is not null and not exists (select 1 from public.category x where x.id = new.category) then
      raise exception using errcode = '23503', constraint = 'saved_reply__category__fk',
        message = 'insert or update on table "saved_reply" violates foreign key constraint "saved_reply__category__fk"',
        detail = 'Key (category) is not present in table "category".';
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.saved_reply__on_insert() from public, anon, authenticated;
create or replace trigger ninefold_10_on_insert before insert on public.saved_reply for each row execute function app.saved_reply__on_insert();
-- Update bookkeeping and column rules of savedReply.
create or replace function app.saved_reply__on_update()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  new.id := old.id;
  new.created_at := old.created_at;
  new.version := old.version + 1;
  new.updated_at := now();
  if current_user in ('anon', 'authenticated') then
    if new.created_by is distinct from old.created_by then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'savedReply', 'field', 'createdBy')::text;
    end if;
    if new.title is distinct from old.title and not ((app.has_role((select auth.uid()), 'agent') and coalesce((old.created_by = (select auth.uid())), false)) or app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'savedReply', 'field', 'title')::text;
    end if;
    if new.body is distinct from old.body and not ((app.has_role((select auth.uid()), 'agent') and coalesce((old.created_by = (select auth.uid())), false)) or app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'savedReply', 'field', 'body')::text;
    end if;
    if new.category is distinct from old.category and not ((app.has_role((select auth.uid()), 'agent') and coalesce((old.created_by = (select auth.uid())), false)) or app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'savedReply', 'field', 'category')::text;
    end if;
    if new.shared is distinct from old.shared and not ((app.has_role((select auth.uid()), 'agent') and coalesce((old.created_by = (select auth.uid())), false)) or app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'savedReply', 'field', 'shared')::text;
    end if;
    if new.category is not null and new.category is distinct from old.category and not exists (select 1 from public.category x where x.id = new.category) then
      raise exception using errcode = '23503', constraint = 'saved_reply__category__fk',
        message = 'insert or update on table "saved_reply" violates foreign key constraint "saved_reply__category__fk"',
        detail = 'Key (category) is not present in table "category".';
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.saved_reply__on_update() from public, anon, authenticated;
create or replace trigger ninefold_20_on_update before update on public.saved_reply for each row execute function app.saved_reply__on_update();

-- ======================================================================
-- Validation beyond the row
-- ======================================================================

-- Validation of ticket that reads beyond the row (raises the rule's catalogue code).
create or replace function app.ticket__validate()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  if not (coalesce(((new.assignee is null) or app.has_role(new.assignee, 'agent')), false)) then
    raise exception using errcode = 'P0001', message = 'ASSIGNEE_NOT_AGENT', detail = jsonb_build_object('entity', 'ticket', 'field', 'assignee')::text;
  end if;
  if not (not coalesce((new.status = 'new'), false) or coalesce(((new.category is null) or ((select _h1.active from public.category _h1 where _h1.id = new.category) = true)), false)) then
    raise exception using errcode = 'P0001', message = 'CATEGORY_INACTIVE', detail = jsonb_build_object('entity', 'ticket', 'field', 'category')::text;
  end if;
  if (tg_op = 'INSERT' or new.due_at is distinct from old.due_at) and not (not coalesce((not (new.due_at is null)), false) or coalesce((new.due_at >= now()), false)) then
    raise exception using errcode = 'P0001', message = 'DUE_IN_PAST', detail = jsonb_build_object('entity', 'ticket', 'field', 'dueAt')::text;
  end if;
  return null;
end;
$fn$;
revoke execute on function app.ticket__validate() from public, anon, authenticated;
create or replace trigger ninefold_30_validate after insert or update on public.ticket for each row execute function app.ticket__validate();

-- Validation of comment that reads beyond the row (raises the rule's catalogue code).
create or replace function app.comment__validate()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  if not (coalesce(((select _h1.status from public.ticket _h1 where _h1.id = new.ticket) <> 'closed'), false)) then
    raise exception using errcode = 'P0001', message = 'TICKET_CLOSED', detail = jsonb_build_object('entity', 'comment')::text;
  end if;
  return null;
end;
$fn$;
revoke execute on function app.comment__validate() from public, anon, authenticated;
create or replace trigger ninefold_30_validate after insert or update on public.comment for each row execute function app.comment__validate();

-- Write permissions of comment that read other rows, checked again under the group locks.
create or replace function app.comment__recheck_permission()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  if current_user in ('anon', 'authenticated') then
    if tg_op = 'INSERT' and not (((select app.has_role((select auth.uid()), 'customer')) and coalesce(((new.internal = false) and ((select _h1.requester from public.ticket _h1 where _h1.id = new.ticket) = (select auth.uid()))), false)) or (select app.has_role((select auth.uid()), 'agent')) or (select app.has_role((select auth.uid()), 'admin'))) then
      raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'comment', 'action', 'create')::text;
    end if;
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.comment__recheck_permission() from public, anon, authenticated;
create or replace trigger ninefold_35_recheck_permission before insert or update or delete on public.comment for each row execute function app.comment__recheck_permission();

-- attachment: whether a row counts in a rule's count for the current writer (it may read or owns it).
create or replace function app.attachment__counted_for_writer(p_row public.attachment)
returns boolean
language sql stable security definer
set search_path = ''
as $fn$
select coalesce(
  coalesce(current_setting('role', true), 'none') not in ('anon', 'authenticated')
  or p_row.uploaded_by = (select auth.uid())
  or (((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['customer']::text[]))) and coalesce(((p_row.internal = false) and ((select _h1_p_row.requester from public.ticket _h1_p_row where _h1_p_row.id = p_row.ticket and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['customer']::text[]))) and coalesce((_h1_p_row.requester = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['agent', 'admin']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false)) = (select auth.uid()))), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['agent', 'admin']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[])))), false);
$fn$;
revoke execute on function app.attachment__counted_for_writer(public.attachment) from public, anon, authenticated;

-- Validation of attachment that reads beyond the row (raises the rule's catalogue code).
create or replace function app.attachment__validate()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  perform app.lock_group('attachment.ticket', (new.ticket)::text);
  if not (coalesce(((select count(*) from public.attachment _c1 where (((_c1.ticket = new.ticket) and (_c1.internal = new.internal))) and (_c1.id = new.id or app.attachment__counted_for_writer(_c1))) <= 20), false)) then
    raise exception using errcode = 'P0001', message = 'TOO_MANY_ATTACHMENTS', detail = jsonb_build_object('entity', 'attachment')::text;
  end if;
  if not (coalesce(((select _h1.status from public.ticket _h1 where _h1.id = new.ticket) <> 'closed'), false)) then
    raise exception using errcode = 'P0001', message = 'TICKET_CLOSED', detail = jsonb_build_object('entity', 'attachment')::text;
  end if;
  return null;
end;
$fn$;
revoke execute on function app.attachment__validate() from public, anon, authenticated;
create or replace trigger ninefold_30_validate after insert or update on public.attachment for each row execute function app.attachment__validate();

-- Write permissions of attachment that read other rows, checked again under the group locks.
create or replace function app.attachment__recheck_permission()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  if current_user in ('anon', 'authenticated') then
    if tg_op = 'INSERT' and not (((select app.has_role((select auth.uid()), 'customer')) and coalesce(((new.internal = false) and ((select _h1.requester from public.ticket _h1 where _h1.id = new.ticket) = (select auth.uid()))), false)) or (select app.has_role((select auth.uid()), 'agent')) or (select app.has_role((select auth.uid()), 'admin'))) then
      raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'attachment', 'action', 'create')::text;
    end if;
    if tg_op = 'DELETE' and exists (select 1 from public.ticket p where p.id = old.ticket) and not (((select app.has_role((select auth.uid()), 'customer')) and coalesce(((old.uploaded_by = (select auth.uid())) and ((select _h1.status from public.ticket _h1 where _h1.id = old.ticket) in ('new', 'open', 'pending'))), false)) or ((select app.has_role((select auth.uid()), 'agent')) and coalesce((old.uploaded_by = (select auth.uid())), false)) or (select app.has_role((select auth.uid()), 'admin'))) then
      raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'attachment', 'action', 'delete')::text;
    end if;
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.attachment__recheck_permission() from public, anon, authenticated;
create or replace trigger ninefold_35_recheck_permission before insert or update or delete on public.attachment for each row execute function app.attachment__recheck_permission();

-- ======================================================================
-- History
-- ======================================================================

create table if not exists public.ticket_history (
  id uuid primary key default gen_random_uuid(),
  row_id uuid not null,
  kind text not null default 'transition',
  transition text not null,
  from_state text not null,
  to_state text not null,
  actor uuid,
  at timestamptz not null default now(),
  input jsonb not null default '{}'::jsonb,
  previous jsonb not null default '{}'::jsonb
);
alter table public.ticket_history add column if not exists kind text not null default 'transition';
alter table public.ticket_history add column if not exists previous jsonb not null default '{}'::jsonb;
create index if not exists ticket_history__row_id__idx on public.ticket_history (row_id, at);
alter table public.ticket_history enable row level security;
alter table public.ticket_history force row level security;
drop policy if exists ticket_history__read on public.ticket_history;
create policy ticket_history__read on public.ticket_history as permissive for select to authenticated using (exists (select 1 from public.ticket x where x.id = ticket_history.row_id and x.created_at <= ticket_history.at) and (ticket_history.kind <> 'added' or case ticket_history.transition when 'comment' then exists (select 1 from public.comment c where c.id = (ticket_history.input ->> 'id')::uuid) when 'attachment' then exists (select 1 from public.attachment c where c.id = (ticket_history.input ->> 'id')::uuid) else false end));
-- History of ticket is append-only.
create or replace function app.ticket_history__append_only()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  raise exception using errcode = 'P0001', message = 'APPEND_ONLY', detail = jsonb_build_object('table', 'ticket_history')::text;
end;
$fn$;
revoke execute on function app.ticket_history__append_only() from public, anon, authenticated;
create or replace trigger ninefold_append_only before update or delete on public.ticket_history for each row execute function app.ticket_history__append_only();

-- History of ticket: edits of title, priority, category, assignee, dueAt.
create or replace function app.ticket__audit()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  v jsonb := '{}'::jsonb;
  p jsonb := '{}'::jsonb;
begin
  if (select auth.uid()) is null or coalesce(current_setting('ninefold.in_transition', true), '') = 'on' then
    return null;
  end if;
  if new.title is distinct from old.title then v := v || jsonb_build_object('title', to_jsonb(new.title)); p := p || jsonb_build_object('title', to_jsonb(old.title)); end if;
  if new.priority is distinct from old.priority then v := v || jsonb_build_object('priority', to_jsonb(new.priority)); p := p || jsonb_build_object('priority', to_jsonb(old.priority)); end if;
  if new.category is distinct from old.category then v := v || jsonb_build_object('category', to_jsonb(new.category)); p := p || jsonb_build_object('category', to_jsonb(old.category)); end if;
  if new.assignee is distinct from old.assignee then v := v || jsonb_build_object('assignee', to_jsonb(new.assignee)); p := p || jsonb_build_object('assignee', to_jsonb(old.assignee)); end if;
  if new.due_at is distinct from old.due_at then v := v || jsonb_build_object('dueAt', to_jsonb(new.due_at)); p := p || jsonb_build_object('dueAt', to_jsonb(old.due_at)); end if;
  if v <> '{}'::jsonb then
    insert into public.ticket_history (row_id, kind, transition, from_state, to_state, actor, input, previous)
    values (new.id, 'edit', '', old.status, new.status, (select auth.uid()), v, p);
  end if;
  return null;
end;
$fn$;
revoke execute on function app.ticket__audit() from public, anon, authenticated;

create or replace trigger ninefold_audit after update on public.ticket for each row execute function app.ticket__audit();

-- History of ticket: a comment added under it.
create or replace function app.comment__audit_ticket()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  if (select auth.uid()) is null or new.ticket is null then
    return null;
  end if;
  insert into public.ticket_history (row_id, kind, transition, from_state, to_state, actor, input)
  select p.id, 'added', 'comment', p.status, p.status, (select auth.uid()), jsonb_build_object('id', new.id)
  from public.ticket p where p.id = new.ticket;
  return null;
end;
$fn$;
revoke execute on function app.comment__audit_ticket() from public, anon, authenticated;

create or replace trigger ninefold_audit_ticket after insert on public.comment for each row execute function app.comment__audit_ticket();

-- History of ticket: a attachment added under it.
create or replace function app.attachment__audit_ticket()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  if (select auth.uid()) is null or new.ticket is null then
    return null;
  end if;
  insert into public.ticket_history (row_id, kind, transition, from_state, to_state, actor, input)
  select p.id, 'added', 'attachment', p.status, p.status, (select auth.uid()), jsonb_build_object('id', new.id)
  from public.ticket p where p.id = new.ticket;
  return null;
end;
$fn$;
revoke execute on function app.attachment__audit_ticket() from public, anon, authenticated;

create or replace trigger ninefold_audit_ticket after insert on public.attachment for each row execute function app.attachment__audit_ticket();

-- ======================================================================
-- Outbox
-- ======================================================================

create table if not exists app.outbox (
  id uuid primary key default gen_random_uuid(),
  call text not null,
  payload jsonb not null,
  requested_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);
alter table app.outbox add column if not exists entity text;
alter table app.outbox add column if not exists row_id uuid;
alter table app.outbox add column if not exists transition text;
alter table app.outbox add column if not exists idempotency_key text generated always as ('ninefold-outbox-' || id::text) stored;
alter table app.outbox add column if not exists status text not null default 'pending';
alter table app.outbox add column if not exists attempts integer not null default 0;
alter table app.outbox add column if not exists next_attempt_at timestamptz not null default now();
alter table app.outbox add column if not exists locked_until timestamptz;
alter table app.outbox add column if not exists delivered_at timestamptz;
alter table app.outbox add column if not exists last_error text;
alter table app.outbox add column if not exists response jsonb;
alter table app.outbox drop constraint if exists outbox__status;
alter table app.outbox add constraint outbox__status check (status in ('pending', 'sending', 'delivered', 'failed'));
create index if not exists outbox__due__idx on app.outbox (next_attempt_at) where status in ('pending', 'sending');
create index if not exists outbox__delivered__idx on app.outbox (delivered_at) where status = 'delivered';
alter table app.outbox enable row level security;
alter table app.outbox force row level security;
drop policy if exists outbox__read on app.outbox;
create policy outbox__read on app.outbox for select to authenticated using ((select app.is_admin()));
revoke all on table app.outbox from public, anon, authenticated;
grant select on table app.outbox to authenticated;
drop function if exists app.record_outbox(text, jsonb);

-- A declared call of the specification (method, path, service, payload shape, roles, transitions).
create or replace function app.declared_call(p_call text)
returns jsonb
language sql immutable
set search_path = ''
as $fn$
  select case p_call
    when 'notifyRequester' then '{"method":"POST","path":"/functions/v1/notify-email","service":"notify-email","payload":{"ticketId":"uuid","to":"email","subject":"string","body":"string"},"roles":["agent"],"transitions":["ticket.solve"]}'::jsonb
  end
$fn$;
revoke execute on function app.declared_call(text) from public, anon, authenticated;

-- The first place a value does not fit a call shape ({path, problem, expected}), or null; as src/backend/checkShape.ts. Partial: missing top-level keys pass.
create or replace function app.outbox_shape_issue(p_shape jsonb, p_value jsonb, p_partial boolean default false, p_path text default '')
returns jsonb
language plpgsql immutable
set search_path = ''
as $fn$
declare
  k text;
  t jsonb;
  v_name text;
  v_opt boolean;
  v jsonb;
  v_issue jsonb;
  v_path text;
  v_text text;
  v_ok boolean;
begin
  if jsonb_typeof(p_shape) = 'string' then
    v_text := case when jsonb_typeof(p_value) = 'string' then p_value #>> '{}' end;
    v_ok := case p_shape #>> '{}'
      when 'string' then jsonb_typeof(p_value) = 'string'
      when 'number' then jsonb_typeof(p_value) = 'number'
      when 'integer' then jsonb_typeof(p_value) = 'number' and (p_value #>> '{}')::numeric = trunc((p_value #>> '{}')::numeric)
      when 'boolean' then jsonb_typeof(p_value) = 'boolean'
      when 'uuid' then v_text ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
      when 'email' then v_text ~ '^[^\s@]+@[^\s@]+\.[^\s@]+$'
      when 'datetime' then v_text ~ '^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$'
      else false end;
    if coalesce(v_ok, false) and p_shape #>> '{}' = 'datetime' then
      begin
        perform v_text::timestamptz;
      exception when others then
        v_ok := false;
      end;
    end if;
    if not coalesce(v_ok, false) then
      return jsonb_build_object('path', p_path, 'problem', 'type', 'expected', p_shape #>> '{}');
    end if;
    return null;
  elsif jsonb_typeof(p_shape) = 'array' then
    if jsonb_typeof(p_value) is distinct from 'array' then
      return jsonb_build_object('path', p_path, 'problem', 'type', 'expected', 'array');
    end if;
    for i in 0 .. jsonb_array_length(p_value) - 1 loop
      v_issue := app.outbox_shape_issue(p_shape -> 0, p_value -> i, false, case when p_path = '' then i::text else p_path || '.' || i end);
      if v_issue is not null then return v_issue; end if;
    end loop;
    return null;
  end if;
  if jsonb_typeof(p_value) is distinct from 'object' then
    return jsonb_build_object('path', p_path, 'problem', 'type', 'expected', 'object');
  end if;
  for k, t in select e.key, e.value from jsonb_each(p_shape) e order by e.key loop
    v_opt := right(k, 1) = '?';
    v_name := case when v_opt then left(k, -1) else k end;
    v_path := case when p_path = '' then v_name else p_path || '.' || v_name end;
    v := p_value -> v_name;
    if v is null or jsonb_typeof(v) = 'null' then
      if not v_opt and not p_partial then
        return jsonb_build_object('path', v_path, 'problem', 'missing');
      end if;
      continue;
    end if;
    v_issue := app.outbox_shape_issue(t, v, false, v_path);
    if v_issue is not null then return v_issue; end if;
  end loop;
  for k in select jsonb_object_keys(p_value) order by 1 loop
    if not (p_shape ? k or p_shape ? (k || '?')) then
      return jsonb_build_object('path', case when p_path = '' then k else p_path || '.' || k end, 'problem', 'unexpected');
    end if;
  end loop;
  return null;
end;
$fn$;
revoke execute on function app.outbox_shape_issue(jsonb, jsonb, boolean, text) from public, anon, authenticated;

-- Queues a call a transition declares, in the transition’s transaction (transition functions only).
create or replace function app.outbox_write(p_call text, p_client jsonb, p_server jsonb, p_entity text, p_row uuid, p_transition text)
returns uuid
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  v_payload jsonb;
  v_issue jsonb;
  v_id uuid;
begin
  if p_client is not null and jsonb_typeof(p_client) not in ('object', 'null') then
    raise exception using errcode = 'P0001', message = 'INVALID_INPUT', detail = jsonb_build_object('call', p_call, 'issues', jsonb_build_array(jsonb_build_object('path', '', 'problem', 'type', 'expected', 'object')))::text;
  end if;
  v_payload := coalesce(nullif(p_client, 'null'::jsonb), '{}'::jsonb) || coalesce(p_server, '{}'::jsonb);
  v_issue := app.outbox_shape_issue(app.declared_call(p_call) -> 'payload', v_payload, true);
  if v_issue is not null then
    raise exception using errcode = 'P0001', message = 'INVALID_INPUT', detail = jsonb_build_object('call', p_call, 'issues', jsonb_build_array(v_issue))::text;
  end if;
  insert into app.outbox (call, payload, requested_by, entity, row_id, transition)
  values (p_call, v_payload, (select auth.uid()), p_entity, p_row, p_transition)
  returning id into v_id;
  return v_id;
end;
$fn$;
revoke execute on function app.outbox_write(text, jsonb, jsonb, text, uuid, text) from public, anon, authenticated;

-- A client asks for a declared call that no transition declares (roles and payload checked).
create or replace function public.record_call(p_call text, p_payload jsonb)
returns uuid
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  v_uid uuid := (select auth.uid());
  v_allowed boolean;
  v_issue jsonb;
  v_id uuid;
begin
  if app.declared_call(p_call) is null then
    raise exception using errcode = 'P0001', message = 'UNKNOWN_CALL', detail = jsonb_build_object('call', p_call)::text;
  end if;
  v_allowed := case p_call
    when 'notifyRequester' then app.has_role(v_uid, 'agent')
    else false end;
  if v_uid is null or not coalesce(v_allowed, false) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('call', p_call)::text;
  end if;
  if jsonb_array_length(app.declared_call(p_call) -> 'transitions') > 0 then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('call', p_call, 'reason', 'sent-by-transition', 'transitions', app.declared_call(p_call) -> 'transitions')::text;
  end if;
  v_issue := app.outbox_shape_issue(app.declared_call(p_call) -> 'payload', p_payload);
  if v_issue is not null then
    raise exception using errcode = 'P0001', message = 'INVALID_INPUT', detail = jsonb_build_object('call', p_call, 'issues', jsonb_build_array(v_issue))::text;
  end if;
  insert into app.outbox (call, payload, requested_by) values (p_call, p_payload, v_uid) returning id into v_id;
  return v_id;
end;
$fn$;
revoke execute on function public.record_call(text, jsonb) from public, anon, authenticated;
grant execute on function public.record_call(text, jsonb) to authenticated;

-- The deliverer takes the due calls (leased; owner and service_role only).
create or replace function public.outbox_claim(p_calls text[] default null, p_limit integer default 10, p_lease_seconds integer default 60)
returns table (id uuid, call text, payload jsonb, idempotency_key text, attempts integer, method text, path text, service text)
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  o record;
  v_issue jsonb;
begin
  delete from app.outbox x where x.id in (
    select d.id from app.outbox d where d.status = 'delivered'
      and d.delivered_at < now() - make_interval(days => 30) limit 1000);
  for o in
    select x.id, x.call, x.payload from app.outbox x
    where ((x.status = 'pending' and x.next_attempt_at <= now()) or (x.status = 'sending' and x.locked_until < now()))
      and (p_calls is null or x.call = any (p_calls))
    order by x.next_attempt_at, x.id
    limit greatest(p_limit, 0)
    for update skip locked
  loop
    v_issue := app.outbox_shape_issue(app.declared_call(o.call) -> 'payload', o.payload);
    if v_issue is not null then
      update app.outbox x set status = 'failed', locked_until = null, last_error = 'payload does not fit the call: ' || v_issue::text where x.id = o.id;
      continue;
    end if;
    update app.outbox x set status = 'sending', attempts = x.attempts + 1, locked_until = now() + make_interval(secs => p_lease_seconds)
    where x.id = o.id
    returning x.id, x.call, x.payload, x.idempotency_key, x.attempts
    into id, call, payload, idempotency_key, attempts;
    method := app.declared_call(o.call) ->> 'method';
    path := app.declared_call(o.call) ->> 'path';
    service := app.declared_call(o.call) ->> 'service';
    return next;
  end loop;
end;
$fn$;
revoke execute on function public.outbox_claim(text[], integer, integer) from public, anon, authenticated;

do $do$ begin
  if exists (select 1 from pg_catalog.pg_roles where rolname = 'service_role') then
    grant execute on function public.outbox_claim(text[], integer, integer) to service_role;
  end if;
end $do$;

-- The deliverer marks a call sent; a delivered call is never claimed again.
create or replace function public.outbox_delivered(p_id uuid, p_response jsonb default null)
returns boolean
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  update app.outbox x set status = 'delivered', delivered_at = now(), locked_until = null, last_error = null, response = p_response
  where x.id = p_id and x.status = 'sending';
  return found;
end;
$fn$;
revoke execute on function public.outbox_delivered(uuid, jsonb) from public, anon, authenticated;

do $do$ begin
  if exists (select 1 from pg_catalog.pg_roles where rolname = 'service_role') then
    grant execute on function public.outbox_delivered(uuid, jsonb) to service_role;
  end if;
end $do$;

-- The deliverer reports a failed attempt: retried with backoff, or failed for good (last_error kept).
create or replace function public.outbox_failed(p_id uuid, p_error text, p_max_attempts integer default 8, p_base_seconds double precision default 30)
returns text
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  v_status text;
begin
  update app.outbox x set
    status = case when x.attempts >= p_max_attempts then 'failed' else 'pending' end,
    next_attempt_at = now() + make_interval(secs => p_base_seconds * power(2, greatest(x.attempts - 1, 0))),
    locked_until = null,
    last_error = left(p_error, 2000)
  where x.id = p_id and x.status = 'sending'
  returning x.status into v_status;
  return v_status;
end;
$fn$;
revoke execute on function public.outbox_failed(uuid, text, integer, double precision) from public, anon, authenticated;

do $do$ begin
  if exists (select 1 from pg_catalog.pg_roles where rolname = 'service_role') then
    grant execute on function public.outbox_failed(uuid, text, integer, double precision) to service_role;
  end if;
end $do$;

-- ======================================================================
-- Transitions
-- ======================================================================

-- Transition ticket.take: new -> open (agent).
create or replace function public.ticket_take(p_id uuid, p_version integer default null, p_input jsonb default '{}'::jsonb)
returns public.ticket
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  r public.ticket;
  v_from text;
begin
  select * into r from public.ticket x where x.id = p_id for no key update;
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['customer']::text[]))) and coalesce((r.requester = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['agent', 'admin']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'ticket', 'id', p_id)::text;
  end if;
  if not (app.has_role((select auth.uid()), 'agent')) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'ticket', 'action', 'take')::text;
  end if;
  if p_version is not null and r.version <> p_version then
    raise exception using errcode = 'P0001', message = 'CONFLICT', detail = jsonb_build_object('entity', 'ticket', 'id', p_id, 'version', p_version, 'current', r.version)::text;
  end if;
  v_from := r.status;
  if v_from is null or v_from not in ('new') then
    raise exception using errcode = 'P0001', message = 'INVALID_TRANSITION', detail = jsonb_build_object('entity', 'ticket', 'transition', 'take', 'from', v_from)::text;
  end if;
  perform app.lock_group('attachment.ticket', (r.id)::text);
  perform app.lock_group('comment.ticket', (r.id)::text);
  select * into r from public.ticket x where x.id = p_id;
  perform set_config('ninefold.in_transition', 'on', true);
  begin
    update public.ticket x set
      assignee = (select auth.uid()),
      first_response_at = now(),
      status = 'open'
    where x.id = p_id
    returning x.* into r;
  exception when check_violation or not_null_violation then
    declare
      v_state text; v_message text; v_constraint text; v_schema text; v_table text; v_column text;
    begin
      get stacked diagnostics v_state = returned_sqlstate, v_message = message_text,
        v_constraint = constraint_name, v_schema = schema_name, v_table = table_name, v_column = column_name;
      raise exception using errcode = v_state, message = v_message, constraint = v_constraint,
        schema = v_schema, table = v_table, column = v_column;
    end;
  end;
  perform set_config('ninefold.in_transition', '', true);
  insert into public.ticket_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'take', v_from, 'open', (select auth.uid()), '{}'::jsonb);
  return r;
end;
$fn$;
revoke execute on function public.ticket_take(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.ticket_take(uuid, integer, jsonb) to authenticated;

-- Transition ticket.triage: new -> open (agent).
create or replace function public.ticket_triage(p_id uuid, p_version integer default null, p_input jsonb default '{}'::jsonb)
returns public.ticket
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  r public.ticket;
  v_from text;
begin
  select * into r from public.ticket x where x.id = p_id for no key update;
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['customer']::text[]))) and coalesce((r.requester = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['agent', 'admin']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'ticket', 'id', p_id)::text;
  end if;
  if not (app.has_role((select auth.uid()), 'agent')) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'ticket', 'action', 'triage')::text;
  end if;
  if p_version is not null and r.version <> p_version then
    raise exception using errcode = 'P0001', message = 'CONFLICT', detail = jsonb_build_object('entity', 'ticket', 'id', p_id, 'version', p_version, 'current', r.version)::text;
  end if;
  v_from := r.status;
  if v_from is null or v_from not in ('new') then
    raise exception using errcode = 'P0001', message = 'INVALID_TRANSITION', detail = jsonb_build_object('entity', 'ticket', 'transition', 'triage', 'from', v_from)::text;
  end if;
  perform app.lock_group('attachment.ticket', (r.id)::text);
  perform app.lock_group('comment.ticket', (r.id)::text);
  select * into r from public.ticket x where x.id = p_id;
  if p_input -> 'assignee' is null or jsonb_typeof(p_input -> 'assignee') = 'null' or (p_input ->> 'assignee') = '' then
    raise exception using errcode = 'P0001', message = 'INPUT_REQUIRED', detail = jsonb_build_object('entity', 'ticket', 'transition', 'triage', 'field', 'assignee')::text;
  end if;
  if p_input -> 'dueAt' is null or jsonb_typeof(p_input -> 'dueAt') = 'null' or (p_input ->> 'dueAt') = '' then
    raise exception using errcode = 'P0001', message = 'INPUT_REQUIRED', detail = jsonb_build_object('entity', 'ticket', 'transition', 'triage', 'field', 'dueAt')::text;
  end if;
  perform set_config('ninefold.in_transition', 'on', true);
  begin
    update public.ticket x set
      assignee = (p_input ->> 'assignee')::uuid,
      due_at = (p_input ->> 'dueAt')::timestamptz,
      first_response_at = now(),
      status = 'open'
    where x.id = p_id
    returning x.* into r;
  exception when check_violation or not_null_violation then
    declare
      v_state text; v_message text; v_constraint text; v_schema text; v_table text; v_column text;
    begin
      get stacked diagnostics v_state = returned_sqlstate, v_message = message_text,
        v_constraint = constraint_name, v_schema = schema_name, v_table = table_name, v_column = column_name;
      raise exception using errcode = v_state, message = v_message, constraint = v_constraint,
        schema = v_schema, table = v_table, column = v_column;
    end;
  end;
  perform set_config('ninefold.in_transition', '', true);
  insert into public.ticket_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'triage', v_from, 'open', (select auth.uid()), jsonb_build_object('assignee', p_input -> 'assignee', 'dueAt', p_input -> 'dueAt'));
  return r;
end;
$fn$;
revoke execute on function public.ticket_triage(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.ticket_triage(uuid, integer, jsonb) to authenticated;

-- Transition ticket.ask_customer: open -> pending (agent).
create or replace function public.ticket_ask_customer(p_id uuid, p_version integer default null, p_input jsonb default '{}'::jsonb)
returns public.ticket
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  r public.ticket;
  v_from text;
begin
  select * into r from public.ticket x where x.id = p_id for no key update;
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['customer']::text[]))) and coalesce((r.requester = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['agent', 'admin']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'ticket', 'id', p_id)::text;
  end if;
  if not (app.has_role((select auth.uid()), 'agent')) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'ticket', 'action', 'ask_customer')::text;
  end if;
  if p_version is not null and r.version <> p_version then
    raise exception using errcode = 'P0001', message = 'CONFLICT', detail = jsonb_build_object('entity', 'ticket', 'id', p_id, 'version', p_version, 'current', r.version)::text;
  end if;
  v_from := r.status;
  if v_from is null or v_from not in ('open') then
    raise exception using errcode = 'P0001', message = 'INVALID_TRANSITION', detail = jsonb_build_object('entity', 'ticket', 'transition', 'ask_customer', 'from', v_from)::text;
  end if;
  perform app.lock_group('attachment.ticket', (r.id)::text);
  perform app.lock_group('comment.ticket', (r.id)::text);
  select * into r from public.ticket x where x.id = p_id;
  if not coalesce(((r.assignee = (select auth.uid())) or app.has_role((select auth.uid()), 'admin')), false) then
    raise exception using errcode = 'P0001', message = 'NOT_ASSIGNEE', detail = jsonb_build_object('entity', 'ticket', 'action', 'ask_customer')::text;
  end if;
  perform set_config('ninefold.in_transition', 'on', true);
  begin
    update public.ticket x set
      status = 'pending'
    where x.id = p_id
    returning x.* into r;
  exception when check_violation or not_null_violation then
    declare
      v_state text; v_message text; v_constraint text; v_schema text; v_table text; v_column text;
    begin
      get stacked diagnostics v_state = returned_sqlstate, v_message = message_text,
        v_constraint = constraint_name, v_schema = schema_name, v_table = table_name, v_column = column_name;
      raise exception using errcode = v_state, message = v_message, constraint = v_constraint,
        schema = v_schema, table = v_table, column = v_column;
    end;
  end;
  perform set_config('ninefold.in_transition', '', true);
  insert into public.ticket_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'ask_customer', v_from, 'pending', (select auth.uid()), '{}'::jsonb);
  return r;
end;
$fn$;
revoke execute on function public.ticket_ask_customer(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.ticket_ask_customer(uuid, integer, jsonb) to authenticated;

-- Transition ticket.resume: pending -> open (customer, agent).
create or replace function public.ticket_resume(p_id uuid, p_version integer default null, p_input jsonb default '{}'::jsonb)
returns public.ticket
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  r public.ticket;
  v_from text;
begin
  select * into r from public.ticket x where x.id = p_id for no key update;
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['customer']::text[]))) and coalesce((r.requester = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['agent', 'admin']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'ticket', 'id', p_id)::text;
  end if;
  if not (app.has_role((select auth.uid()), 'customer') or app.has_role((select auth.uid()), 'agent')) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'ticket', 'action', 'resume')::text;
  end if;
  if p_version is not null and r.version <> p_version then
    raise exception using errcode = 'P0001', message = 'CONFLICT', detail = jsonb_build_object('entity', 'ticket', 'id', p_id, 'version', p_version, 'current', r.version)::text;
  end if;
  v_from := r.status;
  if v_from is null or v_from not in ('pending') then
    raise exception using errcode = 'P0001', message = 'INVALID_TRANSITION', detail = jsonb_build_object('entity', 'ticket', 'transition', 'resume', 'from', v_from)::text;
  end if;
  perform app.lock_group('attachment.ticket', (r.id)::text);
  perform app.lock_group('comment.ticket', (r.id)::text);
  select * into r from public.ticket x where x.id = p_id;
  if not coalesce(((r.requester = (select auth.uid())) or app.has_role((select auth.uid()), 'agent')), false) then
    raise exception using errcode = 'P0001', message = 'NOT_REQUESTER', detail = jsonb_build_object('entity', 'ticket', 'action', 'resume')::text;
  end if;
  perform set_config('ninefold.in_transition', 'on', true);
  begin
    update public.ticket x set
      status = 'open'
    where x.id = p_id
    returning x.* into r;
  exception when check_violation or not_null_violation then
    declare
      v_state text; v_message text; v_constraint text; v_schema text; v_table text; v_column text;
    begin
      get stacked diagnostics v_state = returned_sqlstate, v_message = message_text,
        v_constraint = constraint_name, v_schema = schema_name, v_table = table_name, v_column = column_name;
      raise exception using errcode = v_state, message = v_message, constraint = v_constraint,
        schema = v_schema, table = v_table, column = v_column;
    end;
  end;
  perform set_config('ninefold.in_transition', '', true);
  insert into public.ticket_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'resume', v_from, 'open', (select auth.uid()), '{}'::jsonb);
  return r;
end;
$fn$;
revoke execute on function public.ticket_resume(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.ticket_resume(uuid, integer, jsonb) to authenticated;

-- Transition ticket.solve: open, pending -> solved (agent).
create or replace function public.ticket_solve(p_id uuid, p_version integer default null, p_input jsonb default '{}'::jsonb)
returns public.ticket
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  r public.ticket;
  v_from text;
begin
  select * into r from public.ticket x where x.id = p_id for no key update;
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['customer']::text[]))) and coalesce((r.requester = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['agent', 'admin']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'ticket', 'id', p_id)::text;
  end if;
  if not (app.has_role((select auth.uid()), 'agent')) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'ticket', 'action', 'solve')::text;
  end if;
  if p_version is not null and r.version <> p_version then
    raise exception using errcode = 'P0001', message = 'CONFLICT', detail = jsonb_build_object('entity', 'ticket', 'id', p_id, 'version', p_version, 'current', r.version)::text;
  end if;
  v_from := r.status;
  if v_from is null or v_from not in ('open', 'pending') then
    raise exception using errcode = 'P0001', message = 'INVALID_TRANSITION', detail = jsonb_build_object('entity', 'ticket', 'transition', 'solve', 'from', v_from)::text;
  end if;
  perform app.lock_group('attachment.ticket', (r.id)::text);
  perform app.lock_group('comment.ticket', (r.id)::text);
  select * into r from public.ticket x where x.id = p_id;
  if not coalesce((((r.assignee is null) or (r.assignee = (select auth.uid()))) or app.has_role((select auth.uid()), 'admin')), false) then
    raise exception using errcode = 'P0001', message = 'NOT_ASSIGNEE', detail = jsonb_build_object('entity', 'ticket', 'action', 'solve')::text;
  end if;
  if p_input -> 'resolution' is null or jsonb_typeof(p_input -> 'resolution') = 'null' or btrim((p_input ->> 'resolution'), E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '' then
    raise exception using errcode = 'P0001', message = 'INPUT_REQUIRED', detail = jsonb_build_object('entity', 'ticket', 'transition', 'solve', 'field', 'resolution')::text;
  end if;
  perform set_config('ninefold.in_transition', 'on', true);
  begin
    update public.ticket x set
      resolution = (p_input ->> 'resolution')::text,
      solved_at = now(),
      assignee = (select auth.uid()),
      status = 'solved'
    where x.id = p_id
    returning x.* into r;
  exception when check_violation or not_null_violation then
    declare
      v_state text; v_message text; v_constraint text; v_schema text; v_table text; v_column text;
    begin
      get stacked diagnostics v_state = returned_sqlstate, v_message = message_text,
        v_constraint = constraint_name, v_schema = schema_name, v_table = table_name, v_column = column_name;
      raise exception using errcode = v_state, message = v_message, constraint = v_constraint,
        schema = v_schema, table = v_table, column = v_column;
    end;
  end;
  perform set_config('ninefold.in_transition', '', true);
  insert into public.ticket_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'solve', v_from, 'solved', (select auth.uid()), jsonb_build_object('resolution', p_input -> 'resolution'));
  if not (app.has_role((select auth.uid()), 'agent')) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'ticket', 'action', 'solve', 'call', 'notifyRequester')::text;
  end if;
  perform app.outbox_write('notifyRequester', p_input -> 'calls' -> 'notifyRequester', jsonb_strip_nulls(jsonb_build_object('ticketId', to_jsonb((r.id)::uuid), 'to', to_jsonb(regexp_replace(((select _h1.email from public.person _h1 where _h1.id = r.requester))::text, '[\x01-\x1f\x7f-\x9f\u2028\u2029]', ' ', 'g')), 'subject', to_jsonb(regexp_replace(concat('Solved: ', (r.title)::text), '[\x01-\x1f\x7f-\x9f\u2028\u2029]', ' ', 'g')), 'body', to_jsonb(concat('Hello ', ((select _h1.name from public.person _h1 where _h1.id = r.requester))::text, ',

your ticket "', (r.title)::text, '" was solved by ', ((select _h1.name from public.person _h1 where _h1.id = r.assignee))::text, ':

', (r.resolution)::text, '

If the problem is still there, reopen the ticket within ', (7)::numeric::text, ' days.')))), 'ticket', r.id, 'solve');
  return r;
end;
$fn$;
revoke execute on function public.ticket_solve(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.ticket_solve(uuid, integer, jsonb) to authenticated;

-- Transition ticket.reopen: solved -> open (customer, agent).
create or replace function public.ticket_reopen(p_id uuid, p_version integer default null, p_input jsonb default '{}'::jsonb)
returns public.ticket
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  r public.ticket;
  v_from text;
begin
  select * into r from public.ticket x where x.id = p_id for no key update;
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['customer']::text[]))) and coalesce((r.requester = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['agent', 'admin']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'ticket', 'id', p_id)::text;
  end if;
  if not (app.has_role((select auth.uid()), 'customer') or app.has_role((select auth.uid()), 'agent')) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'ticket', 'action', 'reopen')::text;
  end if;
  if p_version is not null and r.version <> p_version then
    raise exception using errcode = 'P0001', message = 'CONFLICT', detail = jsonb_build_object('entity', 'ticket', 'id', p_id, 'version', p_version, 'current', r.version)::text;
  end if;
  v_from := r.status;
  if v_from is null or v_from not in ('solved') then
    raise exception using errcode = 'P0001', message = 'INVALID_TRANSITION', detail = jsonb_build_object('entity', 'ticket', 'transition', 'reopen', 'from', v_from)::text;
  end if;
  perform app.lock_group('attachment.ticket', (r.id)::text);
  perform app.lock_group('comment.ticket', (r.id)::text);
  select * into r from public.ticket x where x.id = p_id;
  if not coalesce(((r.solved_at > (now() - ((7)::double precision * interval '86400 seconds'))) and ((r.requester = (select auth.uid())) or app.has_role((select auth.uid()), 'agent'))), false) then
    raise exception using errcode = 'P0001', message = 'REOPEN_WINDOW_PASSED', detail = jsonb_build_object('entity', 'ticket', 'action', 'reopen')::text;
  end if;
  if p_input -> 'reopenReason' is null or jsonb_typeof(p_input -> 'reopenReason') = 'null' or btrim((p_input ->> 'reopenReason'), E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '' then
    raise exception using errcode = 'P0001', message = 'INPUT_REQUIRED', detail = jsonb_build_object('entity', 'ticket', 'transition', 'reopen', 'field', 'reopenReason')::text;
  end if;
  perform set_config('ninefold.in_transition', 'on', true);
  begin
    update public.ticket x set
      reopen_reason = (p_input ->> 'reopenReason')::text,
      solved_at = null,
      reopen_count = ((x.reopen_count)::numeric + 1),
      rating = null,
      rating_comment = null,
      status = 'open'
    where x.id = p_id
    returning x.* into r;
  exception when check_violation or not_null_violation then
    declare
      v_state text; v_message text; v_constraint text; v_schema text; v_table text; v_column text;
    begin
      get stacked diagnostics v_state = returned_sqlstate, v_message = message_text,
        v_constraint = constraint_name, v_schema = schema_name, v_table = table_name, v_column = column_name;
      raise exception using errcode = v_state, message = v_message, constraint = v_constraint,
        schema = v_schema, table = v_table, column = v_column;
    end;
  end;
  perform set_config('ninefold.in_transition', '', true);
  insert into public.ticket_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'reopen', v_from, 'open', (select auth.uid()), jsonb_build_object('reopenReason', p_input -> 'reopenReason'));
  return r;
end;
$fn$;
revoke execute on function public.ticket_reopen(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.ticket_reopen(uuid, integer, jsonb) to authenticated;

-- Transition ticket.rate: solved -> solved (customer).
create or replace function public.ticket_rate(p_id uuid, p_version integer default null, p_input jsonb default '{}'::jsonb)
returns public.ticket
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  r public.ticket;
  v_from text;
begin
  select * into r from public.ticket x where x.id = p_id for no key update;
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['customer']::text[]))) and coalesce((r.requester = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['agent', 'admin']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'ticket', 'id', p_id)::text;
  end if;
  if not (app.has_role((select auth.uid()), 'customer')) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'ticket', 'action', 'rate')::text;
  end if;
  if p_version is not null and r.version <> p_version then
    raise exception using errcode = 'P0001', message = 'CONFLICT', detail = jsonb_build_object('entity', 'ticket', 'id', p_id, 'version', p_version, 'current', r.version)::text;
  end if;
  v_from := r.status;
  if v_from is null or v_from not in ('solved') then
    raise exception using errcode = 'P0001', message = 'INVALID_TRANSITION', detail = jsonb_build_object('entity', 'ticket', 'transition', 'rate', 'from', v_from)::text;
  end if;
  perform app.lock_group('attachment.ticket', (r.id)::text);
  perform app.lock_group('comment.ticket', (r.id)::text);
  select * into r from public.ticket x where x.id = p_id;
  if not coalesce((r.rating is null), false) then
    raise exception using errcode = 'P0001', message = 'ALREADY_RATED', detail = jsonb_build_object('entity', 'ticket', 'action', 'rate')::text;
  end if;
  if p_input -> 'rating' is null or jsonb_typeof(p_input -> 'rating') = 'null' or (p_input ->> 'rating') = '' then
    raise exception using errcode = 'P0001', message = 'INPUT_REQUIRED', detail = jsonb_build_object('entity', 'ticket', 'transition', 'rate', 'field', 'rating')::text;
  end if;
  perform set_config('ninefold.in_transition', 'on', true);
  begin
    update public.ticket x set
      rating = (p_input ->> 'rating')::text,
      rating_comment = case when p_input ? 'ratingComment' then nullif(p_input ->> 'ratingComment', '')::text else x.rating_comment end,
      status = 'solved'
    where x.id = p_id
    returning x.* into r;
  exception when check_violation or not_null_violation then
    declare
      v_state text; v_message text; v_constraint text; v_schema text; v_table text; v_column text;
    begin
      get stacked diagnostics v_state = returned_sqlstate, v_message = message_text,
        v_constraint = constraint_name, v_schema = schema_name, v_table = table_name, v_column = column_name;
      raise exception using errcode = v_state, message = v_message, constraint = v_constraint,
        schema = v_schema, table = v_table, column = v_column;
    end;
  end;
  perform set_config('ninefold.in_transition', '', true);
  insert into public.ticket_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'rate', v_from, 'solved', (select auth.uid()), jsonb_build_object('rating', p_input -> 'rating') || (case when coalesce(p_input ->> 'ratingComment', '') in ('', '[]') then '{}'::jsonb else jsonb_build_object('ratingComment', p_input -> 'ratingComment') end));
  return r;
end;
$fn$;
revoke execute on function public.ticket_rate(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.ticket_rate(uuid, integer, jsonb) to authenticated;

-- Transition ticket.close: solved -> closed (customer, agent).
create or replace function public.ticket_close(p_id uuid, p_version integer default null, p_input jsonb default '{}'::jsonb)
returns public.ticket
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  r public.ticket;
  v_from text;
begin
  select * into r from public.ticket x where x.id = p_id for no key update;
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['customer']::text[]))) and coalesce((r.requester = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['agent', 'admin']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'ticket', 'id', p_id)::text;
  end if;
  if not (app.has_role((select auth.uid()), 'customer') or app.has_role((select auth.uid()), 'agent')) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'ticket', 'action', 'close')::text;
  end if;
  if p_version is not null and r.version <> p_version then
    raise exception using errcode = 'P0001', message = 'CONFLICT', detail = jsonb_build_object('entity', 'ticket', 'id', p_id, 'version', p_version, 'current', r.version)::text;
  end if;
  v_from := r.status;
  if v_from is null or v_from not in ('solved') then
    raise exception using errcode = 'P0001', message = 'INVALID_TRANSITION', detail = jsonb_build_object('entity', 'ticket', 'transition', 'close', 'from', v_from)::text;
  end if;
  perform app.lock_group('attachment.ticket', (r.id)::text);
  perform app.lock_group('comment.ticket', (r.id)::text);
  select * into r from public.ticket x where x.id = p_id;
  if not coalesce(((r.requester = (select auth.uid())) or app.has_role((select auth.uid()), 'agent')), false) then
    raise exception using errcode = 'P0001', message = 'NOT_REQUESTER', detail = jsonb_build_object('entity', 'ticket', 'action', 'close')::text;
  end if;
  perform set_config('ninefold.in_transition', 'on', true);
  begin
    update public.ticket x set
      closed_at = now(),
      status = 'closed'
    where x.id = p_id
    returning x.* into r;
  exception when check_violation or not_null_violation then
    declare
      v_state text; v_message text; v_constraint text; v_schema text; v_table text; v_column text;
    begin
      get stacked diagnostics v_state = returned_sqlstate, v_message = message_text,
        v_constraint = constraint_name, v_schema = schema_name, v_table = table_name, v_column = column_name;
      raise exception using errcode = v_state, message = v_message, constraint = v_constraint,
        schema = v_schema, table = v_table, column = v_column;
    end;
  end;
  perform set_config('ninefold.in_transition', '', true);
  insert into public.ticket_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'close', v_from, 'closed', (select auth.uid()), '{}'::jsonb);
  return r;
end;
$fn$;
revoke execute on function public.ticket_close(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.ticket_close(uuid, integer, jsonb) to authenticated;

-- Transition ticket.withdraw: new, open, pending -> closed (customer).
create or replace function public.ticket_withdraw(p_id uuid, p_version integer default null, p_input jsonb default '{}'::jsonb)
returns public.ticket
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  r public.ticket;
  v_from text;
begin
  select * into r from public.ticket x where x.id = p_id for no key update;
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['customer']::text[]))) and coalesce((r.requester = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['agent', 'admin']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'ticket', 'id', p_id)::text;
  end if;
  if not (app.has_role((select auth.uid()), 'customer')) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'ticket', 'action', 'withdraw')::text;
  end if;
  if p_version is not null and r.version <> p_version then
    raise exception using errcode = 'P0001', message = 'CONFLICT', detail = jsonb_build_object('entity', 'ticket', 'id', p_id, 'version', p_version, 'current', r.version)::text;
  end if;
  v_from := r.status;
  if v_from is null or v_from not in ('new', 'open', 'pending') then
    raise exception using errcode = 'P0001', message = 'INVALID_TRANSITION', detail = jsonb_build_object('entity', 'ticket', 'transition', 'withdraw', 'from', v_from)::text;
  end if;
  perform app.lock_group('attachment.ticket', (r.id)::text);
  perform app.lock_group('comment.ticket', (r.id)::text);
  select * into r from public.ticket x where x.id = p_id;
  if not coalesce((r.requester = (select auth.uid())), false) then
    raise exception using errcode = 'P0001', message = 'NOT_REQUESTER', detail = jsonb_build_object('entity', 'ticket', 'action', 'withdraw')::text;
  end if;
  perform set_config('ninefold.in_transition', 'on', true);
  begin
    update public.ticket x set
      closed_at = now(),
      status = 'closed'
    where x.id = p_id
    returning x.* into r;
  exception when check_violation or not_null_violation then
    declare
      v_state text; v_message text; v_constraint text; v_schema text; v_table text; v_column text;
    begin
      get stacked diagnostics v_state = returned_sqlstate, v_message = message_text,
        v_constraint = constraint_name, v_schema = schema_name, v_table = table_name, v_column = column_name;
      raise exception using errcode = v_state, message = v_message, constraint = v_constraint,
        schema = v_schema, table = v_table, column = v_column;
    end;
  end;
  perform set_config('ninefold.in_transition', '', true);
  insert into public.ticket_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'withdraw', v_from, 'closed', (select auth.uid()), '{}'::jsonb);
  return r;
end;
$fn$;
revoke execute on function public.ticket_withdraw(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.ticket_withdraw(uuid, integer, jsonb) to authenticated;

-- Transition ticket.discard: new -> closed (agent).
create or replace function public.ticket_discard(p_id uuid, p_version integer default null, p_input jsonb default '{}'::jsonb)
returns public.ticket
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  r public.ticket;
  v_from text;
begin
  select * into r from public.ticket x where x.id = p_id for no key update;
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['customer']::text[]))) and coalesce((r.requester = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['agent', 'admin']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'ticket', 'id', p_id)::text;
  end if;
  if not (app.has_role((select auth.uid()), 'agent')) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'ticket', 'action', 'discard')::text;
  end if;
  if p_version is not null and r.version <> p_version then
    raise exception using errcode = 'P0001', message = 'CONFLICT', detail = jsonb_build_object('entity', 'ticket', 'id', p_id, 'version', p_version, 'current', r.version)::text;
  end if;
  v_from := r.status;
  if v_from is null or v_from not in ('new') then
    raise exception using errcode = 'P0001', message = 'INVALID_TRANSITION', detail = jsonb_build_object('entity', 'ticket', 'transition', 'discard', 'from', v_from)::text;
  end if;
  perform app.lock_group('attachment.ticket', (r.id)::text);
  perform app.lock_group('comment.ticket', (r.id)::text);
  select * into r from public.ticket x where x.id = p_id;
  if p_input -> 'resolution' is null or jsonb_typeof(p_input -> 'resolution') = 'null' or btrim((p_input ->> 'resolution'), E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '' then
    raise exception using errcode = 'P0001', message = 'INPUT_REQUIRED', detail = jsonb_build_object('entity', 'ticket', 'transition', 'discard', 'field', 'resolution')::text;
  end if;
  perform set_config('ninefold.in_transition', 'on', true);
  begin
    update public.ticket x set
      resolution = (p_input ->> 'resolution')::text,
      closed_at = now(),
      assignee = (select auth.uid()),
      status = 'closed'
    where x.id = p_id
    returning x.* into r;
  exception when check_violation or not_null_violation then
    declare
      v_state text; v_message text; v_constraint text; v_schema text; v_table text; v_column text;
    begin
      get stacked diagnostics v_state = returned_sqlstate, v_message = message_text,
        v_constraint = constraint_name, v_schema = schema_name, v_table = table_name, v_column = column_name;
      raise exception using errcode = v_state, message = v_message, constraint = v_constraint,
        schema = v_schema, table = v_table, column = v_column;
    end;
  end;
  perform set_config('ninefold.in_transition', '', true);
  insert into public.ticket_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'discard', v_from, 'closed', (select auth.uid()), jsonb_build_object('resolution', p_input -> 'resolution'));
  return r;
end;
$fn$;
revoke execute on function public.ticket_discard(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.ticket_discard(uuid, integer, jsonb) to authenticated;

-- ======================================================================
-- Row-level security
-- ======================================================================

alter table public.person enable row level security;
alter table public.person force row level security;
drop policy if exists person__customer__read on public.person;
create policy person__customer__read on public.person as permissive for select to authenticated using (((select app.has_role((select auth.uid()), 'customer')) and coalesce(((person.id = (select auth.uid())) or app.has_role(person.id, 'agent')), false)));
drop policy if exists person__customer__update on public.person;
create policy person__customer__update on public.person as permissive for update to authenticated using (((select app.has_role((select auth.uid()), 'customer')) and coalesce((person.id = (select auth.uid())), false))) with check (((select app.has_role((select auth.uid()), 'customer')) and coalesce((person.id = (select auth.uid())), false)));
drop policy if exists person__agent__read on public.person;
create policy person__agent__read on public.person as permissive for select to authenticated using ((select app.has_role((select auth.uid()), 'agent')));
drop policy if exists person__agent__update on public.person;
create policy person__agent__update on public.person as permissive for update to authenticated using (((select app.has_role((select auth.uid()), 'agent')) and coalesce((person.id = (select auth.uid())), false))) with check (((select app.has_role((select auth.uid()), 'agent')) and coalesce((person.id = (select auth.uid())), false)));
drop policy if exists person__admin__read on public.person;
create policy person__admin__read on public.person as permissive for select to authenticated using ((select app.has_role((select auth.uid()), 'admin')));
drop policy if exists person__admin__update on public.person;
create policy person__admin__update on public.person as permissive for update to authenticated using ((select app.has_role((select auth.uid()), 'admin'))) with check ((select app.has_role((select auth.uid()), 'admin')));
drop policy if exists person__admin__delete on public.person;
create policy person__admin__delete on public.person as permissive for delete to authenticated using (((select app.has_role((select auth.uid()), 'admin')) and coalesce((person.id <> (select auth.uid())), false)));

alter table public.ticket enable row level security;
alter table public.ticket force row level security;
drop policy if exists ticket__customer__read on public.ticket;
create policy ticket__customer__read on public.ticket as permissive for select to authenticated using (((select app.has_role((select auth.uid()), 'customer')) and coalesce((ticket.requester = (select auth.uid())), false)));
drop policy if exists ticket__customer__create on public.ticket;
create policy ticket__customer__create on public.ticket as permissive for insert to authenticated with check (((select app.has_role((select auth.uid()), 'customer')) and coalesce(((ticket.assignee is null) and (ticket.due_at is null)), false)));
drop policy if exists ticket__customer__update on public.ticket;
create policy ticket__customer__update on public.ticket as permissive for update to authenticated using (((select app.has_role((select auth.uid()), 'customer')) and coalesce(((ticket.requester = (select auth.uid())) and (ticket.status <> 'closed')), false))) with check (((select app.has_role((select auth.uid()), 'customer')) and coalesce(((ticket.requester = (select auth.uid())) and (ticket.status <> 'closed')), false)));
drop policy if exists ticket__agent__read on public.ticket;
create policy ticket__agent__read on public.ticket as permissive for select to authenticated using ((select app.has_role((select auth.uid()), 'agent')));
drop policy if exists ticket__agent__create on public.ticket;
create policy ticket__agent__create on public.ticket as permissive for insert to authenticated with check ((select app.has_role((select auth.uid()), 'agent')));
drop policy if exists ticket__agent__update on public.ticket;
create policy ticket__agent__update on public.ticket as permissive for update to authenticated using (((select app.has_role((select auth.uid()), 'agent')) and coalesce((ticket.status <> 'closed'), false))) with check (((select app.has_role((select auth.uid()), 'agent')) and coalesce((ticket.status <> 'closed'), false)));
drop policy if exists ticket__admin__read on public.ticket;
create policy ticket__admin__read on public.ticket as permissive for select to authenticated using ((select app.has_role((select auth.uid()), 'admin')));
drop policy if exists ticket__admin__create on public.ticket;
create policy ticket__admin__create on public.ticket as permissive for insert to authenticated with check ((select app.has_role((select auth.uid()), 'admin')));
drop policy if exists ticket__admin__update on public.ticket;
create policy ticket__admin__update on public.ticket as permissive for update to authenticated using ((select app.has_role((select auth.uid()), 'admin'))) with check ((select app.has_role((select auth.uid()), 'admin')));
drop policy if exists ticket__admin__delete on public.ticket;
create policy ticket__admin__delete on public.ticket as permissive for delete to authenticated using ((select app.has_role((select auth.uid()), 'admin')));

alter table public.comment enable row level security;
alter table public.comment force row level security;
drop policy if exists comment__customer__read on public.comment;
create policy comment__customer__read on public.comment as permissive for select to authenticated using (((select app.has_role((select auth.uid()), 'customer')) and coalesce(((comment.internal = false) and ((select _h1.requester from public.ticket _h1 where _h1.id = comment.ticket) = (select auth.uid()))), false)));
drop policy if exists comment__customer__create on public.comment;
create policy comment__customer__create on public.comment as permissive for insert to authenticated with check (((select app.has_role((select auth.uid()), 'customer')) and coalesce(((comment.internal = false) and ((select _h1.requester from public.ticket _h1 where _h1.id = comment.ticket) = (select auth.uid()))), false)));
drop policy if exists comment__agent__read on public.comment;
create policy comment__agent__read on public.comment as permissive for select to authenticated using ((select app.has_role((select auth.uid()), 'agent')));
drop policy if exists comment__agent__create on public.comment;
create policy comment__agent__create on public.comment as permissive for insert to authenticated with check ((select app.has_role((select auth.uid()), 'agent')));
drop policy if exists comment__agent__update on public.comment;
create policy comment__agent__update on public.comment as permissive for update to authenticated using (((select app.has_role((select auth.uid()), 'agent')) and coalesce(((comment.author = (select auth.uid())) and (comment.internal = true)), false))) with check (((select app.has_role((select auth.uid()), 'agent')) and coalesce(((comment.author = (select auth.uid())) and (comment.internal = true)), false)));
drop policy if exists comment__admin__read on public.comment;
create policy comment__admin__read on public.comment as permissive for select to authenticated using ((select app.has_role((select auth.uid()), 'admin')));
drop policy if exists comment__admin__create on public.comment;
create policy comment__admin__create on public.comment as permissive for insert to authenticated with check ((select app.has_role((select auth.uid()), 'admin')));
drop policy if exists comment__admin__update on public.comment;
create policy comment__admin__update on public.comment as permissive for update to authenticated using ((select app.has_role((select auth.uid()), 'admin'))) with check ((select app.has_role((select auth.uid()), 'admin')));
drop policy if exists comment__admin__delete on public.comment;
create policy comment__admin__delete on public.comment as permissive for delete to authenticated using ((select app.has_role((select auth.uid()), 'admin')));

alter table public.attachment enable row level security;
alter table public.attachment force row level security;
drop policy if exists attachment__customer__read on public.attachment;
create policy attachment__customer__read on public.attachment as permissive for select to authenticated using (((select app.has_role((select auth.uid()), 'customer')) and coalesce(((attachment.internal = false) and ((select _h1.requester from public.ticket _h1 where _h1.id = attachment.ticket) = (select auth.uid()))), false)));
drop policy if exists attachment__customer__create on public.attachment;
create policy attachment__customer__create on public.attachment as permissive for insert to authenticated with check (((select app.has_role((select auth.uid()), 'customer')) and coalesce(((attachment.internal = false) and ((select _h1.requester from public.ticket _h1 where _h1.id = attachment.ticket) = (select auth.uid()))), false)));
drop policy if exists attachment__customer__delete on public.attachment;
create policy attachment__customer__delete on public.attachment as permissive for delete to authenticated using (((select app.has_role((select auth.uid()), 'customer')) and coalesce(((attachment.uploaded_by = (select auth.uid())) and ((select _h1.status from public.ticket _h1 where _h1.id = attachment.ticket) in ('new', 'open', 'pending'))), false)));
drop policy if exists attachment__agent__read on public.attachment;
create policy attachment__agent__read on public.attachment as permissive for select to authenticated using ((select app.has_role((select auth.uid()), 'agent')));
drop policy if exists attachment__agent__create on public.attachment;
create policy attachment__agent__create on public.attachment as permissive for insert to authenticated with check ((select app.has_role((select auth.uid()), 'agent')));
drop policy if exists attachment__agent__delete on public.attachment;
create policy attachment__agent__delete on public.attachment as permissive for delete to authenticated using (((select app.has_role((select auth.uid()), 'agent')) and coalesce((attachment.uploaded_by = (select auth.uid())), false)));
drop policy if exists attachment__admin__read on public.attachment;
create policy attachment__admin__read on public.attachment as permissive for select to authenticated using ((select app.has_role((select auth.uid()), 'admin')));
drop policy if exists attachment__admin__create on public.attachment;
create policy attachment__admin__create on public.attachment as permissive for insert to authenticated with check ((select app.has_role((select auth.uid()), 'admin')));
drop policy if exists attachment__admin__update on public.attachment;
create policy attachment__admin__update on public.attachment as permissive for update to authenticated using ((select app.has_role((select auth.uid()), 'admin'))) with check ((select app.has_role((select auth.uid()), 'admin')));
drop policy if exists attachment__admin__delete on public.attachment;
create policy attachment__admin__delete on public.attachment as permissive for delete to authenticated using ((select app.has_role((select auth.uid()), 'admin')));

alter table public.category enable row level security;
alter table public.category force row level security;
drop policy if exists category__customer__read on public.category;
create policy category__customer__read on public.category as permissive for select to authenticated using (((select app.has_role((select auth.uid()), 'customer')) and coalesce((category.active = true), false)));
drop policy if exists category__agent__read on public.category;
create policy category__agent__read on public.category as permissive for select to authenticated using ((select app.has_role((select auth.uid()), 'agent')));
drop policy if exists category__admin__read on public.category;
create policy category__admin__read on public.category as permissive for select to authenticated using ((select app.has_role((select auth.uid()), 'admin')));
drop policy if exists category__admin__create on public.category;
create policy category__admin__create on public.category as permissive for insert to authenticated with check ((select app.has_role((select auth.uid()), 'admin')));
drop policy if exists category__admin__update on public.category;
create policy category__admin__update on public.category as permissive for update to authenticated using ((select app.has_role((select auth.uid()), 'admin'))) with check ((select app.has_role((select auth.uid()), 'admin')));
drop policy if exists category__admin__delete on public.category;
create policy category__admin__delete on public.category as permissive for delete to authenticated using ((select app.has_role((select auth.uid()), 'admin')));

alter table public.saved_reply enable row level security;
alter table public.saved_reply force row level security;
drop policy if exists saved_reply__agent__read on public.saved_reply;
create policy saved_reply__agent__read on public.saved_reply as permissive for select to authenticated using (((select app.has_role((select auth.uid()), 'agent')) and coalesce(((saved_reply.shared = true) or (saved_reply.created_by = (select auth.uid()))), false)));
drop policy if exists saved_reply__agent__create on public.saved_reply;
create policy saved_reply__agent__create on public.saved_reply as permissive for insert to authenticated with check ((select app.has_role((select auth.uid()), 'agent')));
drop policy if exists saved_reply__agent__update on public.saved_reply;
create policy saved_reply__agent__update on public.saved_reply as permissive for update to authenticated using (((select app.has_role((select auth.uid()), 'agent')) and coalesce((saved_reply.created_by = (select auth.uid())), false))) with check (((select app.has_role((select auth.uid()), 'agent')) and coalesce((saved_reply.created_by = (select auth.uid())), false)));
drop policy if exists saved_reply__agent__delete on public.saved_reply;
create policy saved_reply__agent__delete on public.saved_reply as permissive for delete to authenticated using (((select app.has_role((select auth.uid()), 'agent')) and coalesce((saved_reply.created_by = (select auth.uid())), false)));
drop policy if exists saved_reply__admin__read on public.saved_reply;
create policy saved_reply__admin__read on public.saved_reply as permissive for select to authenticated using ((select app.has_role((select auth.uid()), 'admin')));
drop policy if exists saved_reply__admin__create on public.saved_reply;
create policy saved_reply__admin__create on public.saved_reply as permissive for insert to authenticated with check ((select app.has_role((select auth.uid()), 'admin')));
drop policy if exists saved_reply__admin__update on public.saved_reply;
create policy saved_reply__admin__update on public.saved_reply as permissive for update to authenticated using ((select app.has_role((select auth.uid()), 'admin'))) with check ((select app.has_role((select auth.uid()), 'admin')));
drop policy if exists saved_reply__admin__delete on public.saved_reply;
create policy saved_reply__admin__delete on public.saved_reply as permissive for delete to authenticated using ((select app.has_role((select auth.uid()), 'admin')));

-- ======================================================================
-- Search
-- ======================================================================

create index if not exists person__name__trgm_idx on public.person using gin (name extensions.gin_trgm_ops);
create index if not exists person__email__trgm_idx on public.person using gin (email extensions.gin_trgm_ops);
create index if not exists person__organisation__trgm_idx on public.person using gin (organisation extensions.gin_trgm_ops);
-- Search for person: matching ids the caller may read (a security-definer function, so the trigram indexes apply).
create or replace function app.person__search(p_pattern text, p_limit integer)
returns setof uuid
language plpgsql stable security definer
set search_path = ''
set cpu_operator_cost = 0.05
as $fn$
begin
  return query execute 'select t.id from public.person t where (t.name ilike $1 or t.email ilike $1 or t.organisation ilike $1) and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''customer'']::text[]))) and coalesce(((t.id = (select auth.uid())) or app.has_role(t.id, ''agent'')), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''agent'', ''admin'']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''admin'']::text[]))), false) limit $2' using p_pattern, p_limit;
end
$fn$;
revoke execute on function app.person__search(text, integer) from public;
grant execute on function app.person__search(text, integer) to authenticated;

create index if not exists ticket__title__trgm_idx on public.ticket using gin (title extensions.gin_trgm_ops);
create index if not exists ticket__description__trgm_idx on public.ticket using gin (description extensions.gin_trgm_ops);
create index if not exists ticket__resolution__trgm_idx on public.ticket using gin (resolution extensions.gin_trgm_ops);
create index if not exists ticket__reopen_reason__trgm_idx on public.ticket using gin (reopen_reason extensions.gin_trgm_ops);
create index if not exists ticket__rating_comment__trgm_idx on public.ticket using gin (rating_comment extensions.gin_trgm_ops);
-- Search for ticket: matching ids the caller may read (a security-definer function, so the trigram indexes apply).
create or replace function app.ticket__search(p_pattern text, p_limit integer)
returns setof uuid
language plpgsql stable security definer
set search_path = ''
set cpu_operator_cost = 0.05
as $fn$
begin
  return query execute 'select t.id from public.ticket t where (t.title ilike $1 or t.description ilike $1 or t.resolution ilike $1 or t.reopen_reason ilike $1 or t.rating_comment ilike $1) and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''customer'']::text[]))) and coalesce((t.requester = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''agent'', ''admin'']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''admin'']::text[]))), false) limit $2' using p_pattern, p_limit;
end
$fn$;
revoke execute on function app.ticket__search(text, integer) from public;
grant execute on function app.ticket__search(text, integer) to authenticated;

create index if not exists comment__body__trgm_idx on public.comment using gin (body extensions.gin_trgm_ops);
-- Search for comment: matching ids the caller may read (a security-definer function, so the trigram indexes apply).
create or replace function app.comment__search(p_pattern text, p_limit integer)
returns setof uuid
language plpgsql stable security definer
set search_path = ''
set cpu_operator_cost = 0.05
as $fn$
begin
  return query execute 'select t.id from public.comment t where (t.body ilike $1) and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''customer'']::text[]))) and coalesce(((t.internal = false) and ((select _h1_t.requester from public.ticket _h1_t where _h1_t.id = t.ticket and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''customer'']::text[]))) and coalesce((_h1_t.requester = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''agent'', ''admin'']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''admin'']::text[]))), false)) = (select auth.uid()))), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''agent'', ''admin'']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''admin'']::text[]))), false) limit $2' using p_pattern, p_limit;
end
$fn$;
revoke execute on function app.comment__search(text, integer) from public;
grant execute on function app.comment__search(text, integer) to authenticated;

create index if not exists category__name__trgm_idx on public.category using gin (name extensions.gin_trgm_ops);
create index if not exists category__description__trgm_idx on public.category using gin (description extensions.gin_trgm_ops);
-- Search for category: matching ids the caller may read (a security-definer function, so the trigram indexes apply).
create or replace function app.category__search(p_pattern text, p_limit integer)
returns setof uuid
language plpgsql stable security definer
set search_path = ''
set cpu_operator_cost = 0.05
as $fn$
begin
  return query execute 'select t.id from public.category t where (t.name ilike $1 or t.description ilike $1) and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''customer'']::text[]))) and coalesce((t.active = true), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''agent'', ''admin'']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''admin'']::text[]))), false) limit $2' using p_pattern, p_limit;
end
$fn$;
revoke execute on function app.category__search(text, integer) from public;
grant execute on function app.category__search(text, integer) to authenticated;

create index if not exists saved_reply__title__trgm_idx on public.saved_reply using gin (title extensions.gin_trgm_ops);
create index if not exists saved_reply__body__trgm_idx on public.saved_reply using gin (body extensions.gin_trgm_ops);
-- Search for savedReply: matching ids the caller may read (a security-definer function, so the trigram indexes apply).
create or replace function app.saved_reply__search(p_pattern text, p_limit integer)
returns setof uuid
language plpgsql stable security definer
set search_path = ''
set cpu_operator_cost = 0.05
as $fn$
begin
  return query execute 'select t.id from public.saved_reply t where (t.title ilike $1 or t.body ilike $1) and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''agent'', ''admin'']::text[]))) and coalesce(((t.shared = true) or (t.created_by = (select auth.uid()))), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''admin'']::text[]))), false) limit $2' using p_pattern, p_limit;
end
$fn$;
revoke execute on function app.saved_reply__search(text, integer) from public;
grant execute on function app.saved_reply__search(text, integer) to authenticated;

-- ======================================================================
-- Privileges
-- ======================================================================

revoke all on table public.person from anon, authenticated;
grant select on table public.person to authenticated;
grant update (name, email, organisation, phone) on table public.person to authenticated;
grant delete on table public.person to authenticated;

revoke all on table public.ticket from anon, authenticated;
grant select on table public.ticket to authenticated;
grant insert (title, description, priority, category, assignee, due_at, rating, rating_comment) on table public.ticket to authenticated;
grant update (title, description, priority, category, assignee, due_at, rating, rating_comment) on table public.ticket to authenticated;
grant delete on table public.ticket to authenticated;
revoke all on table public.ticket_history from anon, authenticated;
grant select on table public.ticket_history to authenticated;

revoke all on table public.comment from anon, authenticated;
grant select on table public.comment to authenticated;
grant insert (ticket, body, internal) on table public.comment to authenticated;
grant update (body, internal) on table public.comment to authenticated;
grant delete on table public.comment to authenticated;

revoke all on table public.attachment from anon, authenticated;
grant select on table public.attachment to authenticated;
grant insert (name, size_bytes, mime_type, content, ticket, internal) on table public.attachment to authenticated;
grant update (internal) on table public.attachment to authenticated;
grant delete on table public.attachment to authenticated;

revoke all on table public.category from anon, authenticated;
grant select on table public.category to authenticated;
grant insert (name, description, active, default_assignee) on table public.category to authenticated;
grant update (name, description, active, default_assignee) on table public.category to authenticated;
grant delete on table public.category to authenticated;

revoke all on table public.saved_reply from anon, authenticated;
grant select on table public.saved_reply to authenticated;
grant insert (title, body, category, shared) on table public.saved_reply to authenticated;
grant update (title, body, category, shared) on table public.saved_reply to authenticated;
grant delete on table public.saved_reply to authenticated;

-- ======================================================================
-- Screen filters
-- ======================================================================

-- Screen myQueue: the rows of ticket it lists (assignee = me and status in (new, open, pending)).
create or replace function public.ticket__where_my_queue(p_row public.ticket)
returns boolean
language sql stable
as $fn$
select ((p_row.assignee = (select auth.uid())) and (p_row.status in ('new', 'open', 'pending')))
$fn$;
revoke execute on function public.ticket__where_my_queue(public.ticket) from public, anon, authenticated;
grant execute on function public.ticket__where_my_queue(public.ticket) to authenticated;

-- Screen awaitingResponse: the rows of ticket it lists (status = new and firstResponseAt is empty and ((priority = urgent and createdAt < now - hours(firstResponseHoursUrgent)) or (priority = high and createdAt < now - hours(firstResponseHoursHigh)) or (priority = normal and createdAt < now - hours(firstResponseHoursNormal)) or (priority = low and createdAt < now - hours(firstResponseHoursLow)))).
create or replace function public.ticket__where_awaiting_response(p_row public.ticket)
returns boolean
language sql stable
as $fn$
select (((p_row.status = 'new') and (p_row.first_response_at is null)) and (((((p_row.priority = 'urgent') and (p_row.created_at < (now() - ((1)::double precision * interval '3600 seconds')))) or ((p_row.priority = 'high') and (p_row.created_at < (now() - ((4)::double precision * interval '3600 seconds'))))) or ((p_row.priority = 'normal') and (p_row.created_at < (now() - ((8)::double precision * interval '3600 seconds'))))) or ((p_row.priority = 'low') and (p_row.created_at < (now() - ((24)::double precision * interval '3600 seconds'))))))
$fn$;
revoke execute on function public.ticket__where_awaiting_response(public.ticket) from public, anon, authenticated;
grant execute on function public.ticket__where_awaiting_response(public.ticket) to authenticated;

-- Screen board: the rows of ticket it lists (status != closed).
create or replace function public.ticket__where_board(p_row public.ticket)
returns boolean
language sql stable
as $fn$
select (p_row.status <> 'closed')
$fn$;
revoke execute on function public.ticket__where_board(public.ticket) from public, anon, authenticated;
grant execute on function public.ticket__where_board(public.ticket) to authenticated;

-- ======================================================================
-- User administration
-- ======================================================================

-- Users and their direct roles (admins only).
create or replace function public.admin_list_users()
returns table (id uuid, email text, roles text[], created_at timestamptz)
language plpgsql stable security definer
set search_path = ''
as $fn$
begin
  if not coalesce(app.is_admin(), false) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'user_roles', 'action', 'list')::text;
  end if;
  return query
    select u.id, u.email::text,
      coalesce(array_agg(ur.role order by ur.role) filter (where ur.role is not null), array[]::text[]),
      u.created_at::timestamptz
    from auth.users u left join app.user_roles ur on ur.user_id = u.id
    group by u.id order by u.created_at, u.email;
end;
$fn$;
revoke execute on function public.admin_list_users() from public, anon, authenticated;
grant execute on function public.admin_list_users() to authenticated;
-- Replaces a user's direct roles in one transaction (admins only).
create or replace function public.set_roles(p_user_id uuid, p_roles text[])
returns void
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  v_roles text[];
begin
  if not coalesce(app.is_admin(), false) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'user_roles', 'action', 'set')::text;
  end if;
  if p_roles is null then
    raise exception using errcode = 'P0001', message = 'INPUT_REQUIRED', detail = jsonb_build_object('entity', 'user_roles', 'field', 'roles')::text;
  end if;
  if not exists (select 1 from auth.users u where u.id = p_user_id) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'user', 'id', p_user_id)::text;
  end if;
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(p_user_id::text, 0));
  v_roles := array(select distinct r from unnest(p_roles) as r where r is not null order by r);
  delete from app.user_roles ur where ur.user_id = p_user_id and not (ur.role = any (v_roles));
  insert into app.user_roles (user_id, role) select p_user_id, r from unnest(v_roles) as r
  on conflict do nothing;
end;
$fn$;
revoke execute on function public.set_roles(uuid, text[]) from public, anon, authenticated;
grant execute on function public.set_roles(uuid, text[]) to authenticated;
-- Refuses removing the last admin role (LAST_ADMIN).
create or replace function app.keep_an_admin()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  if old.role = any (array['admin']::text[])
     and exists (select 1 from auth.users u where u.id = old.user_id)
     and not exists (select 1 from app.user_roles ur where ur.role = any (array['admin']::text[])) then
    raise exception using errcode = 'P0001', message = 'LAST_ADMIN', detail = jsonb_build_object()::text;
  end if;
  return null;
end;
$fn$;
revoke execute on function app.keep_an_admin() from public, anon, authenticated;
-- Who holds a role a validation rule names (inherited included), for the options forms offer.
create or replace function public.role_holders(p_role text)
returns table (user_id uuid, role text)
language plpgsql stable security definer
set search_path = ''
as $fn$
begin
  if (select auth.uid()) is null or not (p_role = any (array['agent']::text[])) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'user_roles', 'action', 'list')::text;
  end if;
  return query select distinct ur.user_id, p_role from app.user_roles ur
    where ur.role = any (case p_role
      when 'agent' then array['agent', 'admin']::text[]
      else array[p_role] end);
end;
$fn$;
revoke execute on function public.role_holders(text) from public, anon, authenticated;
grant execute on function public.role_holders(text) to authenticated;
drop trigger if exists user_roles__keep_an_admin on app.user_roles;
create constraint trigger user_roles__keep_an_admin after delete on app.user_roles
  deferrable initially deferred for each row execute function app.keep_an_admin();
-- Refuses a role change that breaks a validation rule asking that user's role (ROLE_IN_USE).
create or replace function app.recheck_role_rules()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  c record;
  v_count integer;
  v_user uuid := case when tg_op = 'DELETE' then old.user_id else new.user_id end;
  v_role text := case when tg_op = 'DELETE' then old.role else new.role end;
begin
  if not exists (select 1 from auth.users u where u.id = v_user) then
    return null;
  end if;
  v_count := 0;
  for c in select * from public.ticket x where x.assignee = v_user loop
    if not (coalesce(((c.assignee is null) or app.has_role(c.assignee, 'agent')), false)) then
      v_count := v_count + 1;
    end if;
  end loop;
  if v_count > 0 then
    raise exception using errcode = 'P0001', message = 'ROLE_IN_USE', detail = jsonb_build_object('role', v_role, 'entity', 'ticket', 'field', 'assignee', 'count', v_count)::text;
  end if;
  return null;
end;
$fn$;
revoke execute on function app.recheck_role_rules() from public, anon, authenticated;
drop trigger if exists user_roles__recheck_rules on app.user_roles;
create constraint trigger user_roles__recheck_rules after insert or delete on app.user_roles
  deferrable initially deferred for each row execute function app.recheck_role_rules();
