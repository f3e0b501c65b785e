-- Ninefold migration for "Mini desk" (target: embedded). Generated: do not edit.
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
      when 'customer' then array['customer', 'agent', 'admin']::text[]
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
  when 'agent' then array['agent', 'customer']::text[]
  when 'admin' then array['admin', 'agent', 'customer']::text[]
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
  email text not null,
  name text not null,
  constraint person__email__unique unique (email),
  constraint person__email__blank check (not (btrim(email, E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '')),
  constraint person__email__values check (char_length(email) <= 10000),
  constraint person__name__blank check (not (btrim(name, E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '')),
  constraint person__name__values check (char_length(name) <= 10000),
  constraint person__email_invalid__1 check (email is null or (email ~ '^[^ \t\n\r\f\v@]+@[^ \t\n\r\f\v@]+\.[^ \t\n\r\f\v@]+$'))
);

create table if not exists public.ticket (
  id uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  title text not null,
  body text,
  priority text default 'normal'::text,
  status text not null default 'open',
  requester uuid not null,
  assignee uuid,
  resolution text,
  solved_at timestamptz,
  constraint ticket__title__blank check (not (btrim(title, E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '')),
  constraint ticket__body__values check (char_length(body) <= 100000),
  constraint ticket__priority__values check (priority in ('low', 'normal', 'high')),
  constraint ticket__status__values check (status in ('open', 'pending', 'solved', 'closed')),
  constraint ticket__resolution__values check (char_length(resolution) <= 100000),
  constraint ticket__solved_at__values check (isfinite(solved_at)),
  constraint ticket__title_too_short__1 check (title is null or (char_length(title) >= 3)),
  constraint ticket__title_too_long__2 check (title is null or (char_length(title) <= 120)),
  constraint ticket__resolution_required__3 check (not coalesce((status = 'solved'), false) or coalesce((not (resolution is null or btrim(resolution, E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '')), false))
);

create table if not exists public.comment (
  id uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  ticket uuid not null,
  author uuid not null,
  body text not null,
  constraint comment__body__blank check (not (btrim(body, E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '')),
  constraint comment__body__values check (char_length(body) <= 100000)
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
  uploader uuid not null
);

-- ======================================================================
-- References and indexes
-- ======================================================================

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
create index if not exists ticket__requester__idx on public.ticket (requester);
create index if not exists ticket__status__idx on public.ticket (status);

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
create index if not exists comment__ticket__idx on public.comment (ticket);

do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'attachment__ticket__fk' and conrelid = 'public.attachment'::regclass) then
    alter table public.attachment add constraint attachment__ticket__fk foreign key (ticket) references public.ticket (id) on delete cascade;
  end if;
end $do$;
do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'attachment__uploader__fk' and conrelid = 'public.attachment'::regclass) then
    alter table public.attachment add constraint attachment__uploader__fk foreign key (uploader) references public.person (id) on delete restrict;
  end if;
end $do$;

create index if not exists attachment__ticket__idx on public.attachment (ticket);
create index if not exists attachment__uploader__idx on public.attachment (uploader);

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
    insert into public.person (id, email, name)
    values (new.id, new.email, coalesce(nullif(new.raw_user_meta_data ->> 'name', ''), split_part(new.email, '@', 1)))
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
    if new.email is distinct from old.email then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'person', 'field', 'email')::text;
    end if;
    if new.name is distinct from old.name and not ((app.has_role((select auth.uid()), 'customer') and coalesce((old.id = (select auth.uid())), false)) or app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'person', 'field', 'name')::text;
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
    new.status := 'open';
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
    if new.status is distinct from old.status then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'ticket', 'field', 'status')::text;
    end if;
    if new.requester is distinct from old.requester then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'ticket', 'field', 'requester')::text;
    end if;
    if new.resolution is distinct from old.resolution then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'ticket', 'field', 'resolution')::text;
    end if;
    if new.solved_at is distinct from old.solved_at then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'ticket', 'field', 'solvedAt')::text;
    end if;
    if new.title is distinct from old.title and not ((app.has_role((select auth.uid()), 'customer') and coalesce(((old.requester = (select auth.uid())) and (old.status = 'open')), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'ticket', 'field', 'title')::text;
    end if;
    if new.body is distinct from old.body and not ((app.has_role((select auth.uid()), 'customer') and coalesce(((old.requester = (select auth.uid())) and (old.status = 'open')), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'ticket', 'field', 'body')::text;
    end if;
    if new.priority is distinct from old.priority and not (app.has_role((select auth.uid()), 'agent')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'ticket', 'field', 'priority')::text;
    end if;
    if new.assignee is distinct from old.assignee and not (app.has_role((select auth.uid()), 'agent')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'ticket', 'field', 'assignee')::text;
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
language plpgsql volatile
set search_path = ''
as $fn$
begin
  if tg_op = 'UPDATE' and (old.requester is distinct from new.requester) then
    perform app.lock_group('attachment.ticket', (new.id)::text);
  end if;
  if tg_op = 'UPDATE' and (old.requester is distinct from new.requester) then
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
    if new.body is distinct from old.body then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'comment', 'field', 'body')::text;
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
    perform app.lock_group('comment.ticket', (new.ticket)::text);
  elsif tg_op = 'DELETE' then
    if exists (select 1 from public.ticket p where p.id = old.ticket) then
      perform app.lock_group('comment.ticket', (old.ticket)::text);
    end if;
  else
    perform app.lock_group('comment.ticket', (least(old.ticket::text, new.ticket::text))::text);
    if old.ticket is distinct from new.ticket then
      perform app.lock_group('comment.ticket', (greatest(old.ticket::text, new.ticket::text))::text);
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
    new.uploader := (select auth.uid());
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
    if new.uploader is distinct from old.uploader then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'attachment', 'field', 'uploader')::text;
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
    perform app.lock_group_shared('attachment.ticket', (new.ticket)::text);
  elsif tg_op = 'DELETE' then
    if exists (select 1 from public.ticket p where p.id = old.ticket) then
      perform app.lock_group_shared('attachment.ticket', (old.ticket)::text);
    end if;
  else
    perform app.lock_group_shared('attachment.ticket', (least(old.ticket::text, new.ticket::text))::text);
    if old.ticket is distinct from new.ticket then
      perform app.lock_group_shared('attachment.ticket', (greatest(old.ticket::text, new.ticket::text))::text);
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

-- ======================================================================
-- Validation beyond the row
-- ======================================================================

-- comment: whether a row counts in a rule's count for the current writer (it may read or owns it).
create or replace function app.comment__counted_for_writer(p_row public.comment)
returns boolean
language sql stable security definer
set search_path = ''
as $fn$
select coalesce(
  coalesce(current_setting('role', true), 'none') not in ('anon', 'authenticated')
  or p_row.author = (select auth.uid())
  or (((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['customer', 'agent', 'admin']::text[]))) and coalesce(((select _h1_p_row.requester from public.ticket _h1_p_row where _h1_p_row.id = p_row.ticket and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['customer', 'agent', 'admin']::text[]))) and coalesce((_h1_p_row.requester = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['agent', 'admin']::text[]))), false)) = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['agent', 'admin']::text[])))), false);
$fn$;
revoke execute on function app.comment__counted_for_writer(public.comment) from public, anon, authenticated;

-- Validation of comment that reads beyond the row (raises the rule's catalogue code).
create or replace function app.comment__validate()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  perform app.lock_group('comment.ticket', (new.ticket)::text);
  if not (coalesce(((select count(*) from public.comment _c1 where ((_c1.ticket = new.ticket)) and (_c1.id = new.id or app.comment__counted_for_writer(_c1))) <= 50), false)) then
    raise exception using errcode = 'P0001', message = 'TOO_MANY_COMMENTS', detail = jsonb_build_object('entity', 'comment')::text;
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
    if tg_op = 'INSERT' and not (((select app.has_role((select auth.uid()), 'customer')) and coalesce(((select _h1.requester from public.ticket _h1 where _h1.id = new.ticket) = (select auth.uid())), false)) or (select app.has_role((select auth.uid()), 'agent'))) then
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

-- Write permissions of attachment that read other rows, checked again under the group locks.
create or replace function app.attachment__recheck_permission()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  if current_user in ('anon', 'authenticated') then
    if tg_op = 'INSERT' and not (((select app.has_role((select auth.uid()), 'customer')) and coalesce(((select _h1.requester from public.ticket _h1 where _h1.id = new.ticket) = (select auth.uid())), false)) or (select app.has_role((select auth.uid()), 'agent'))) then
      raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'attachment', 'action', 'create')::text;
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
create policy ticket_history__read on public.ticket_history as permissive for select to authenticated using (exists (select 1 from public.ticket x where x.id = ticket_history.row_id and x.created_at <= ticket_history.at));
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

-- ======================================================================
-- Transitions
-- ======================================================================

-- Transition ticket.start: open -> pending (agent).
create or replace function public.ticket_start(p_id uuid, p_version integer default null, p_input jsonb default '{}'::jsonb)
returns public.ticket
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  r public.ticket;
  v_from text;
begin
  select * into r from public.ticket x where x.id = p_id for no key update;
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['customer', 'agent', 'admin']::text[]))) and coalesce((r.requester = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['agent', 'admin']::text[]))), false) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'ticket', 'id', p_id)::text;
  end if;
  if not (app.has_role((select auth.uid()), 'agent')) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'ticket', 'action', 'start')::text;
  end if;
  if p_version is not null and r.version <> p_version then
    raise exception using errcode = 'P0001', message = 'CONFLICT', detail = jsonb_build_object('entity', 'ticket', 'id', p_id, 'version', p_version, 'current', r.version)::text;
  end if;
  v_from := r.status;
  if v_from is null or v_from not in ('open') then
    raise exception using errcode = 'P0001', message = 'INVALID_TRANSITION', detail = jsonb_build_object('entity', 'ticket', 'transition', 'start', 'from', v_from)::text;
  end if;
  perform app.lock_group('attachment.ticket', (r.id)::text);
  perform app.lock_group('comment.ticket', (r.id)::text);
  select * into r from public.ticket x where x.id = p_id;
  begin
    update public.ticket x set
      assignee = (select auth.uid()),
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
  insert into public.ticket_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'start', v_from, 'pending', (select auth.uid()), '{}'::jsonb);
  return r;
end;
$fn$;
revoke execute on function public.ticket_start(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.ticket_start(uuid, integer, jsonb) to authenticated;

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
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['customer', 'agent', 'admin']::text[]))) and coalesce((r.requester = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['agent', 'admin']::text[]))), false) then
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
  if not coalesce(app.has_role(r.assignee, 'agent'), false) then
    raise exception using errcode = 'P0001', message = 'NOT_ASSIGNED', detail = jsonb_build_object('entity', 'ticket', 'action', 'solve')::text;
  end if;
  if p_input -> 'resolution' is null or jsonb_typeof(p_input -> 'resolution') = 'null' or btrim((p_input ->> 'resolution'), E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '' then
    raise exception using errcode = 'P0001', message = 'INPUT_REQUIRED', detail = jsonb_build_object('entity', 'ticket', 'transition', 'solve', 'field', 'resolution')::text;
  end if;
  begin
    update public.ticket x set
      resolution = (p_input ->> 'resolution')::text,
      solved_at = now(),
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
  insert into public.ticket_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'solve', v_from, 'solved', (select auth.uid()), jsonb_build_object('resolution', p_input -> 'resolution'));
  return r;
end;
$fn$;
revoke execute on function public.ticket_solve(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.ticket_solve(uuid, integer, jsonb) to authenticated;

-- Transition ticket.close: solved -> closed (customer).
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
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['customer', 'agent', 'admin']::text[]))) and coalesce((r.requester = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['agent', 'admin']::text[]))), false) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'ticket', 'id', p_id)::text;
  end if;
  if not (app.has_role((select auth.uid()), 'customer')) then
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
  if not coalesce((r.requester = (select auth.uid())), false) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'ticket', 'action', 'close')::text;
  end if;
  begin
    update public.ticket x set
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
  insert into public.ticket_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'close', v_from, 'closed', (select auth.uid()), '{}'::jsonb);
  return r;
end;
$fn$;
revoke execute on function public.ticket_close(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.ticket_close(uuid, integer, jsonb) to authenticated;

-- Transition ticket.reopen: solved -> open (customer).
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
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['customer', 'agent', 'admin']::text[]))) and coalesce((r.requester = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['agent', 'admin']::text[]))), false) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'ticket', 'id', p_id)::text;
  end if;
  if not (app.has_role((select auth.uid()), 'customer')) then
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
  if not coalesce((r.solved_at > (now() - ((7)::double precision * interval '86400 seconds'))), false) then
    raise exception using errcode = 'P0001', message = 'REOPEN_WINDOW_PASSED', detail = jsonb_build_object('entity', 'ticket', 'action', 'reopen')::text;
  end if;
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
  insert into public.ticket_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'reopen', v_from, 'open', (select auth.uid()), '{}'::jsonb);
  return r;
end;
$fn$;
revoke execute on function public.ticket_reopen(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.ticket_reopen(uuid, integer, jsonb) to authenticated;

-- ======================================================================
-- Row-level security
-- ======================================================================

alter table public.person enable row level security;
alter table public.person force row level security;
drop policy if exists person__customer__read on public.person;
create policy person__customer__read on public.person as permissive for select to authenticated using (((select app.has_role((select auth.uid()), 'customer')) and coalesce((person.id = (select auth.uid())), false)));
drop policy if exists person__customer__update on public.person;
create policy person__customer__update on public.person as permissive for update to authenticated using (((select app.has_role((select auth.uid()), 'customer')) and coalesce((person.id = (select auth.uid())), false))) with check (((select app.has_role((select auth.uid()), 'customer')) and coalesce((person.id = (select auth.uid())), false)));
drop policy if exists person__agent__read on public.person;
create policy person__agent__read on public.person as permissive for select to authenticated using ((select app.has_role((select auth.uid()), 'agent')));
drop policy if exists person__admin__update on public.person;
create policy person__admin__update on public.person as permissive for update to authenticated using ((select app.has_role((select auth.uid()), 'admin'))) with check ((select app.has_role((select auth.uid()), 'admin')));

alter table public.ticket enable row level security;
alter table public.ticket force row level security;
drop policy if exists ticket__customer__read on public.ticket;
create policy ticket__customer__read on public.ticket as permissive for select to authenticated using (((select app.has_role((select auth.uid()), 'customer')) and coalesce((ticket.requester = (select auth.uid())), false)));
drop policy if exists ticket__customer__create on public.ticket;
create policy ticket__customer__create on public.ticket as permissive for insert to authenticated with check ((select app.has_role((select auth.uid()), 'customer')));
drop policy if exists ticket__customer__update on public.ticket;
create policy ticket__customer__update on public.ticket as permissive for update to authenticated using (((select app.has_role((select auth.uid()), 'customer')) and coalesce(((ticket.requester = (select auth.uid())) and (ticket.status = 'open')), false))) with check (((select app.has_role((select auth.uid()), 'customer')) and coalesce(((ticket.requester = (select auth.uid())) and (ticket.status = 'open')), false)));
drop policy if exists ticket__agent__read on public.ticket;
create policy ticket__agent__read on public.ticket as permissive for select to authenticated using ((select app.has_role((select auth.uid()), 'agent')));
drop policy if exists ticket__agent__update on public.ticket;
create policy ticket__agent__update on public.ticket as permissive for update to authenticated using ((select app.has_role((select auth.uid()), 'agent'))) with check ((select app.has_role((select auth.uid()), 'agent')));
drop policy if exists ticket__admin__delete on public.ticket;
create policy ticket__admin__delete on public.ticket as permissive for delete to authenticated using ((select app.has_role((select auth.uid()), 'admin')));

alter table public.comment enable row level security;
alter table public.comment force row level security;
drop policy if exists comment__customer__read on public.comment;
create policy comment__customer__read on public.comment as permissive for select to authenticated using (((select app.has_role((select auth.uid()), 'customer')) and coalesce(((select _h1.requester from public.ticket _h1 where _h1.id = comment.ticket) = (select auth.uid())), false)));
drop policy if exists comment__customer__create on public.comment;
create policy comment__customer__create on public.comment as permissive for insert to authenticated with check (((select app.has_role((select auth.uid()), 'customer')) and coalesce(((select _h1.requester from public.ticket _h1 where _h1.id = comment.ticket) = (select auth.uid())), false)));
drop policy if exists comment__agent__read on public.comment;
create policy comment__agent__read on public.comment as permissive for select to authenticated using ((select app.has_role((select auth.uid()), 'agent')));
drop policy if exists comment__agent__create on public.comment;
create policy comment__agent__create on public.comment as permissive for insert to authenticated with check ((select app.has_role((select auth.uid()), 'agent')));

alter table public.attachment enable row level security;
alter table public.attachment force row level security;
drop policy if exists attachment__customer__read on public.attachment;
create policy attachment__customer__read on public.attachment as permissive for select to authenticated using (((select app.has_role((select auth.uid()), 'customer')) and coalesce(((select _h1.requester from public.ticket _h1 where _h1.id = attachment.ticket) = (select auth.uid())), false)));
drop policy if exists attachment__customer__create on public.attachment;
create policy attachment__customer__create on public.attachment as permissive for insert to authenticated with check (((select app.has_role((select auth.uid()), 'customer')) and coalesce(((select _h1.requester from public.ticket _h1 where _h1.id = attachment.ticket) = (select auth.uid())), false)));
drop policy if exists attachment__customer__delete on public.attachment;
create policy attachment__customer__delete on public.attachment as permissive for delete to authenticated using (((select app.has_role((select auth.uid()), 'customer')) and coalesce((attachment.uploader = (select auth.uid())), false)));
drop policy if exists attachment__agent__read on public.attachment;
create policy attachment__agent__read on public.attachment as permissive for select to authenticated using ((select app.has_role((select auth.uid()), 'agent')));
drop policy if exists attachment__agent__create on public.attachment;
create policy attachment__agent__create on public.attachment as permissive for insert to authenticated with check ((select app.has_role((select auth.uid()), 'agent')));

-- ======================================================================
-- Search
-- ======================================================================

create index if not exists person__email__trgm_idx on public.person using gin (email extensions.gin_trgm_ops);
create index if not exists person__name__trgm_idx on public.person using gin (name extensions.gin_trgm_ops);
-- Search for person: matching ids the caller may read (a security-definer function, so the trigram indexes apply).
create or replace function app.person__search(p_pattern text, p_limit integer)
returns setof uuid
language plpgsql stable security definer
set search_path = ''
set cpu_operator_cost = 0.05
as $fn$
begin
  return query execute 'select t.id from public.person t where (t.email ilike $1 or t.name ilike $1) and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''customer'', ''agent'', ''admin'']::text[]))) and coalesce((t.id = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''agent'', ''admin'']::text[]))), false) limit $2' using p_pattern, p_limit;
end
$fn$;
revoke execute on function app.person__search(text, integer) from public;
grant execute on function app.person__search(text, integer) to authenticated;

create index if not exists ticket__title__trgm_idx on public.ticket using gin (title extensions.gin_trgm_ops);
create index if not exists ticket__body__trgm_idx on public.ticket using gin (body extensions.gin_trgm_ops);
create index if not exists ticket__resolution__trgm_idx on public.ticket using gin (resolution extensions.gin_trgm_ops);
-- Search for ticket: matching ids the caller may read (a security-definer function, so the trigram indexes apply).
create or replace function app.ticket__search(p_pattern text, p_limit integer)
returns setof uuid
language plpgsql stable security definer
set search_path = ''
set cpu_operator_cost = 0.05
as $fn$
begin
  return query execute 'select t.id from public.ticket t where (t.title ilike $1 or t.body ilike $1 or t.resolution ilike $1) and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''customer'', ''agent'', ''admin'']::text[]))) and coalesce((t.requester = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''agent'', ''admin'']::text[]))), false) limit $2' using p_pattern, p_limit;
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
  return query execute 'select t.id from public.comment t where (t.body ilike $1) and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''customer'', ''agent'', ''admin'']::text[]))) and coalesce(((select _h1_t.requester from public.ticket _h1_t where _h1_t.id = t.ticket and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''customer'', ''agent'', ''admin'']::text[]))) and coalesce((_h1_t.requester = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''agent'', ''admin'']::text[]))), false)) = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''agent'', ''admin'']::text[]))), false) limit $2' using p_pattern, p_limit;
end
$fn$;
revoke execute on function app.comment__search(text, integer) from public;
grant execute on function app.comment__search(text, integer) to authenticated;

-- ======================================================================
-- Privileges
-- ======================================================================

revoke all on table public.person from anon, authenticated;
grant select on table public.person to authenticated;
grant update (name) on table public.person to authenticated;

revoke all on table public.ticket from anon, authenticated;
grant select on table public.ticket to authenticated;
grant insert (title, body, priority, assignee) on table public.ticket to authenticated;
grant update (title, body, priority, assignee) on table public.ticket to authenticated;
grant delete on table public.ticket to authenticated;
revoke all on table public.ticket_history from anon, authenticated;
grant select on table public.ticket_history to authenticated;

revoke all on table public.comment from anon, authenticated;
grant select on table public.comment to authenticated;
grant insert (ticket, body) on table public.comment to authenticated;

revoke all on table public.attachment from anon, authenticated;
grant select on table public.attachment to authenticated;
grant insert (name, size_bytes, mime_type, content, ticket) on table public.attachment to authenticated;
grant delete on table public.attachment to authenticated;

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
  if (select auth.uid()) is null or not (p_role = any (array[]::text[])) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'user_roles', 'action', 'list')::text;
  end if;
  return query select distinct ur.user_id, p_role from app.user_roles ur
    where false;
end;
$fn$;
revoke execute on function public.role_holders(text) from public, anon, authenticated;
grant execute on function public.role_holders(text) to authenticated;
drop trigger if exists user_roles__keep_an_admin on app.user_roles;
create constraint trigger user_roles__keep_an_admin after delete on app.user_roles
  deferrable initially deferred for each row execute function app.keep_an_admin();
