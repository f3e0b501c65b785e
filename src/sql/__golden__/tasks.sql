-- Ninefold migration for "Team Tasks" (target: embedded). Generated: do not edit.
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
  role text not null constraint user_roles__role__values check (role in ('member', 'admin', 'orgMember', 'orgAdmin', 'orgOwner', 'projectLead')),
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
      or p_role = any (array[]::text[])
      or exists (select 1 from app.user_roles a where a.user_id = (select auth.uid()) and a.role = any (array['admin']::text[])))
    and ur.role = any (case p_role
      when 'member' then array['member', 'admin']::text[]
      when 'admin' then array['admin']::text[]
      when 'orgMember' then array['orgMember']::text[]
      when 'orgAdmin' then array['orgAdmin']::text[]
      when 'orgOwner' then array['orgOwner']::text[]
      when 'projectLead' then array['projectLead']::text[]
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
  when 'member' then array['member']::text[]
  when 'admin' then array['admin', 'member']::text[]
  when 'orgMember' then array['orgMember']::text[]
  when 'orgAdmin' then array['orgAdmin']::text[]
  when 'orgOwner' then array['orgOwner']::text[]
  when 'projectLead' then array['projectLead']::text[]
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
  constraint person__name__blank check (not (btrim(name, E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '')),
  constraint person__name__values check (char_length(name) <= 10000),
  constraint person__email__unique unique (email),
  constraint person__email__blank check (not (btrim(email, E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '')),
  constraint person__email__values check (char_length(email) <= 10000),
  constraint person__email_invalid__1 check (email is null or (email ~ '^[^ \t\n\r\f\v@]+@[^ \t\n\r\f\v@]+\.[^ \t\n\r\f\v@]+$'))
);

create table if not exists public.organisation (
  id uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  name text not null,
  owner uuid not null,
  time_zone text not null default 'Europe/Berlin'::text,
  workday_start_hour integer not null default 9::integer,
  workday_end_hour integer not null default 17::integer,
  currency text not null default 'EUR'::text,
  constraint organisation__name__blank check (not (btrim(name, E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '')),
  constraint organisation__time_zone__values check (time_zone in ('Europe/Berlin', 'Europe/London', 'Europe/Lisbon', 'America/New_York', 'Asia/Tokyo')),
  constraint organisation__currency__values check (currency in ('EUR', 'USD', 'GBP', 'CHF')),
  constraint organisation__name_too_long__1 check (name is null or (char_length(name) <= 80)),
  constraint organisation__hour_out_of_range__2 check (workday_start_hour is null or (workday_start_hour >= 0)),
  constraint organisation__hour_out_of_range__3 check (workday_end_hour is null or (workday_end_hour <= 24)),
  constraint organisation__workday_ends_before_it_starts__4 check (coalesce((workday_end_hour > workday_start_hour), false))
);

create table if not exists public.membership (
  id uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  organisation uuid not null,
  person uuid not null,
  role text not null default 'member'::text,
  constraint membership__role__values check (role in ('owner', 'admin', 'member')),
  constraint membership__already_a_member__key1 unique (organisation, person)
);

create table if not exists public.rate (
  id uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  organisation uuid not null,
  person uuid not null,
  hourly_rate numeric not null,
  currency text not null,
  constraint rate__hourly_rate__values check (hourly_rate not in ('NaN'::numeric, 'Infinity'::numeric, '-Infinity'::numeric)),
  constraint rate__currency__values check (currency in ('EUR', 'USD', 'GBP', 'CHF')),
  constraint rate__rate_twice__key1 unique (organisation, person),
  constraint rate__rate_negative__1 check (hourly_rate is null or (hourly_rate >= 0)),
  constraint rate__rate_too_high__2 check (hourly_rate is null or (hourly_rate <= 500))
);

create table if not exists public.project (
  id uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  organisation uuid not null,
  name text not null,
  code text not null,
  description text,
  lead uuid,
  archived boolean default false::boolean,
  constraint project__name__blank check (not (btrim(name, E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '')),
  constraint project__code__blank check (not (btrim(code, E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '')),
  constraint project__code__values check (char_length(code) <= 10000),
  constraint project__description__values check (char_length(description) <= 100000),
  constraint project__project_code_taken__key2 unique (organisation, code),
  constraint project__name_too_long__1 check (name is null or (char_length(name) <= 80)),
  constraint project__project_code_invalid__2 check (code is null or (code ~ '^[A-Z]{2,6}$'))
);

create table if not exists public.task (
  id uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  organisation uuid not null,
  project uuid not null,
  title text not null,
  description text,
  assignee uuid,
  created_by uuid not null,
  due_date date,
  priority text not null default 'normal'::text,
  estimate_hours numeric,
  status text not null default 'open',
  done_at timestamptz,
  constraint task__title__blank check (not (btrim(title, E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '')),
  constraint task__description__values check (char_length(description) <= 100000),
  constraint task__due_date__values check (isfinite(due_date)),
  constraint task__priority__values check (priority in ('low', 'normal', 'high', 'urgent')),
  constraint task__estimate_hours__values check (estimate_hours not in ('NaN'::numeric, 'Infinity'::numeric, '-Infinity'::numeric)),
  constraint task__status__values check (status in ('open', 'in_progress', 'overdue', 'done')),
  constraint task__done_at__values check (isfinite(done_at)),
  constraint task__title_too_long__1 check (title is null or (char_length(title) <= 120)),
  constraint task__estimate_out_of_range__2 check (estimate_hours is null or (estimate_hours >= 0)),
  constraint task__estimate_out_of_range__3 check (estimate_hours is null or (estimate_hours <= 80))
);

create table if not exists public.time_entry (
  id uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  organisation uuid not null,
  task uuid not null,
  person uuid not null,
  date date not null default (now() at time zone 'utc')::date,
  hours numeric not null,
  note text,
  status text not null default 'logged',
  currency text not null,
  rate numeric,
  billable_amount numeric,
  approved_by uuid,
  approved_at timestamptz,
  constraint time_entry__date__values check (isfinite(date)),
  constraint time_entry__hours__values check (hours not in ('NaN'::numeric, 'Infinity'::numeric, '-Infinity'::numeric)),
  constraint time_entry__status__values check (status in ('logged', 'approved', 'rejected')),
  constraint time_entry__currency__values check (currency in ('EUR', 'USD', 'GBP', 'CHF')),
  constraint time_entry__rate__values check (rate not in ('NaN'::numeric, 'Infinity'::numeric, '-Infinity'::numeric)),
  constraint time_entry__billable_amount__values check (billable_amount not in ('NaN'::numeric, 'Infinity'::numeric, '-Infinity'::numeric)),
  constraint time_entry__approved_at__values check (isfinite(approved_at)),
  constraint time_entry__hours_out_of_range__1 check (hours is null or (hours >= 0.25)),
  constraint time_entry__hours_out_of_range__2 check (hours is null or (hours <= 12)),
  constraint time_entry__note_too_long__3 check (note is null or (char_length(note) <= 200))
);

-- ======================================================================
-- References and indexes
-- ======================================================================

create index if not exists person__name__idx on public.person (name);

do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'organisation__owner__fk' and conrelid = 'public.organisation'::regclass) then
    alter table public.organisation add constraint organisation__owner__fk foreign key (owner) references public.person (id) on delete restrict;
  end if;
end $do$;

create index if not exists organisation__name__idx on public.organisation (name);
create index if not exists organisation__owner__idx on public.organisation (owner);

do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'membership__organisation__fk' and conrelid = 'public.membership'::regclass) then
    alter table public.membership add constraint membership__organisation__fk foreign key (organisation) references public.organisation (id) on delete cascade;
  end if;
end $do$;
do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'membership__person__fk' and conrelid = 'public.membership'::regclass) then
    alter table public.membership add constraint membership__person__fk foreign key (person) references public.person (id) on delete cascade;
  end if;
end $do$;

create index if not exists membership__organisation__idx on public.membership (organisation);
create index if not exists membership__person__idx on public.membership (person);
create index if not exists membership__role__idx on public.membership (role);
create index if not exists membership__person__organisation__idx on public.membership (person, organisation);

do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'rate__organisation__fk' and conrelid = 'public.rate'::regclass) then
    alter table public.rate add constraint rate__organisation__fk foreign key (organisation) references public.organisation (id) on delete cascade;
  end if;
end $do$;
do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'rate__person__fk' and conrelid = 'public.rate'::regclass) then
    alter table public.rate add constraint rate__person__fk foreign key (person) references public.person (id) on delete cascade;
  end if;
end $do$;

create index if not exists rate__organisation__idx on public.rate (organisation);
create index if not exists rate__person__idx on public.rate (person);

do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'project__organisation__fk' and conrelid = 'public.project'::regclass) then
    alter table public.project add constraint project__organisation__fk foreign key (organisation) references public.organisation (id) on delete cascade;
  end if;
end $do$;
do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'project__lead__fk' and conrelid = 'public.project'::regclass) then
    alter table public.project add constraint project__lead__fk foreign key (lead) references public.person (id) on delete set null;
  end if;
end $do$;

create index if not exists project__lead__idx on public.project (lead);
create index if not exists project__name__idx on public.project (name);
create index if not exists project__organisation__idx on public.project (organisation);

create unique index if not exists project__project_name_taken__key1 on public.project (organisation, lower(name));

do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'task__organisation__fk' and conrelid = 'public.task'::regclass) then
    alter table public.task add constraint task__organisation__fk foreign key (organisation) references public.organisation (id) on delete cascade;
  end if;
end $do$;
do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'task__project__fk' and conrelid = 'public.task'::regclass) then
    alter table public.task add constraint task__project__fk foreign key (project) references public.project (id) on delete cascade;
  end if;
end $do$;
do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'task__assignee__fk' and conrelid = 'public.task'::regclass) then
    alter table public.task add constraint task__assignee__fk foreign key (assignee) references public.person (id) on delete set null;
  end if;
end $do$;
do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'task__created_by__fk' and conrelid = 'public.task'::regclass) then
    alter table public.task add constraint task__created_by__fk foreign key (created_by) references public.person (id) on delete restrict;
  end if;
end $do$;

create index if not exists task__assignee__idx on public.task (assignee);
create index if not exists task__created_by__idx on public.task (created_by);
create index if not exists task__due_date__idx on public.task (due_date);
create index if not exists task__organisation__idx on public.task (organisation);
create index if not exists task__project__idx on public.task (project);
create index if not exists task__status__idx on public.task (status);
create index if not exists task__assignee__due_date__id__idx on public.task (assignee, due_date, id) include (organisation, priority, status);
create index if not exists task__status__due_date__id__idx on public.task (status, due_date, id) include (assignee, organisation);
create index if not exists task__organisation__assignee__due_date__id__idx on public.task (organisation, assignee, due_date, id) include (priority, status);
create index if not exists task__organisation__status__due_date__id__idx on public.task (organisation, status, due_date, id) include (assignee);

do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'time_entry__organisation__fk' and conrelid = 'public.time_entry'::regclass) then
    alter table public.time_entry add constraint time_entry__organisation__fk foreign key (organisation) references public.organisation (id) on delete cascade;
  end if;
end $do$;
do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'time_entry__task__fk' and conrelid = 'public.time_entry'::regclass) then
    alter table public.time_entry add constraint time_entry__task__fk foreign key (task) references public.task (id) on delete cascade;
  end if;
end $do$;
do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'time_entry__person__fk' and conrelid = 'public.time_entry'::regclass) then
    alter table public.time_entry add constraint time_entry__person__fk foreign key (person) references public.person (id) on delete restrict;
  end if;
end $do$;
do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'time_entry__approved_by__fk' and conrelid = 'public.time_entry'::regclass) then
    alter table public.time_entry add constraint time_entry__approved_by__fk foreign key (approved_by) references public.person (id) on delete restrict;
  end if;
end $do$;

create index if not exists time_entry__approved_by__idx on public.time_entry (approved_by);
create index if not exists time_entry__date__idx on public.time_entry (date);
create index if not exists time_entry__organisation__idx on public.time_entry (organisation);
create index if not exists time_entry__person__idx on public.time_entry (person);
create index if not exists time_entry__status__idx on public.time_entry (status);
create index if not exists time_entry__task__idx on public.time_entry (task);
create index if not exists time_entry__person__date__id__idx on public.time_entry (person, date, id) include (organisation, status);
create index if not exists time_entry__status__date__id__idx on public.time_entry (status, date, id) include (organisation, person);
create index if not exists time_entry__organisation__status__date__id__idx on public.time_entry (organisation, status, date, id) include (person);

-- ======================================================================
-- Users
-- ======================================================================

-- A new auth user gets a person row and the sign-up roles (member).
create or replace function app.on_auth_user_created()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  begin
    insert into public.person (id, name, email)
    values (new.id, coalesce(nullif(new.raw_user_meta_data ->> 'name', ''), split_part(new.email, '@', 1)), new.email)
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
  insert into app.user_roles (user_id, role) values (new.id, 'member') on conflict do nothing;
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
    if new.name is distinct from old.name and not ((app.has_role((select auth.uid()), 'member') and coalesce((old.id = (select auth.uid())), false)) or app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'person', 'field', 'name')::text;
    end if;
    if new.email is distinct from old.email and not (app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'person', 'field', 'email')::text;
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.person__on_update() from public, anon, authenticated;
create or replace trigger ninefold_20_on_update before update on public.person for each row execute function app.person__on_update();

-- Insert bookkeeping of organisation.
create or replace function app.organisation__on_insert()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  new.created_at := now();
  new.updated_at := new.created_at;
  new.version := 1;
  if current_user in ('anon', 'authenticated') then
    new.owner := (select auth.uid());
  end if;
  return new;
end;
$fn$;
revoke execute on function app.organisation__on_insert() from public, anon, authenticated;
create or replace trigger ninefold_10_on_insert before insert on public.organisation for each row execute function app.organisation__on_insert();
-- Update bookkeeping and column rules of organisation.
create or replace function app.organisation__on_update()
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
    if new.owner is distinct from old.owner then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'organisation', 'field', 'owner')::text;
    end if;
    if new.name is distinct from old.name and not ((app.has_role((select auth.uid()), 'member') and coalesce(((old.owner = (select auth.uid())) or coalesce((old.id in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false)), false)) or (app.has_role((select auth.uid()), 'admin') and coalesce(((old.owner = (select auth.uid())) or coalesce((old.id in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false)), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'organisation', 'field', 'name')::text;
    end if;
    if new.time_zone is distinct from old.time_zone and not ((app.has_role((select auth.uid()), 'member') and coalesce(((old.owner = (select auth.uid())) or coalesce((old.id in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false)), false)) or (app.has_role((select auth.uid()), 'admin') and coalesce(((old.owner = (select auth.uid())) or coalesce((old.id in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false)), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'organisation', 'field', 'timeZone')::text;
    end if;
    if new.workday_start_hour is distinct from old.workday_start_hour and not ((app.has_role((select auth.uid()), 'member') and coalesce(((old.owner = (select auth.uid())) or coalesce((old.id in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false)), false)) or (app.has_role((select auth.uid()), 'admin') and coalesce(((old.owner = (select auth.uid())) or coalesce((old.id in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false)), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'organisation', 'field', 'workdayStartHour')::text;
    end if;
    if new.workday_end_hour is distinct from old.workday_end_hour and not ((app.has_role((select auth.uid()), 'member') and coalesce(((old.owner = (select auth.uid())) or coalesce((old.id in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false)), false)) or (app.has_role((select auth.uid()), 'admin') and coalesce(((old.owner = (select auth.uid())) or coalesce((old.id in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false)), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'organisation', 'field', 'workdayEndHour')::text;
    end if;
    if new.currency is distinct from old.currency and not ((app.has_role((select auth.uid()), 'member') and coalesce(((old.owner = (select auth.uid())) or coalesce((old.id in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false)), false)) or (app.has_role((select auth.uid()), 'admin') and coalesce(((old.owner = (select auth.uid())) or coalesce((old.id in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false)), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'organisation', 'field', 'currency')::text;
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.organisation__on_update() from public, anon, authenticated;
create or replace trigger ninefold_20_on_update before update on public.organisation for each row execute function app.organisation__on_update();

-- Computed fields reading organisation, recomputed when it changes: rate.currency (through organisation), timeEntry.currency (through organisation).
create or replace function app.organisation__recompute_dependents()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  v_flag text := coalesce(current_setting('ninefold.in_transition', true), '');
  v_only text := coalesce(current_setting('ninefold.recompute_only', true), '');
begin
  perform set_config('ninefold.in_transition', 'on', true);
  if new.currency is distinct from old.currency then
    perform set_config('ninefold.recompute_only', 'rate:,currency,', true);
    update public.rate x set currency = x.currency where x.organisation = new.id;
    perform set_config('ninefold.recompute_only', v_only, true);
  end if;
  if new.currency is distinct from old.currency then
    perform set_config('ninefold.recompute_only', 'time_entry:,currency,billable_amount,~rate,', true);
    update public.time_entry x set organisation = x.organisation, currency = x.currency, rate = x.rate, billable_amount = x.billable_amount where x.organisation = new.id;
    perform set_config('ninefold.recompute_only', v_only, true);
  end if;
  perform set_config('ninefold.in_transition', v_flag, true);
  return null;
end;
$fn$;
revoke execute on function app.organisation__recompute_dependents() from public, anon, authenticated;
create or replace trigger ninefold_38_recompute after update of currency on public.organisation for each row when (new.currency is distinct from old.currency) execute function app.organisation__recompute_dependents();

-- Locks the groups of organisation that rules read, before the write (see emitGroupLocks.ts).
create or replace function app.organisation__lock_groups()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  if tg_op = 'UPDATE' and (old.owner is distinct from new.owner) then
    perform app.lock_group('membership.organisation', (new.id)::text);
  end if;
  if tg_op = 'UPDATE' and (old.owner is distinct from new.owner) then
    perform app.lock_group('rate.organisation', (new.id)::text);
  end if;
  if tg_op = 'UPDATE' and (old.time_zone is distinct from new.time_zone) then
    perform app.lock_group('timeEntry.organisation', (new.id)::text);
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.organisation__lock_groups() from public, anon, authenticated;
create or replace trigger ninefold_05_lock_groups before insert or update or delete on public.organisation for each row execute function app.organisation__lock_groups();

-- Insert bookkeeping of membership.
create or replace function app.membership__on_insert()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  new.created_at := now();
  new.updated_at := new.created_at;
  new.version := 1;
  if current_user in ('anon', 'authenticated') then
    if new.organisation is not null and not exists (select 1 from public.organisation x where x.id = new.organisation) then
      raise exception using errcode = '23503', constraint = 'membership__organisation__fk',
        message = 'insert or update on table "membership" violates foreign key constraint "membership__organisation__fk"',
        detail = 'Key (organisation) is not present in table "organisation".';
    end if;
    if new.person is not null and not exists (select 1 from public.person x where x.id = new.person) then
      raise exception using errcode = '23503', constraint = 'membership__person__fk',
        message = 'insert or update on table "membership" violates foreign key constraint "membership__person__fk"',
        detail = 'Key (person) is not present in table "person".';
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.membership__on_insert() from public, anon, authenticated;
create or replace trigger ninefold_10_on_insert before insert on public.membership for each row execute function app.membership__on_insert();
-- Update bookkeeping and column rules of membership.
create or replace function app.membership__on_update()
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
    if new.organisation is distinct from old.organisation then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'membership', 'field', 'organisation')::text;
    end if;
    if new.person is distinct from old.person then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'membership', 'field', 'person')::text;
    end if;
    if new.role is distinct from old.role and not ((app.has_role((select auth.uid()), 'member') and coalesce(((((select _h1.owner from public.organisation _h1 where _h1.id = old.organisation) = (select auth.uid())) or coalesce((old.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner'))))), false)) or (coalesce((old.organisation in (select _c3.organisation from public.membership _c3 where _c3.organisation is not null and ((_c3.person = (select auth.uid()))) and ((_c3.role in ('owner', 'admin'))))), false) and (old.role <> 'owner'))), false)) or (app.has_role((select auth.uid()), 'admin') and coalesce(((((select _h1.owner from public.organisation _h1 where _h1.id = old.organisation) = (select auth.uid())) or coalesce((old.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner'))))), false)) or (coalesce((old.organisation in (select _c3.organisation from public.membership _c3 where _c3.organisation is not null and ((_c3.person = (select auth.uid()))) and ((_c3.role in ('owner', 'admin'))))), false) and (old.role <> 'owner'))), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'membership', 'field', 'role')::text;
    end if;
    if new.organisation is not null and new.organisation is distinct from old.organisation and not exists (select 1 from public.organisation x where x.id = new.organisation) then
      raise exception using errcode = '23503', constraint = 'membership__organisation__fk',
        message = 'insert or update on table "membership" violates foreign key constraint "membership__organisation__fk"',
        detail = 'Key (organisation) is not present in table "organisation".';
    end if;
    if new.person is not null and new.person is distinct from old.person and not exists (select 1 from public.person x where x.id = new.person) then
      raise exception using errcode = '23503', constraint = 'membership__person__fk',
        message = 'insert or update on table "membership" violates foreign key constraint "membership__person__fk"',
        detail = 'Key (person) is not present in table "person".';
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.membership__on_update() from public, anon, authenticated;
create or replace trigger ninefold_20_on_update before update on public.membership for each row execute function app.membership__on_update();
-- What a create or an update of membership may make of the row (the permissions' becomes), with their catalogue codes.
create or replace function app.membership__check_becomes()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  if current_user in ('anon', 'authenticated') then
    if tg_op = 'INSERT' then
      if ((app.has_role((select auth.uid()), 'member') and coalesce((((select _h1.owner from public.organisation _h1 where _h1.id = new.organisation) = (select auth.uid())) or coalesce((new.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false)), false)) or (app.has_role((select auth.uid()), 'admin') and coalesce((((select _h1.owner from public.organisation _h1 where _h1.id = new.organisation) = (select auth.uid())) or coalesce((new.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false)), false))) and not (((app.has_role((select auth.uid()), 'member') and coalesce((((select _h1.owner from public.organisation _h1 where _h1.id = new.organisation) = (select auth.uid())) or coalesce((new.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false)), false)) and coalesce((((new.role <> 'owner') or ((select _h1.owner from public.organisation _h1 where _h1.id = new.organisation) = (select auth.uid()))) or coalesce((new.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner'))))), false)), false)) or ((app.has_role((select auth.uid()), 'admin') and coalesce((((select _h1.owner from public.organisation _h1 where _h1.id = new.organisation) = (select auth.uid())) or coalesce((new.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false)), false)) and coalesce((((new.role <> 'owner') or ((select _h1.owner from public.organisation _h1 where _h1.id = new.organisation) = (select auth.uid()))) or coalesce((new.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner'))))), false)), false))) then
        if (app.has_role((select auth.uid()), 'member') and coalesce((((select _h1.owner from public.organisation _h1 where _h1.id = new.organisation) = (select auth.uid())) or coalesce((new.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false)), false)) then
          raise exception using errcode = 'P0001', message = 'ONLY_OWNER_MAKES_OWNER', detail = jsonb_build_object('entity', 'membership', 'action', 'create')::text;
        end if;
        raise exception using errcode = 'P0001', message = 'ONLY_OWNER_MAKES_OWNER', detail = jsonb_build_object('entity', 'membership', 'action', 'create')::text;
      end if;
    end if;
    if tg_op = 'UPDATE' then
      if ((app.has_role((select auth.uid()), 'member') and coalesce(((((select _h1.owner from public.organisation _h1 where _h1.id = old.organisation) = (select auth.uid())) or coalesce((old.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner'))))), false)) or (coalesce((old.organisation in (select _c3.organisation from public.membership _c3 where _c3.organisation is not null and ((_c3.person = (select auth.uid()))) and ((_c3.role in ('owner', 'admin'))))), false) and (old.role <> 'owner'))), false)) or (app.has_role((select auth.uid()), 'admin') and coalesce(((((select _h1.owner from public.organisation _h1 where _h1.id = old.organisation) = (select auth.uid())) or coalesce((old.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner'))))), false)) or (coalesce((old.organisation in (select _c3.organisation from public.membership _c3 where _c3.organisation is not null and ((_c3.person = (select auth.uid()))) and ((_c3.role in ('owner', 'admin'))))), false) and (old.role <> 'owner'))), false))) and not (((app.has_role((select auth.uid()), 'member') and coalesce(((((select _h1.owner from public.organisation _h1 where _h1.id = old.organisation) = (select auth.uid())) or coalesce((old.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner'))))), false)) or (coalesce((old.organisation in (select _c3.organisation from public.membership _c3 where _c3.organisation is not null and ((_c3.person = (select auth.uid()))) and ((_c3.role in ('owner', 'admin'))))), false) and (old.role <> 'owner'))), false)) and coalesce((((new.role <> 'owner') or ((select _h1.owner from public.organisation _h1 where _h1.id = new.organisation) = (select auth.uid()))) or coalesce((new.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner'))))), false)), false)) or ((app.has_role((select auth.uid()), 'admin') and coalesce(((((select _h1.owner from public.organisation _h1 where _h1.id = old.organisation) = (select auth.uid())) or coalesce((old.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner'))))), false)) or (coalesce((old.organisation in (select _c3.organisation from public.membership _c3 where _c3.organisation is not null and ((_c3.person = (select auth.uid()))) and ((_c3.role in ('owner', 'admin'))))), false) and (old.role <> 'owner'))), false)) and coalesce((((new.role <> 'owner') or ((select _h1.owner from public.organisation _h1 where _h1.id = new.organisation) = (select auth.uid()))) or coalesce((new.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner'))))), false)), false))) then
        if (app.has_role((select auth.uid()), 'member') and coalesce(((((select _h1.owner from public.organisation _h1 where _h1.id = old.organisation) = (select auth.uid())) or coalesce((old.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner'))))), false)) or (coalesce((old.organisation in (select _c3.organisation from public.membership _c3 where _c3.organisation is not null and ((_c3.person = (select auth.uid()))) and ((_c3.role in ('owner', 'admin'))))), false) and (old.role <> 'owner'))), false)) then
          raise exception using errcode = 'P0001', message = 'ONLY_OWNER_MAKES_OWNER', detail = jsonb_build_object('entity', 'membership', 'action', 'update')::text;
        end if;
        raise exception using errcode = 'P0001', message = 'ONLY_OWNER_MAKES_OWNER', detail = jsonb_build_object('entity', 'membership', 'action', 'update')::text;
      end if;
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.membership__check_becomes() from public, anon, authenticated;
create or replace trigger ninefold_28_check_becomes before insert or update on public.membership for each row execute function app.membership__check_becomes();

-- Locks the groups of membership that rules read, before the write (see emitGroupLocks.ts).
create or replace function app.membership__lock_groups()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  if tg_op = 'INSERT' or (tg_op = 'UPDATE' and old.organisation is distinct from new.organisation) then
    perform 1 from public.organisation p where p.id = new.organisation for key share;
  end if;
  if tg_op = 'INSERT' then
    perform app.lock_group('membership.organisation', (new.organisation)::text);
  elsif tg_op = 'DELETE' then
    if exists (select 1 from public.organisation p where p.id = old.organisation) then
      perform app.lock_group('membership.organisation', (old.organisation)::text);
    end if;
  else
    perform app.lock_group('membership.organisation', (least(old.organisation::text, new.organisation::text))::text);
    if old.organisation is distinct from new.organisation then
      perform app.lock_group('membership.organisation', (greatest(old.organisation::text, new.organisation::text))::text);
    end if;
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.membership__lock_groups() from public, anon, authenticated;
create or replace trigger ninefold_05_lock_groups before insert or update or delete on public.membership for each row execute function app.membership__lock_groups();

-- Insert bookkeeping of rate.
create or replace function app.rate__on_insert()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  new.created_at := now();
  new.updated_at := new.created_at;
  new.version := 1;
  if current_user in ('anon', 'authenticated') then
    if new.organisation is not null and not exists (select 1 from public.organisation x where x.id = new.organisation) then
      raise exception using errcode = '23503', constraint = 'rate__organisation__fk',
        message = 'insert or update on table "rate" violates foreign key constraint "rate__organisation__fk"',
        detail = 'Key (organisation) is not present in table "organisation".';
    end if;
    if new.person is not null and not exists (select 1 from public.person x where x.id = new.person) then
      raise exception using errcode = '23503', constraint = 'rate__person__fk',
        message = 'insert or update on table "rate" violates foreign key constraint "rate__person__fk"',
        detail = 'Key (person) is not present in table "person".';
    end if;
    if new.currency is not null then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'rate', 'field', 'currency')::text;
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.rate__on_insert() from public, anon, authenticated;
create or replace trigger ninefold_10_on_insert before insert on public.rate for each row execute function app.rate__on_insert();
-- Update bookkeeping and column rules of rate.
create or replace function app.rate__on_update()
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
    if new.organisation is distinct from old.organisation then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'rate', 'field', 'organisation')::text;
    end if;
    if new.person is distinct from old.person then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'rate', 'field', 'person')::text;
    end if;
    if new.currency is distinct from old.currency then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'rate', 'field', 'currency')::text;
    end if;
    if new.hourly_rate is distinct from old.hourly_rate and not ((app.has_role((select auth.uid()), 'member') and coalesce((((select _h1.owner from public.organisation _h1 where _h1.id = old.organisation) = (select auth.uid())) or coalesce((old.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false)), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'rate', 'field', 'hourlyRate')::text;
    end if;
    if new.organisation is not null and new.organisation is distinct from old.organisation and not exists (select 1 from public.organisation x where x.id = new.organisation) then
      raise exception using errcode = '23503', constraint = 'rate__organisation__fk',
        message = 'insert or update on table "rate" violates foreign key constraint "rate__organisation__fk"',
        detail = 'Key (organisation) is not present in table "organisation".';
    end if;
    if new.person is not null and new.person is distinct from old.person and not exists (select 1 from public.person x where x.id = new.person) then
      raise exception using errcode = '23503', constraint = 'rate__person__fk',
        message = 'insert or update on table "rate" violates foreign key constraint "rate__person__fk"',
        detail = 'Key (person) is not present in table "person".';
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.rate__on_update() from public, anon, authenticated;
create or replace trigger ninefold_20_on_update before update on public.rate for each row execute function app.rate__on_update();

-- Computed fields of rate: currency.
create or replace function app.rate__computed()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  v_only text := coalesce(current_setting('ninefold.recompute_only', true), '');
  v_all boolean := split_part(v_only, ':', 1) is distinct from 'rate';
begin
  if v_all or position(',currency,' in v_only) > 0 then
    new.currency := (select _h1.currency from public.organisation _h1 where _h1.id = new.organisation);
  end if;
  return new;
end;
$fn$;
revoke execute on function app.rate__computed() from public, anon, authenticated;
create or replace trigger ninefold_25_computed before insert or update on public.rate for each row execute function app.rate__computed();

-- Locks the groups of rate that rules read, before the write (see emitGroupLocks.ts).
create or replace function app.rate__lock_groups()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  if tg_op = 'INSERT' or (tg_op = 'UPDATE' and old.organisation is distinct from new.organisation) then
    perform 1 from public.organisation p where p.id = new.organisation for key share;
  end if;
  if tg_op = 'INSERT' then
    perform app.lock_group_shared('rate.organisation', (new.organisation)::text);
  elsif tg_op = 'DELETE' then
    if exists (select 1 from public.organisation p where p.id = old.organisation) then
      perform app.lock_group_shared('rate.organisation', (old.organisation)::text);
    end if;
  else
    perform app.lock_group_shared('rate.organisation', (least(old.organisation::text, new.organisation::text))::text);
    if old.organisation is distinct from new.organisation then
      perform app.lock_group_shared('rate.organisation', (greatest(old.organisation::text, new.organisation::text))::text);
    end if;
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.rate__lock_groups() from public, anon, authenticated;
create or replace trigger ninefold_05_lock_groups before insert or update or delete on public.rate for each row execute function app.rate__lock_groups();

-- Insert bookkeeping of project.
create or replace function app.project__on_insert()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  new.created_at := now();
  new.updated_at := new.created_at;
  new.version := 1;
  if current_user in ('anon', 'authenticated') then
    if new.organisation is not null and not exists (select 1 from public.organisation x where x.id = new.organisation) then
      raise exception using errcode = '23503', constraint = 'project__organisation__fk',
        message = 'insert or update on table "project" violates foreign key constraint "project__organisation__fk"',
        detail = 'Key (organisation) is not present in table "organisation".';
    end if;
    if new.lead is not null and not exists (select 1 from public.person x where x.id = new.lead) then
      raise exception using errcode = '23503', constraint = 'project__lead__fk',
        message = 'insert or update on table "project" violates foreign key constraint "project__lead__fk"',
        detail = 'Key (lead) is not present in table "person".';
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.project__on_insert() from public, anon, authenticated;
create or replace trigger ninefold_10_on_insert before insert on public.project for each row execute function app.project__on_insert();
-- Update bookkeeping and column rules of project.
create or replace function app.project__on_update()
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
    if new.organisation is distinct from old.organisation then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'project', 'field', 'organisation')::text;
    end if;
    if new.name is distinct from old.name and not ((app.has_role((select auth.uid()), 'member') and coalesce(coalesce((old.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false), false)) or coalesce((((not ((select auth.uid()) is null)) and (not (old.lead is null))) and (old.lead = (select auth.uid()))), false)) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'project', 'field', 'name')::text;
    end if;
    if new.code is distinct from old.code and not ((app.has_role((select auth.uid()), 'member') and coalesce(coalesce((old.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false), false)) or coalesce((((not ((select auth.uid()) is null)) and (not (old.lead is null))) and (old.lead = (select auth.uid()))), false)) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'project', 'field', 'code')::text;
    end if;
    if new.description is distinct from old.description and not ((app.has_role((select auth.uid()), 'member') and coalesce(coalesce((old.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false), false)) or coalesce((((not ((select auth.uid()) is null)) and (not (old.lead is null))) and (old.lead = (select auth.uid()))), false)) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'project', 'field', 'description')::text;
    end if;
    if new.lead is distinct from old.lead and not ((app.has_role((select auth.uid()), 'member') and coalesce(coalesce((old.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false), false)) or coalesce((((not ((select auth.uid()) is null)) and (not (old.lead is null))) and (old.lead = (select auth.uid()))), false)) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'project', 'field', 'lead')::text;
    end if;
    if new.archived is distinct from old.archived and not ((app.has_role((select auth.uid()), 'member') and coalesce(coalesce((old.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false), false)) or coalesce((((not ((select auth.uid()) is null)) and (not (old.lead is null))) and (old.lead = (select auth.uid()))), false)) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'project', 'field', 'archived')::text;
    end if;
    if new.organisation is not null and new.organisation is distinct from old.organisation and not exists (select 1 from public.organisation x where x.id = new.organisation) then
      raise exception using errcode = '23503', constraint = 'project__organisation__fk',
        message = 'insert or update on table "project" violates foreign key constraint "project__organisation__fk"',
        detail = 'Key (organisation) is not present in table "organisation".';
    end if;
    if new.lead is not null and new.lead is distinct from old.lead and not exists (select 1 from public.person x where x.id = new.lead) then
      raise exception using errcode = '23503', constraint = 'project__lead__fk',
        message = 'insert or update on table "project" violates foreign key constraint "project__lead__fk"',
        detail = 'Key (lead) is not present in table "person".';
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.project__on_update() from public, anon, authenticated;
create or replace trigger ninefold_20_on_update before update on public.project for each row execute function app.project__on_update();

-- Computed fields reading project, recomputed when it changes: task.organisation (through project).
create or replace function app.project__recompute_dependents()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  v_flag text := coalesce(current_setting('ninefold.in_transition', true), '');
  v_only text := coalesce(current_setting('ninefold.recompute_only', true), '');
begin
  perform set_config('ninefold.in_transition', 'on', true);
  if new.organisation is distinct from old.organisation then
    perform set_config('ninefold.recompute_only', 'task:,organisation,', true);
    update public.task x set organisation = x.organisation where x.project = new.id;
    perform set_config('ninefold.recompute_only', v_only, true);
  end if;
  perform set_config('ninefold.in_transition', v_flag, true);
  return null;
end;
$fn$;
revoke execute on function app.project__recompute_dependents() from public, anon, authenticated;
create or replace trigger ninefold_38_recompute after update of organisation on public.project for each row when (new.organisation is distinct from old.organisation) execute function app.project__recompute_dependents();

-- Locks the groups of project that rules read, before the write (see emitGroupLocks.ts).
create or replace function app.project__lock_groups()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  if tg_op = 'UPDATE' and (old.archived is distinct from new.archived) then
    perform app.lock_group('task.project', (new.id)::text);
  end if;
  if tg_op = 'INSERT' then
    perform app.lock_group_shared('project.id', (new.id)::text);
  elsif tg_op = 'DELETE' then
    perform app.lock_group_shared('project.id', (old.id)::text);
  elsif old.id is distinct from new.id or old.lead is distinct from new.lead then
    perform app.lock_group_shared('project.id', (least(old.id::text, new.id::text))::text);
    if old.id is distinct from new.id then
      perform app.lock_group_shared('project.id', (greatest(old.id::text, new.id::text))::text);
    end if;
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.project__lock_groups() from public, anon, authenticated;
create or replace trigger ninefold_05_lock_groups before insert or update or delete on public.project for each row execute function app.project__lock_groups();

-- The state a new task starts in (its initialWhen rules, then open).
create or replace function app.task__initial_state(p_row public.task)
returns text
language plpgsql stable security definer
set search_path = ''
as $fn$
declare
  r public.task := p_row;
begin
  r.status := null;
  r.organisation := (select _h1.organisation from public.project _h1 where _h1.id = r.project);
  return case
    when coalesce(((not (r.due_date is null)) and (now() >= (date_trunc('day', (((((((((r.due_date)::timestamp at time zone 'utc') + ((1)::double precision * interval '86400 seconds'))) at time zone ('UTC')))::date)::timestamp at time zone ((select _h1.time_zone from public.organisation _h1 where _h1.id = r.organisation))) at time zone ((select _h1.time_zone from public.organisation _h1 where _h1.id = r.organisation)))) at time zone ((select _h1.time_zone from public.organisation _h1 where _h1.id = r.organisation))))), false) then 'overdue'
    else 'open'
  end;
end;
$fn$;
revoke execute on function app.task__initial_state(public.task) from public, anon, authenticated;
grant execute on function app.task__initial_state(public.task) to authenticated;
-- Insert bookkeeping of task.
create or replace function app.task__on_insert()
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
    new.status := app.task__initial_state(new);
    if new.organisation is not null and not exists (select 1 from public.organisation x where x.id = new.organisation) then
      raise exception using errcode = '23503', constraint = 'task__organisation__fk',
        message = 'insert or update on table "task" violates foreign key constraint "task__organisation__fk"',
        detail = 'Key (organisation) is not present in table "organisation".';
    end if;
    if new.project is not null and not exists (select 1 from public.project x where x.id = new.project) then
      raise exception using errcode = '23503', constraint = 'task__project__fk',
        message = 'insert or update on table "task" violates foreign key constraint "task__project__fk"',
        detail = 'Key (project) is not present in table "project".';
    end if;
    if new.assignee is not null and not exists (select 1 from public.person x where x.id = new.assignee) then
      raise exception using errcode = '23503', constraint = 'task__assignee__fk',
        message = 'insert or update on table "task" violates foreign key constraint "task__assignee__fk"',
        detail = 'Key (assignee) is not present in table "person".';
    end if;
    if new.organisation is not null then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'task', 'field', 'organisation')::text;
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.task__on_insert() from public, anon, authenticated;
create or replace trigger ninefold_10_on_insert before insert on public.task for each row execute function app.task__on_insert();
-- Update bookkeeping and column rules of task.
create or replace function app.task__on_update()
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
    if new.organisation is distinct from old.organisation then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'task', 'field', 'organisation')::text;
    end if;
    if new.project is distinct from old.project then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'task', 'field', 'project')::text;
    end if;
    if new.created_by is distinct from old.created_by then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'task', 'field', 'createdBy')::text;
    end if;
    if new.status is distinct from old.status then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'task', 'field', 'status')::text;
    end if;
    if new.done_at is distinct from old.done_at then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'task', 'field', 'doneAt')::text;
    end if;
    if new.title is distinct from old.title and not ((app.has_role((select auth.uid()), 'member') and coalesce(((old.status <> 'done') and ((((old.assignee = (select auth.uid())) or (old.created_by = (select auth.uid()))) or coalesce((old.project in (select _c1.id from public.project _c1 where _c1.id is not null and ((_c1.lead = (select auth.uid()))))), false)) or coalesce((old.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false))), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'task', 'field', 'title')::text;
    end if;
    if new.description is distinct from old.description and not ((app.has_role((select auth.uid()), 'member') and coalesce(((old.status <> 'done') and ((((old.assignee = (select auth.uid())) or (old.created_by = (select auth.uid()))) or coalesce((old.project in (select _c1.id from public.project _c1 where _c1.id is not null and ((_c1.lead = (select auth.uid()))))), false)) or coalesce((old.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false))), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'task', 'field', 'description')::text;
    end if;
    if new.assignee is distinct from old.assignee and not ((app.has_role((select auth.uid()), 'member') and coalesce(((old.status <> 'done') and ((((old.assignee = (select auth.uid())) or (old.created_by = (select auth.uid()))) or coalesce((old.project in (select _c1.id from public.project _c1 where _c1.id is not null and ((_c1.lead = (select auth.uid()))))), false)) or coalesce((old.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false))), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'task', 'field', 'assignee')::text;
    end if;
    if new.due_date is distinct from old.due_date and not ((app.has_role((select auth.uid()), 'member') and coalesce(((old.status <> 'done') and ((((old.assignee = (select auth.uid())) or (old.created_by = (select auth.uid()))) or coalesce((old.project in (select _c1.id from public.project _c1 where _c1.id is not null and ((_c1.lead = (select auth.uid()))))), false)) or coalesce((old.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false))), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'task', 'field', 'dueDate')::text;
    end if;
    if new.priority is distinct from old.priority and not ((app.has_role((select auth.uid()), 'member') and coalesce(((old.status <> 'done') and ((((old.assignee = (select auth.uid())) or (old.created_by = (select auth.uid()))) or coalesce((old.project in (select _c1.id from public.project _c1 where _c1.id is not null and ((_c1.lead = (select auth.uid()))))), false)) or coalesce((old.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false))), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'task', 'field', 'priority')::text;
    end if;
    if new.estimate_hours is distinct from old.estimate_hours and not ((app.has_role((select auth.uid()), 'member') and coalesce(((old.status <> 'done') and ((((old.assignee = (select auth.uid())) or (old.created_by = (select auth.uid()))) or coalesce((old.project in (select _c1.id from public.project _c1 where _c1.id is not null and ((_c1.lead = (select auth.uid()))))), false)) or coalesce((old.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false))), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'task', 'field', 'estimateHours')::text;
    end if;
    if new.organisation is not null and new.organisation is distinct from old.organisation and not exists (select 1 from public.organisation x where x.id = new.organisation) then
      raise exception using errcode = '23503', constraint = 'task__organisation__fk',
        message = 'insert or update on table "task" violates foreign key constraint "task__organisation__fk"',
        detail = 'Key (organisation) is not present in table "organisation".';
    end if;
    if new.project is not null and new.project is distinct from old.project and not exists (select 1 from public.project x where x.id = new.project) then
      raise exception using errcode = '23503', constraint = 'task__project__fk',
        message = 'insert or update on table "task" violates foreign key constraint "task__project__fk"',
        detail = 'Key (project) is not present in table "project".';
    end if;
    if new.assignee is not null and new.assignee is distinct from old.assignee and not exists (select 1 from public.person x where x.id = new.assignee) then
      raise exception using errcode = '23503', constraint = 'task__assignee__fk',
        message = 'insert or update on table "task" violates foreign key constraint "task__assignee__fk"',
        detail = 'Key (assignee) is not present in table "person".';
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.task__on_update() from public, anon, authenticated;
create or replace trigger ninefold_20_on_update before update on public.task for each row execute function app.task__on_update();

-- Computed fields of task: organisation.
create or replace function app.task__computed()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  v_only text := coalesce(current_setting('ninefold.recompute_only', true), '');
  v_all boolean := split_part(v_only, ':', 1) is distinct from 'task';
begin
  if v_all or position(',organisation,' in v_only) > 0 then
    new.organisation := (select _h1.organisation from public.project _h1 where _h1.id = new.project);
  end if;
  return new;
end;
$fn$;
revoke execute on function app.task__computed() from public, anon, authenticated;
create or replace trigger ninefold_25_computed before insert or update on public.task for each row execute function app.task__computed();

-- Computed fields reading task, recomputed when it changes: timeEntry.organisation (through task).
create or replace function app.task__recompute_dependents()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  v_flag text := coalesce(current_setting('ninefold.in_transition', true), '');
  v_only text := coalesce(current_setting('ninefold.recompute_only', true), '');
begin
  perform set_config('ninefold.in_transition', 'on', true);
  if new.organisation is distinct from old.organisation then
    perform set_config('ninefold.recompute_only', 'time_entry:,organisation,', true);
    update public.time_entry x set organisation = x.organisation, currency = x.currency, rate = x.rate, billable_amount = x.billable_amount where x.task = new.id;
    perform set_config('ninefold.recompute_only', v_only, true);
  end if;
  perform set_config('ninefold.in_transition', v_flag, true);
  return null;
end;
$fn$;
revoke execute on function app.task__recompute_dependents() from public, anon, authenticated;
create or replace trigger ninefold_38_recompute after update of organisation on public.task for each row when (new.organisation is distinct from old.organisation) execute function app.task__recompute_dependents();

-- Locks the groups of task that rules read, before the write (see emitGroupLocks.ts).
create or replace function app.task__lock_groups()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  if tg_op = 'INSERT' or (tg_op = 'UPDATE' and old.project is distinct from new.project) then
    perform 1 from public.project p where p.id = new.project for key share;
  end if;
  if tg_op = 'INSERT' then
    perform app.lock_group_shared('task.project', (new.project)::text);
  elsif tg_op = 'DELETE' then
    if exists (select 1 from public.project p where p.id = old.project) then
      perform app.lock_group_shared('task.project', (old.project)::text);
    end if;
  else
    perform app.lock_group_shared('task.project', (least(old.project::text, new.project::text))::text);
    if old.project is distinct from new.project then
      perform app.lock_group_shared('task.project', (greatest(old.project::text, new.project::text))::text);
    end if;
  end if;
  if tg_op = 'UPDATE' and (old.status is distinct from new.status) then
    perform app.lock_group('timeEntry.task', (new.id)::text);
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.task__lock_groups() from public, anon, authenticated;
create or replace trigger ninefold_05_lock_groups before insert or update or delete on public.task for each row execute function app.task__lock_groups();

-- The state a new timeEntry starts in (its initialWhen rules, then logged).
create or replace function app.time_entry__initial_state(p_row public.time_entry)
returns text
language plpgsql stable security definer
set search_path = ''
as $fn$
declare
  r public.time_entry := p_row;
begin
  r.status := null;
  r.organisation := (select _h1.organisation from public.task _h1 where _h1.id = r.task);
  r.currency := (select _h1.currency from public.organisation _h1 where _h1.id = r.organisation);
  r.rate := round((coalesce((select sum(_s1.hourly_rate) from public.rate _s1 where ((_s1.organisation = r.organisation) and (_s1.person = r.person))), 0))::numeric, (case upper(r.currency) when 'BHD' then 3 when 'BIF' then 0 when 'CLF' then 4 when 'CLP' then 0 when 'DJF' then 0 when 'GNF' then 0 when 'IQD' then 3 when 'ISK' then 0 when 'JOD' then 3 when 'JPY' then 0 when 'KMF' then 0 when 'KRW' then 0 when 'KWD' then 3 when 'LYD' then 3 when 'OMR' then 3 when 'PYG' then 0 when 'RWF' then 0 when 'TND' then 3 when 'UGX' then 0 when 'UYI' then 0 when 'UYW' then 4 when 'VND' then 0 when 'VUV' then 0 when 'XAF' then 0 when 'XOF' then 0 when 'XPF' then 0 else 2 end));
  r.billable_amount := round((((r.hours)::numeric * r.rate))::numeric, (case upper(r.currency) when 'BHD' then 3 when 'BIF' then 0 when 'CLF' then 4 when 'CLP' then 0 when 'DJF' then 0 when 'GNF' then 0 when 'IQD' then 3 when 'ISK' then 0 when 'JOD' then 3 when 'JPY' then 0 when 'KMF' then 0 when 'KRW' then 0 when 'KWD' then 3 when 'LYD' then 3 when 'OMR' then 3 when 'PYG' then 0 when 'RWF' then 0 when 'TND' then 3 when 'UGX' then 0 when 'UYI' then 0 when 'UYW' then 4 when 'VND' then 0 when 'VUV' then 0 when 'XAF' then 0 when 'XOF' then 0 when 'XPF' then 0 else 2 end));
  return case
    when coalesce(((r.hours <= 1) and ((select count(*) from public.rate _c1 where ((_c1.organisation = r.organisation) and (_c1.person = r.person))) >= 1)), false) then 'approved'
    else 'logged'
  end;
end;
$fn$;
revoke execute on function app.time_entry__initial_state(public.time_entry) from public, anon, authenticated;
grant execute on function app.time_entry__initial_state(public.time_entry) to authenticated;
-- Insert bookkeeping of timeEntry.
create or replace function app.time_entry__on_insert()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  new.created_at := now();
  new.updated_at := new.created_at;
  new.version := 1;
  if current_user in ('anon', 'authenticated') then
    new.person := (select auth.uid());
    new.status := app.time_entry__initial_state(new);
    if new.organisation is not null and not exists (select 1 from public.organisation x where x.id = new.organisation) then
      raise exception using errcode = '23503', constraint = 'time_entry__organisation__fk',
        message = 'insert or update on table "time_entry" violates foreign key constraint "time_entry__organisation__fk"',
        detail = 'Key (organisation) is not present in table "organisation".';
    end if;
    if new.task is not null and not exists (select 1 from public.task x where x.id = new.task) then
      raise exception using errcode = '23503', constraint = 'time_entry__task__fk',
        message = 'insert or update on table "time_entry" violates foreign key constraint "time_entry__task__fk"',
        detail = 'Key (task) is not present in table "task".';
    end if;
    if new.approved_by is not null and not exists (select 1 from public.person x where x.id = new.approved_by) then
      raise exception using errcode = '23503', constraint = 'time_entry__approved_by__fk',
        message = 'insert or update on table "time_entry" violates foreign key constraint "time_entry__approved_by__fk"',
        detail = 'Key (approved_by) is not present in table "person".';
    end if;
    if new.organisation is not null then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'timeEntry', 'field', 'organisation')::text;
    end if;
    if new.currency is not null then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'timeEntry', 'field', 'currency')::text;
    end if;
    if new.rate is not null then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'timeEntry', 'field', 'rate')::text;
    end if;
    if new.billable_amount is not null then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'timeEntry', 'field', 'billableAmount')::text;
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.time_entry__on_insert() from public, anon, authenticated;
create or replace trigger ninefold_10_on_insert before insert on public.time_entry for each row execute function app.time_entry__on_insert();
-- Update bookkeeping and column rules of timeEntry.
create or replace function app.time_entry__on_update()
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
    if new.organisation is distinct from old.organisation then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'timeEntry', 'field', 'organisation')::text;
    end if;
    if new.task is distinct from old.task then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'timeEntry', 'field', 'task')::text;
    end if;
    if new.person is distinct from old.person then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'timeEntry', 'field', 'person')::text;
    end if;
    if new.status is distinct from old.status then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'timeEntry', 'field', 'status')::text;
    end if;
    if new.currency is distinct from old.currency then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'timeEntry', 'field', 'currency')::text;
    end if;
    if new.rate is distinct from old.rate then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'timeEntry', 'field', 'rate')::text;
    end if;
    if new.billable_amount is distinct from old.billable_amount then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'timeEntry', 'field', 'billableAmount')::text;
    end if;
    if new.approved_by is distinct from old.approved_by then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'timeEntry', 'field', 'approvedBy')::text;
    end if;
    if new.approved_at is distinct from old.approved_at then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'timeEntry', 'field', 'approvedAt')::text;
    end if;
    if new.date is distinct from old.date and not ((app.has_role((select auth.uid()), 'member') and coalesce(((old.person = (select auth.uid())) and (old.status = 'logged')), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'timeEntry', 'field', 'date')::text;
    end if;
    if new.hours is distinct from old.hours and not ((app.has_role((select auth.uid()), 'member') and coalesce(((old.person = (select auth.uid())) and (old.status = 'logged')), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'timeEntry', 'field', 'hours')::text;
    end if;
    if new.note is distinct from old.note and not ((app.has_role((select auth.uid()), 'member') and coalesce(((old.person = (select auth.uid())) and (old.status = 'logged')), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'timeEntry', 'field', 'note')::text;
    end if;
    if new.organisation is not null and new.organisation is distinct from old.organisation and not exists (select 1 from public.organisation x where x.id = new.organisation) then
      raise exception using errcode = '23503', constraint = 'time_entry__organisation__fk',
        message = 'insert or update on table "time_entry" violates foreign key constraint "time_entry__organisation__fk"',
        detail = 'Key (organisation) is not present in table "organisation".';
    end if;
    if new.task is not null and new.task is distinct from old.task and not exists (select 1 from public.task x where x.id = new.task) then
      raise exception using errcode = '23503', constraint = 'time_entry__task__fk',
        message = 'insert or update on table "time_entry" violates foreign key constraint "time_entry__task__fk"',
        detail = 'Key (task) is not present in table "task".';
    end if;
    if new.approved_by is not null and new.approved_by is distinct from old.approved_by and not exists (select 1 from public.person x where x.id = new.approved_by) then
      raise exception using errcode = '23503', constraint = 'time_entry__approved_by__fk',
        message = 'insert or update on table "time_entry" violates foreign key constraint "time_entry__approved_by__fk"',
        detail = 'Key (approved_by) is not present in table "person".';
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.time_entry__on_update() from public, anon, authenticated;
create or replace trigger ninefold_20_on_update before update on public.time_entry for each row execute function app.time_entry__on_update();

-- Computed fields of timeEntry: organisation, currency, rate, billableAmount.
create or replace function app.time_entry__computed()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  v_only text := coalesce(current_setting('ninefold.recompute_only', true), '');
  v_all boolean := split_part(v_only, ':', 1) is distinct from 'time_entry';
begin
  if v_all or position(',organisation,' in v_only) > 0 then
    new.organisation := (select _h1.organisation from public.task _h1 where _h1.id = new.task);
  end if;
  if v_all or position(',currency,' in v_only) > 0 then
    new.currency := (select _h1.currency from public.organisation _h1 where _h1.id = new.organisation);
  end if;
  if v_all or position(',rate,' in v_only) > 0 then
    new.rate := round((coalesce((select sum(_s1.hourly_rate) from public.rate _s1 where ((_s1.organisation = new.organisation) and (_s1.person = new.person))), 0))::numeric, (case upper(new.currency) when 'BHD' then 3 when 'BIF' then 0 when 'CLF' then 4 when 'CLP' then 0 when 'DJF' then 0 when 'GNF' then 0 when 'IQD' then 3 when 'ISK' then 0 when 'JOD' then 3 when 'JPY' then 0 when 'KMF' then 0 when 'KRW' then 0 when 'KWD' then 3 when 'LYD' then 3 when 'OMR' then 3 when 'PYG' then 0 when 'RWF' then 0 when 'TND' then 3 when 'UGX' then 0 when 'UYI' then 0 when 'UYW' then 4 when 'VND' then 0 when 'VUV' then 0 when 'XAF' then 0 when 'XOF' then 0 when 'XPF' then 0 else 2 end));
  elsif position(',~rate,' in v_only) > 0 then
    new.rate := round((new.rate)::numeric, (case upper(new.currency) when 'BHD' then 3 when 'BIF' then 0 when 'CLF' then 4 when 'CLP' then 0 when 'DJF' then 0 when 'GNF' then 0 when 'IQD' then 3 when 'ISK' then 0 when 'JOD' then 3 when 'JPY' then 0 when 'KMF' then 0 when 'KRW' then 0 when 'KWD' then 3 when 'LYD' then 3 when 'OMR' then 3 when 'PYG' then 0 when 'RWF' then 0 when 'TND' then 3 when 'UGX' then 0 when 'UYI' then 0 when 'UYW' then 4 when 'VND' then 0 when 'VUV' then 0 when 'XAF' then 0 when 'XOF' then 0 when 'XPF' then 0 else 2 end));
  end if;
  if v_all or position(',billable_amount,' in v_only) > 0 then
    new.billable_amount := round((((new.hours)::numeric * new.rate))::numeric, (case upper(new.currency) when 'BHD' then 3 when 'BIF' then 0 when 'CLF' then 4 when 'CLP' then 0 when 'DJF' then 0 when 'GNF' then 0 when 'IQD' then 3 when 'ISK' then 0 when 'JOD' then 3 when 'JPY' then 0 when 'KMF' then 0 when 'KRW' then 0 when 'KWD' then 3 when 'LYD' then 3 when 'OMR' then 3 when 'PYG' then 0 when 'RWF' then 0 when 'TND' then 3 when 'UGX' then 0 when 'UYI' then 0 when 'UYW' then 4 when 'VND' then 0 when 'VUV' then 0 when 'XAF' then 0 when 'XOF' then 0 when 'XPF' then 0 else 2 end));
  elsif position(',~billable_amount,' in v_only) > 0 then
    new.billable_amount := round((new.billable_amount)::numeric, (case upper(new.currency) when 'BHD' then 3 when 'BIF' then 0 when 'CLF' then 4 when 'CLP' then 0 when 'DJF' then 0 when 'GNF' then 0 when 'IQD' then 3 when 'ISK' then 0 when 'JOD' then 3 when 'JPY' then 0 when 'KMF' then 0 when 'KRW' then 0 when 'KWD' then 3 when 'LYD' then 3 when 'OMR' then 3 when 'PYG' then 0 when 'RWF' then 0 when 'TND' then 3 when 'UGX' then 0 when 'UYI' then 0 when 'UYW' then 4 when 'VND' then 0 when 'VUV' then 0 when 'XAF' then 0 when 'XOF' then 0 when 'XPF' then 0 else 2 end));
  end if;
  return new;
end;
$fn$;
revoke execute on function app.time_entry__computed() from public, anon, authenticated;
create or replace trigger ninefold_25_computed before insert or update on public.time_entry for each row execute function app.time_entry__computed();

-- Locks the groups of timeEntry that rules read, before the write (see emitGroupLocks.ts).
create or replace function app.time_entry__lock_groups()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  if tg_op = 'INSERT' or (tg_op = 'UPDATE' and old.organisation is distinct from new.organisation) then
    perform 1 from public.organisation p where p.id = new.organisation for key share;
  end if;
  if tg_op = 'INSERT' or (tg_op = 'UPDATE' and old.person is distinct from new.person) then
    perform 1 from public.person p where p.id = new.person for key share;
  end if;
  if tg_op = 'INSERT' or (tg_op = 'UPDATE' and old.task is distinct from new.task) then
    perform 1 from public.task p where p.id = new.task for key share;
  end if;
  if tg_op = 'INSERT' then
    perform app.lock_group('timeEntry.person', (new.person)::text);
  elsif tg_op = 'DELETE' then
    if exists (select 1 from public.person p where p.id = old.person) then
      perform app.lock_group('timeEntry.person', (old.person)::text);
    end if;
  elsif old.date is distinct from new.date or old.hours is distinct from new.hours or old.person is distinct from new.person or old.status is distinct from new.status then
    perform app.lock_group('timeEntry.person', (least(old.person::text, new.person::text))::text);
    if old.person is distinct from new.person then
      perform app.lock_group('timeEntry.person', (greatest(old.person::text, new.person::text))::text);
    end if;
  end if;
  if tg_op = 'INSERT' then
    perform app.lock_group_shared('timeEntry.organisation', (new.organisation)::text);
  elsif tg_op = 'DELETE' then
    if exists (select 1 from public.organisation p where p.id = old.organisation) then
      perform app.lock_group_shared('timeEntry.organisation', (old.organisation)::text);
    end if;
  else
    perform app.lock_group_shared('timeEntry.organisation', (least(old.organisation::text, new.organisation::text))::text);
    if old.organisation is distinct from new.organisation then
      perform app.lock_group_shared('timeEntry.organisation', (greatest(old.organisation::text, new.organisation::text))::text);
    end if;
  end if;
  if tg_op = 'INSERT' then
    perform app.lock_group_shared('timeEntry.task', (new.task)::text);
  elsif tg_op = 'DELETE' then
    if exists (select 1 from public.task p where p.id = old.task) then
      perform app.lock_group_shared('timeEntry.task', (old.task)::text);
    end if;
  else
    perform app.lock_group_shared('timeEntry.task', (least(old.task::text, new.task::text))::text);
    if old.task is distinct from new.task then
      perform app.lock_group_shared('timeEntry.task', (greatest(old.task::text, new.task::text))::text);
    end if;
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.time_entry__lock_groups() from public, anon, authenticated;
create or replace trigger ninefold_05_lock_groups before insert or update or delete on public.time_entry for each row execute function app.time_entry__lock_groups();

-- ======================================================================
-- Validation beyond the row
-- ======================================================================

-- Write permissions of organisation that read other rows, checked again under the group locks.
create or replace function app.organisation__recheck_permission()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  if current_user in ('anon', 'authenticated') then
    if tg_op = 'UPDATE' and not (((select app.has_role((select auth.uid()), 'member')) and coalesce(((new.owner = (select auth.uid())) or coalesce((new.id in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false)), false)) or ((select app.has_role((select auth.uid()), 'admin')) and coalesce(((new.owner = (select auth.uid())) or coalesce((new.id in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false)), false))) then
      raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'organisation', 'action', 'update')::text;
    end if;
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.organisation__recheck_permission() from public, anon, authenticated;
create or replace trigger ninefold_35_recheck_permission before insert or update or delete on public.organisation for each row execute function app.organisation__recheck_permission();

-- membership: whether a row counts in a rule's count for the current writer (it may read or owns it).
create or replace function app.membership__counted_for_writer(p_row public.membership)
returns boolean
language sql stable security definer
set search_path = ''
as $fn$
select coalesce(
  coalesce(current_setting('role', true), 'none') not in ('anon', 'authenticated')
  or (((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['member', 'admin']::text[]))) and coalesce((((p_row.person = (select auth.uid())) or ((select _h1_p_row.owner from public.organisation _h1_p_row where _h1_p_row.id = p_row.organisation) = (select auth.uid()))) or coalesce((p_row.organisation in (select _c2_p_row.organisation from public.membership _c2_p_row where _c2_p_row.organisation is not null and ((_c2_p_row.person = (select auth.uid()))) and ((_c2_p_row.role in ('owner', 'admin', 'member'))))), false)), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))) or coalesce(((p_row.person = (select auth.uid())) or coalesce((p_row.organisation in (select _c1_p_row.organisation from public.membership _c1_p_row where _c1_p_row.organisation is not null and ((_c1_p_row.person = (select auth.uid()))) and ((_c1_p_row.role in ('owner', 'admin', 'member'))))), false)), false) or coalesce((p_row.person = (select auth.uid())), false) or coalesce((p_row.person = (select auth.uid())), false)), false);
$fn$;
revoke execute on function app.membership__counted_for_writer(public.membership) from public, anon, authenticated;

-- Write permissions of membership that read other rows, checked again under the group locks.
create or replace function app.membership__recheck_permission()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  if current_user in ('anon', 'authenticated') then
    if tg_op = 'INSERT' and not (((select app.has_role((select auth.uid()), 'member')) and coalesce((((select _h1.owner from public.organisation _h1 where _h1.id = new.organisation) = (select auth.uid())) or coalesce((new.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false)), false)) or ((select app.has_role((select auth.uid()), 'admin')) and coalesce((((select _h1.owner from public.organisation _h1 where _h1.id = new.organisation) = (select auth.uid())) or coalesce((new.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false)), false))) then
      raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'membership', 'action', 'create')::text;
    end if;
    if tg_op = 'UPDATE' and not (((select app.has_role((select auth.uid()), 'member')) and coalesce(((((select _h1.owner from public.organisation _h1 where _h1.id = new.organisation) = (select auth.uid())) or coalesce((new.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner'))))), false)) or (coalesce((new.organisation in (select _c3.organisation from public.membership _c3 where _c3.organisation is not null and ((_c3.person = (select auth.uid()))) and ((_c3.role in ('owner', 'admin'))))), false) and (new.role <> 'owner'))), false)) or ((select app.has_role((select auth.uid()), 'admin')) and coalesce(((((select _h1.owner from public.organisation _h1 where _h1.id = new.organisation) = (select auth.uid())) or coalesce((new.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner'))))), false)) or (coalesce((new.organisation in (select _c3.organisation from public.membership _c3 where _c3.organisation is not null and ((_c3.person = (select auth.uid()))) and ((_c3.role in ('owner', 'admin'))))), false) and (new.role <> 'owner'))), false))) then
      raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'membership', 'action', 'update')::text;
    end if;
    if tg_op = 'DELETE' and exists (select 1 from public.organisation p where p.id = old.organisation) and not (((select app.has_role((select auth.uid()), 'member')) and coalesce(((((old.person = (select auth.uid())) or ((select _h1.owner from public.organisation _h1 where _h1.id = old.organisation) = (select auth.uid()))) or coalesce((old.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner'))))), false)) or (coalesce((old.organisation in (select _c3.organisation from public.membership _c3 where _c3.organisation is not null and ((_c3.person = (select auth.uid()))) and ((_c3.role in ('owner', 'admin'))))), false) and (old.role <> 'owner'))), false)) or ((select app.has_role((select auth.uid()), 'admin')) and coalesce(((((old.person = (select auth.uid())) or ((select _h1.owner from public.organisation _h1 where _h1.id = old.organisation) = (select auth.uid()))) or coalesce((old.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner'))))), false)) or (coalesce((old.organisation in (select _c3.organisation from public.membership _c3 where _c3.organisation is not null and ((_c3.person = (select auth.uid()))) and ((_c3.role in ('owner', 'admin'))))), false) and (old.role <> 'owner'))), false))) then
      raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'membership', 'action', 'delete')::text;
    end if;
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.membership__recheck_permission() from public, anon, authenticated;
create or replace trigger ninefold_35_recheck_permission before insert or update or delete on public.membership for each row execute function app.membership__recheck_permission();

-- Validation of rate that reads beyond the row (raises the rule's catalogue code).
create or replace function app.rate__validate()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  perform app.lock_group('membership.organisation', (new.organisation)::text);
  if not (coalesce(((select count(*) from public.membership _c1 where (((_c1.organisation = new.organisation) and (_c1.person = new.person))) and app.membership__counted_for_writer(_c1)) >= 1), false)) then
    raise exception using errcode = 'P0001', message = 'NOT_A_MEMBER', detail = jsonb_build_object('entity', 'rate', 'field', 'person')::text;
  end if;
  return null;
end;
$fn$;
revoke execute on function app.rate__validate() from public, anon, authenticated;
create or replace trigger ninefold_30_validate after insert or update on public.rate for each row execute function app.rate__validate();

-- Write permissions of rate that read other rows, checked again under the group locks.
create or replace function app.rate__recheck_permission()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  if current_user in ('anon', 'authenticated') then
    if tg_op = 'INSERT' and not (((select app.has_role((select auth.uid()), 'member')) and coalesce((((select _h1.owner from public.organisation _h1 where _h1.id = new.organisation) = (select auth.uid())) or coalesce((new.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false)), false))) then
      raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'rate', 'action', 'create')::text;
    end if;
    if tg_op = 'UPDATE' and not (((select app.has_role((select auth.uid()), 'member')) and coalesce((((select _h1.owner from public.organisation _h1 where _h1.id = new.organisation) = (select auth.uid())) or coalesce((new.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false)), false))) then
      raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'rate', 'action', 'update')::text;
    end if;
    if tg_op = 'DELETE' and exists (select 1 from public.organisation p where p.id = old.organisation) and not (((select app.has_role((select auth.uid()), 'member')) and coalesce((((select _h1.owner from public.organisation _h1 where _h1.id = old.organisation) = (select auth.uid())) or coalesce((old.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false)), false))) then
      raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'rate', 'action', 'delete')::text;
    end if;
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.rate__recheck_permission() from public, anon, authenticated;
create or replace trigger ninefold_35_recheck_permission before insert or update or delete on public.rate for each row execute function app.rate__recheck_permission();

-- Validation of project that reads beyond the row (raises the rule's catalogue code).
create or replace function app.project__validate()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  perform app.lock_group('membership.organisation', (new.organisation)::text);
  if not (not coalesce((not (new.lead is null)), false) or coalesce(((select count(*) from public.membership _c1 where (((_c1.organisation = new.organisation) and (_c1.person = new.lead))) and app.membership__counted_for_writer(_c1)) >= 1), false)) then
    raise exception using errcode = 'P0001', message = 'LEAD_NOT_A_MEMBER', detail = jsonb_build_object('entity', 'project', 'field', 'lead')::text;
  end if;
  return null;
end;
$fn$;
revoke execute on function app.project__validate() from public, anon, authenticated;
create or replace trigger ninefold_30_validate after insert or update on public.project for each row execute function app.project__validate();

-- Write permissions of project that read other rows, checked again under the group locks.
create or replace function app.project__recheck_permission()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  if current_user in ('anon', 'authenticated') then
    if tg_op = 'INSERT' and not (((select app.has_role((select auth.uid()), 'member')) and coalesce(coalesce((new.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false), false))) then
      raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'project', 'action', 'create')::text;
    end if;
    if tg_op = 'UPDATE' and not (((select app.has_role((select auth.uid()), 'member')) and coalesce(coalesce((new.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false), false)) or coalesce((((not ((select auth.uid()) is null)) and (not (new.lead is null))) and (new.lead = (select auth.uid()))), false)) then
      raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'project', 'action', 'update')::text;
    end if;
    if tg_op = 'DELETE' and not (((select app.has_role((select auth.uid()), 'member')) and coalesce(coalesce((old.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false), false))) then
      raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'project', 'action', 'delete')::text;
    end if;
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.project__recheck_permission() from public, anon, authenticated;
create or replace trigger ninefold_35_recheck_permission before insert or update or delete on public.project for each row execute function app.project__recheck_permission();

-- Validation of task that reads beyond the row (raises the rule's catalogue code).
create or replace function app.task__validate()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  perform app.lock_group('membership.organisation', (new.organisation)::text);
  if (tg_op = 'INSERT' or new.project is distinct from old.project) and not (not coalesce((new.status <> 'done'), false) or coalesce(((select _h1.archived from public.project _h1 where _h1.id = new.project) = false), false)) then
    raise exception using errcode = 'P0001', message = 'PROJECT_ARCHIVED', detail = jsonb_build_object('entity', 'task', 'field', 'project')::text;
  end if;
  if not (not coalesce((not (new.assignee is null)), false) or coalesce(((select count(*) from public.membership _c1 where (((_c1.organisation = new.organisation) and (_c1.person = new.assignee))) and app.membership__counted_for_writer(_c1)) >= 1), false)) then
    raise exception using errcode = 'P0001', message = 'ASSIGNEE_NOT_A_MEMBER', detail = jsonb_build_object('entity', 'task', 'field', 'assignee')::text;
  end if;
  if (tg_op = 'INSERT' or new.due_date is distinct from old.due_date) and not (not coalesce((not (new.due_date is null)), false) or coalesce((((new.due_date)::timestamp at time zone 'utc') <= ((((now() at time zone 'utc')::date)::timestamp at time zone 'utc') + ((365)::double precision * interval '86400 seconds'))), false)) then
    raise exception using errcode = 'P0001', message = 'DUE_TOO_FAR', detail = jsonb_build_object('entity', 'task', 'field', 'dueDate')::text;
  end if;
  return null;
end;
$fn$;
revoke execute on function app.task__validate() from public, anon, authenticated;
create or replace trigger ninefold_30_validate after insert or update on public.task for each row execute function app.task__validate();

-- Write permissions of task that read other rows, checked again under the group locks.
create or replace function app.task__recheck_permission()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  if current_user in ('anon', 'authenticated') then
    if tg_op = 'INSERT' and not (((select app.has_role((select auth.uid()), 'member')) and coalesce(coalesce((new.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin', 'member'))))), false), false))) then
      raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'task', 'action', 'create')::text;
    end if;
    if tg_op = 'UPDATE' and not (((select app.has_role((select auth.uid()), 'member')) and coalesce(((new.status <> 'done') and ((((new.assignee = (select auth.uid())) or (new.created_by = (select auth.uid()))) or coalesce((new.project in (select _c1.id from public.project _c1 where _c1.id is not null and ((_c1.lead = (select auth.uid()))))), false)) or coalesce((new.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false))), false))) then
      raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'task', 'action', 'update')::text;
    end if;
    if tg_op = 'DELETE' and not (((select app.has_role((select auth.uid()), 'member')) and coalesce((((old.created_by = (select auth.uid())) and (old.status = 'open')) or coalesce((old.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false)), false))) then
      raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'task', 'action', 'delete')::text;
    end if;
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.task__recheck_permission() from public, anon, authenticated;
create or replace trigger ninefold_35_recheck_permission before insert or update or delete on public.task for each row execute function app.task__recheck_permission();

-- timeEntry: whether a row counts in a rule's count for the current writer (it may read or owns it).
create or replace function app.time_entry__counted_for_writer(p_row public.time_entry)
returns boolean
language sql stable security definer
set search_path = ''
as $fn$
select coalesce(
  coalesce(current_setting('role', true), 'none') not in ('anon', 'authenticated')
  or p_row.person = (select auth.uid())
  or (((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['member', 'admin']::text[]))) and coalesce(((p_row.person = (select auth.uid())) or coalesce((p_row.organisation in (select _c1_p_row.organisation from public.membership _c1_p_row where _c1_p_row.organisation is not null and ((_c1_p_row.person = (select auth.uid()))) and ((_c1_p_row.role in ('owner', 'admin', 'member'))))), false)), false)) or coalesce(coalesce((p_row.organisation in (select _c1_p_row.organisation from public.membership _c1_p_row where _c1_p_row.organisation is not null and ((_c1_p_row.person = (select auth.uid()))) and ((_c1_p_row.role in ('owner', 'admin', 'member'))))), false), false) or coalesce(coalesce((p_row.organisation in (select _c1_p_row.organisation from public.membership _c1_p_row where _c1_p_row.organisation is not null and ((_c1_p_row.person = (select auth.uid()))) and ((_c1_p_row.role in ('owner', 'admin'))))), false), false)), false);
$fn$;
revoke execute on function app.time_entry__counted_for_writer(public.time_entry) from public, anon, authenticated;

-- Validation of timeEntry that reads beyond the row (raises the rule's catalogue code).
create or replace function app.time_entry__validate()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  perform app.lock_group('timeEntry.person', (new.person)::text);
  if (tg_op = 'INSERT' or new.date is distinct from old.date) and not (coalesce((new.date <= (((now()) at time zone ((select _h1.time_zone from public.organisation _h1 where _h1.id = new.organisation))))::date), false)) then
    raise exception using errcode = 'P0001', message = 'DAY_IN_FUTURE', detail = jsonb_build_object('entity', 'timeEntry', 'field', 'date')::text;
  end if;
  if (tg_op = 'INSERT' or new.date is distinct from old.date) and not (coalesce((((new.date)::timestamp at time zone 'utc') >= ((((now() at time zone 'utc')::date)::timestamp at time zone 'utc') - ((31)::double precision * interval '86400 seconds'))), false)) then
    raise exception using errcode = 'P0001', message = 'DAY_TOO_OLD', detail = jsonb_build_object('entity', 'timeEntry', 'field', 'date')::text;
  end if;
  if not (coalesce((coalesce((select sum(_s1.hours) from public.time_entry _s1 where (((_s1.person = new.person) and (_s1.date = new.date)) and (_s1.status <> 'rejected'))), 0) <= 12), false)) then
    raise exception using errcode = 'P0001', message = 'DAY_FULL', detail = jsonb_build_object('entity', 'timeEntry', 'field', 'hours', 'logged', coalesce((select sum(_s1.hours) from public.time_entry _s1 where ((((_s1.person = new.person) and (_s1.date = new.date)) and (_s1.status <> 'rejected'))) and ((_s1.id = new.id or app.time_entry__counted_for_writer(_s1)))), 0), 'day', new.date)::text;
  end if;
  if (tg_op = 'INSERT' or new.task is distinct from old.task) and not (coalesce(((select _h1.status from public.task _h1 where _h1.id = new.task) <> 'done'), false)) then
    raise exception using errcode = 'P0001', message = 'TASK_DONE', detail = jsonb_build_object('entity', 'timeEntry', 'field', 'task')::text;
  end if;
  return null;
end;
$fn$;
revoke execute on function app.time_entry__validate() from public, anon, authenticated;
create or replace trigger ninefold_30_validate after insert or update on public.time_entry for each row execute function app.time_entry__validate();

-- Write permissions of timeEntry that read other rows, checked again under the group locks.
create or replace function app.time_entry__recheck_permission()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  if current_user in ('anon', 'authenticated') then
    if tg_op = 'INSERT' and not (((select app.has_role((select auth.uid()), 'member')) and coalesce(((new.person = (select auth.uid())) and coalesce((new.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin', 'member'))))), false)), false))) then
      raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'timeEntry', 'action', 'create')::text;
    end if;
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.time_entry__recheck_permission() from public, anon, authenticated;
create or replace trigger ninefold_35_recheck_permission before insert or update or delete on public.time_entry for each row execute function app.time_entry__recheck_permission();

-- ======================================================================
-- History
-- ======================================================================

create table if not exists public.task_history (
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
alter table public.task_history add column if not exists kind text not null default 'transition';
alter table public.task_history add column if not exists previous jsonb not null default '{}'::jsonb;
create index if not exists task_history__row_id__idx on public.task_history (row_id, at);
alter table public.task_history enable row level security;
alter table public.task_history force row level security;
drop policy if exists task_history__read on public.task_history;
create policy task_history__read on public.task_history as permissive for select to authenticated using (exists (select 1 from public.task x where x.id = task_history.row_id and x.created_at <= task_history.at));
-- History of task is append-only.
create or replace function app.task_history__append_only()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  raise exception using errcode = 'P0001', message = 'APPEND_ONLY', detail = jsonb_build_object('table', 'task_history')::text;
end;
$fn$;
revoke execute on function app.task_history__append_only() from public, anon, authenticated;
create or replace trigger ninefold_append_only before update or delete on public.task_history for each row execute function app.task_history__append_only();

create table if not exists public.time_entry_history (
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
alter table public.time_entry_history add column if not exists kind text not null default 'transition';
alter table public.time_entry_history add column if not exists previous jsonb not null default '{}'::jsonb;
create index if not exists time_entry_history__row_id__idx on public.time_entry_history (row_id, at);
alter table public.time_entry_history enable row level security;
alter table public.time_entry_history force row level security;
drop policy if exists time_entry_history__read on public.time_entry_history;
create policy time_entry_history__read on public.time_entry_history as permissive for select to authenticated using (exists (select 1 from public.time_entry x where x.id = time_entry_history.row_id and x.created_at <= time_entry_history.at));
-- History of timeEntry is append-only.
create or replace function app.time_entry_history__append_only()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  raise exception using errcode = 'P0001', message = 'APPEND_ONLY', detail = jsonb_build_object('table', 'time_entry_history')::text;
end;
$fn$;
revoke execute on function app.time_entry_history__append_only() from public, anon, authenticated;
create or replace trigger ninefold_append_only before update or delete on public.time_entry_history for each row execute function app.time_entry_history__append_only();

-- History of task: edits of project, title, assignee, dueDate.
create or replace function app.task__audit()
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
  if new.project is distinct from old.project then v := v || jsonb_build_object('project', to_jsonb(new.project)); p := p || jsonb_build_object('project', to_jsonb(old.project)); end if;
  if new.title is distinct from old.title then v := v || jsonb_build_object('title', to_jsonb(new.title)); p := p || jsonb_build_object('title', to_jsonb(old.title)); end if;
  if new.assignee is distinct from old.assignee then v := v || jsonb_build_object('assignee', to_jsonb(new.assignee)); p := p || jsonb_build_object('assignee', to_jsonb(old.assignee)); end if;
  if new.due_date is distinct from old.due_date then v := v || jsonb_build_object('dueDate', to_jsonb(new.due_date)); p := p || jsonb_build_object('dueDate', to_jsonb(old.due_date)); end if;
  if v <> '{}'::jsonb then
    insert into public.task_history (row_id, kind, transition, from_state, to_state, actor, input, previous)
    values (new.id, 'edit', '', old.status, new.status, (select auth.uid()), v, p);
  end if;
  return null;
end;
$fn$;
revoke execute on function app.task__audit() from public, anon, authenticated;

create or replace trigger ninefold_audit after update on public.task for each row execute function app.task__audit();

-- ======================================================================
-- Transitions
-- ======================================================================

-- Transition task.start: open -> in_progress (member).
create or replace function public.task_start(p_id uuid, p_version integer default null, p_input jsonb default '{}'::jsonb)
returns public.task
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  r public.task;
  v_from text;
begin
  select * into r from public.task x where x.id = p_id for no key update;
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['member', 'admin']::text[]))) and coalesce(coalesce((r.organisation in (select _c1_r.organisation from public.membership _c1_r where _c1_r.organisation is not null and ((_c1_r.person = (select auth.uid()))) and ((_c1_r.role in ('owner', 'admin', 'member'))))), false), false)) or coalesce(coalesce((r.organisation in (select _c1_r.organisation from public.membership _c1_r where _c1_r.organisation is not null and ((_c1_r.person = (select auth.uid()))) and ((_c1_r.role in ('owner', 'admin', 'member'))))), false), false), false) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'task', 'id', p_id)::text;
  end if;
  if not (app.has_role((select auth.uid()), 'member')) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'task', 'action', 'start')::text;
  end if;
  if p_version is not null and r.version <> p_version then
    raise exception using errcode = 'P0001', message = 'CONFLICT', detail = jsonb_build_object('entity', 'task', 'id', p_id, 'version', p_version, 'current', r.version)::text;
  end if;
  v_from := r.status;
  if v_from is null or v_from not in ('open') then
    raise exception using errcode = 'P0001', message = 'INVALID_TRANSITION', detail = jsonb_build_object('entity', 'task', 'transition', 'start', 'from', v_from)::text;
  end if;
  perform app.lock_group('timeEntry.task', (r.id)::text);
  select * into r from public.task x where x.id = p_id;
  if not coalesce((r.assignee = (select auth.uid())), false) then
    raise exception using errcode = 'P0001', message = 'NOT_ASSIGNEE', detail = jsonb_build_object('entity', 'task', 'action', 'start')::text;
  end if;
  perform set_config('ninefold.in_transition', 'on', true);
  begin
    update public.task x set
      status = 'in_progress'
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
  insert into public.task_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'start', v_from, 'in_progress', (select auth.uid()), '{}'::jsonb);
  return r;
end;
$fn$;
revoke execute on function public.task_start(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.task_start(uuid, integer, jsonb) to authenticated;

-- Transition task.stop: in_progress -> open (member).
create or replace function public.task_stop(p_id uuid, p_version integer default null, p_input jsonb default '{}'::jsonb)
returns public.task
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  r public.task;
  v_from text;
begin
  select * into r from public.task x where x.id = p_id for no key update;
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['member', 'admin']::text[]))) and coalesce(coalesce((r.organisation in (select _c1_r.organisation from public.membership _c1_r where _c1_r.organisation is not null and ((_c1_r.person = (select auth.uid()))) and ((_c1_r.role in ('owner', 'admin', 'member'))))), false), false)) or coalesce(coalesce((r.organisation in (select _c1_r.organisation from public.membership _c1_r where _c1_r.organisation is not null and ((_c1_r.person = (select auth.uid()))) and ((_c1_r.role in ('owner', 'admin', 'member'))))), false), false), false) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'task', 'id', p_id)::text;
  end if;
  if not (app.has_role((select auth.uid()), 'member')) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'task', 'action', 'stop')::text;
  end if;
  if p_version is not null and r.version <> p_version then
    raise exception using errcode = 'P0001', message = 'CONFLICT', detail = jsonb_build_object('entity', 'task', 'id', p_id, 'version', p_version, 'current', r.version)::text;
  end if;
  v_from := r.status;
  if v_from is null or v_from not in ('in_progress') then
    raise exception using errcode = 'P0001', message = 'INVALID_TRANSITION', detail = jsonb_build_object('entity', 'task', 'transition', 'stop', 'from', v_from)::text;
  end if;
  perform app.lock_group('timeEntry.task', (r.id)::text);
  select * into r from public.task x where x.id = p_id;
  if not coalesce((r.assignee = (select auth.uid())), false) then
    raise exception using errcode = 'P0001', message = 'NOT_ASSIGNEE', detail = jsonb_build_object('entity', 'task', 'action', 'stop')::text;
  end if;
  perform set_config('ninefold.in_transition', 'on', true);
  begin
    update public.task x set
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
  insert into public.task_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'stop', v_from, 'open', (select auth.uid()), '{}'::jsonb);
  return r;
end;
$fn$;
revoke execute on function public.task_stop(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.task_stop(uuid, integer, jsonb) to authenticated;

-- Transition task.finish: open, in_progress, overdue -> done (orgMember).
create or replace function public.task_finish(p_id uuid, p_version integer default null, p_input jsonb default '{}'::jsonb)
returns public.task
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  r public.task;
  v_from text;
begin
  select * into r from public.task x where x.id = p_id for no key update;
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['member', 'admin']::text[]))) and coalesce(coalesce((r.organisation in (select _c1_r.organisation from public.membership _c1_r where _c1_r.organisation is not null and ((_c1_r.person = (select auth.uid()))) and ((_c1_r.role in ('owner', 'admin', 'member'))))), false), false)) or coalesce(coalesce((r.organisation in (select _c1_r.organisation from public.membership _c1_r where _c1_r.organisation is not null and ((_c1_r.person = (select auth.uid()))) and ((_c1_r.role in ('owner', 'admin', 'member'))))), false), false), false) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'task', 'id', p_id)::text;
  end if;
  if not (coalesce(coalesce((r.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin', 'member'))))), false), false)) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'task', 'action', 'finish')::text;
  end if;
  if p_version is not null and r.version <> p_version then
    raise exception using errcode = 'P0001', message = 'CONFLICT', detail = jsonb_build_object('entity', 'task', 'id', p_id, 'version', p_version, 'current', r.version)::text;
  end if;
  v_from := r.status;
  if v_from is null or v_from not in ('open', 'in_progress', 'overdue') then
    raise exception using errcode = 'P0001', message = 'INVALID_TRANSITION', detail = jsonb_build_object('entity', 'task', 'transition', 'finish', 'from', v_from)::text;
  end if;
  perform app.lock_group('membership.organisation', (r.organisation)::text);
  perform app.lock_group('timeEntry.task', (r.id)::text);
  perform app.lock_group('project.id', (r.project)::text);
  select * into r from public.task x where x.id = p_id;
  if not coalesce((((r.assignee = (select auth.uid())) or coalesce((r.project in (select _c1.id from public.project _c1 where _c1.id is not null and ((_c1.lead = (select auth.uid()))))), false)) or coalesce((r.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false)), false) then
    raise exception using errcode = 'P0001', message = 'NOT_YOUR_TASK', detail = jsonb_build_object('entity', 'task', 'action', 'finish')::text;
  end if;
  perform set_config('ninefold.in_transition', 'on', true);
  begin
    update public.task x set
      done_at = now(),
      status = 'done'
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
  insert into public.task_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'finish', v_from, 'done', (select auth.uid()), '{}'::jsonb);
  return r;
end;
$fn$;
revoke execute on function public.task_finish(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.task_finish(uuid, integer, jsonb) to authenticated;

-- Transition task.reopen: done -> open (orgMember).
create or replace function public.task_reopen(p_id uuid, p_version integer default null, p_input jsonb default '{}'::jsonb)
returns public.task
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  r public.task;
  v_from text;
begin
  select * into r from public.task x where x.id = p_id for no key update;
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['member', 'admin']::text[]))) and coalesce(coalesce((r.organisation in (select _c1_r.organisation from public.membership _c1_r where _c1_r.organisation is not null and ((_c1_r.person = (select auth.uid()))) and ((_c1_r.role in ('owner', 'admin', 'member'))))), false), false)) or coalesce(coalesce((r.organisation in (select _c1_r.organisation from public.membership _c1_r where _c1_r.organisation is not null and ((_c1_r.person = (select auth.uid()))) and ((_c1_r.role in ('owner', 'admin', 'member'))))), false), false), false) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'task', 'id', p_id)::text;
  end if;
  if not (coalesce(coalesce((r.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin', 'member'))))), false), false)) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'task', 'action', 'reopen')::text;
  end if;
  if p_version is not null and r.version <> p_version then
    raise exception using errcode = 'P0001', message = 'CONFLICT', detail = jsonb_build_object('entity', 'task', 'id', p_id, 'version', p_version, 'current', r.version)::text;
  end if;
  v_from := r.status;
  if v_from is null or v_from not in ('done') then
    raise exception using errcode = 'P0001', message = 'INVALID_TRANSITION', detail = jsonb_build_object('entity', 'task', 'transition', 'reopen', 'from', v_from)::text;
  end if;
  perform app.lock_group('membership.organisation', (r.organisation)::text);
  perform app.lock_group('timeEntry.task', (r.id)::text);
  perform app.lock_group('project.id', (r.project)::text);
  select * into r from public.task x where x.id = p_id;
  if not coalesce((coalesce((r.project in (select _c1.id from public.project _c1 where _c1.id is not null and ((_c1.lead = (select auth.uid()))))), false) or coalesce((r.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false)), false) then
    raise exception using errcode = 'P0001', message = 'NOT_LEAD', detail = jsonb_build_object('entity', 'task', 'action', 'reopen')::text;
  end if;
  perform set_config('ninefold.in_transition', 'on', true);
  begin
    update public.task x set
      done_at = null,
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
  insert into public.task_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'reopen', v_from, 'open', (select auth.uid()), '{}'::jsonb);
  return r;
end;
$fn$;
revoke execute on function public.task_reopen(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.task_reopen(uuid, integer, jsonb) to authenticated;

-- Transition task.markOverdue: open, in_progress -> overdue ().
create or replace function public.task_mark_overdue(p_id uuid, p_version integer default null, p_input jsonb default '{}'::jsonb)
returns public.task
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  r public.task;
  v_from text;
begin
  select * into r from public.task x where x.id = p_id for no key update;
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['member', 'admin']::text[]))) and coalesce(coalesce((r.organisation in (select _c1_r.organisation from public.membership _c1_r where _c1_r.organisation is not null and ((_c1_r.person = (select auth.uid()))) and ((_c1_r.role in ('owner', 'admin', 'member'))))), false), false)) or coalesce(coalesce((r.organisation in (select _c1_r.organisation from public.membership _c1_r where _c1_r.organisation is not null and ((_c1_r.person = (select auth.uid()))) and ((_c1_r.role in ('owner', 'admin', 'member'))))), false), false), false) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'task', 'id', p_id)::text;
  end if;
  if not (false) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'task', 'action', 'markOverdue')::text;
  end if;
  if p_version is not null and r.version <> p_version then
    raise exception using errcode = 'P0001', message = 'CONFLICT', detail = jsonb_build_object('entity', 'task', 'id', p_id, 'version', p_version, 'current', r.version)::text;
  end if;
  v_from := r.status;
  if v_from is null or v_from not in ('open', 'in_progress') then
    raise exception using errcode = 'P0001', message = 'INVALID_TRANSITION', detail = jsonb_build_object('entity', 'task', 'transition', 'markOverdue', 'from', v_from)::text;
  end if;
  perform app.lock_group('timeEntry.task', (r.id)::text);
  select * into r from public.task x where x.id = p_id;
  perform set_config('ninefold.in_transition', 'on', true);
  begin
    update public.task x set
      status = 'overdue'
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
  insert into public.task_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'markOverdue', v_from, 'overdue', (select auth.uid()), '{}'::jsonb);
  return r;
end;
$fn$;
revoke execute on function public.task_mark_overdue(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.task_mark_overdue(uuid, integer, jsonb) to authenticated;

-- Transition task.reschedule: overdue -> open (orgMember).
create or replace function public.task_reschedule(p_id uuid, p_version integer default null, p_input jsonb default '{}'::jsonb)
returns public.task
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  r public.task;
  v_from text;
begin
  select * into r from public.task x where x.id = p_id for no key update;
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['member', 'admin']::text[]))) and coalesce(coalesce((r.organisation in (select _c1_r.organisation from public.membership _c1_r where _c1_r.organisation is not null and ((_c1_r.person = (select auth.uid()))) and ((_c1_r.role in ('owner', 'admin', 'member'))))), false), false)) or coalesce(coalesce((r.organisation in (select _c1_r.organisation from public.membership _c1_r where _c1_r.organisation is not null and ((_c1_r.person = (select auth.uid()))) and ((_c1_r.role in ('owner', 'admin', 'member'))))), false), false), false) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'task', 'id', p_id)::text;
  end if;
  if not (coalesce(coalesce((r.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin', 'member'))))), false), false)) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'task', 'action', 'reschedule')::text;
  end if;
  if p_version is not null and r.version <> p_version then
    raise exception using errcode = 'P0001', message = 'CONFLICT', detail = jsonb_build_object('entity', 'task', 'id', p_id, 'version', p_version, 'current', r.version)::text;
  end if;
  v_from := r.status;
  if v_from is null or v_from not in ('overdue') then
    raise exception using errcode = 'P0001', message = 'INVALID_TRANSITION', detail = jsonb_build_object('entity', 'task', 'transition', 'reschedule', 'from', v_from)::text;
  end if;
  perform app.lock_group('membership.organisation', (r.organisation)::text);
  perform app.lock_group('timeEntry.task', (r.id)::text);
  perform app.lock_group('project.id', (r.project)::text);
  select * into r from public.task x where x.id = p_id;
  if not coalesce((coalesce((r.project in (select _c1.id from public.project _c1 where _c1.id is not null and ((_c1.lead = (select auth.uid()))))), false) or coalesce((r.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false)), false) then
    raise exception using errcode = 'P0001', message = 'NOT_LEAD', detail = jsonb_build_object('entity', 'task', 'action', 'reschedule')::text;
  end if;
  if p_input -> 'dueDate' is null or jsonb_typeof(p_input -> 'dueDate') = 'null' or (p_input ->> 'dueDate') = '' then
    raise exception using errcode = 'P0001', message = 'INPUT_REQUIRED', detail = jsonb_build_object('entity', 'task', 'transition', 'reschedule', 'field', 'dueDate')::text;
  end if;
  perform set_config('ninefold.in_transition', 'on', true);
  begin
    update public.task x set
      due_date = (p_input ->> 'dueDate')::date,
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
  insert into public.task_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'reschedule', v_from, 'open', (select auth.uid()), jsonb_build_object('dueDate', p_input -> 'dueDate'));
  return r;
end;
$fn$;
revoke execute on function public.task_reschedule(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.task_reschedule(uuid, integer, jsonb) to authenticated;

-- Transition timeEntry.approve: logged -> approved (orgAdmin).
create or replace function public.time_entry_approve(p_id uuid, p_version integer default null, p_input jsonb default '{}'::jsonb)
returns public.time_entry
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  r public.time_entry;
  v_from text;
begin
  select * into r from public.time_entry x where x.id = p_id for no key update;
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['member', 'admin']::text[]))) and coalesce(((r.person = (select auth.uid())) or coalesce((r.organisation in (select _c1_r.organisation from public.membership _c1_r where _c1_r.organisation is not null and ((_c1_r.person = (select auth.uid()))) and ((_c1_r.role in ('owner', 'admin', 'member'))))), false)), false)) or coalesce(coalesce((r.organisation in (select _c1_r.organisation from public.membership _c1_r where _c1_r.organisation is not null and ((_c1_r.person = (select auth.uid()))) and ((_c1_r.role in ('owner', 'admin', 'member'))))), false), false) or coalesce(coalesce((r.organisation in (select _c1_r.organisation from public.membership _c1_r where _c1_r.organisation is not null and ((_c1_r.person = (select auth.uid()))) and ((_c1_r.role in ('owner', 'admin'))))), false), false), false) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'timeEntry', 'id', p_id)::text;
  end if;
  if not (coalesce(coalesce((r.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false), false)) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'timeEntry', 'action', 'approve')::text;
  end if;
  if p_version is not null and r.version <> p_version then
    raise exception using errcode = 'P0001', message = 'CONFLICT', detail = jsonb_build_object('entity', 'timeEntry', 'id', p_id, 'version', p_version, 'current', r.version)::text;
  end if;
  v_from := r.status;
  if v_from is null or v_from not in ('logged') then
    raise exception using errcode = 'P0001', message = 'INVALID_TRANSITION', detail = jsonb_build_object('entity', 'timeEntry', 'transition', 'approve', 'from', v_from)::text;
  end if;
  if not coalesce((r.person <> (select auth.uid())), false) then
    raise exception using errcode = 'P0001', message = 'SELF_APPROVAL', detail = jsonb_build_object('entity', 'timeEntry', 'action', 'approve')::text;
  end if;
  begin
    update public.time_entry x set
      approved_by = (select auth.uid()),
      approved_at = now(),
      status = 'approved'
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
  insert into public.time_entry_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'approve', v_from, 'approved', (select auth.uid()), '{}'::jsonb);
  r.rate := case when coalesce((((select _h1.owner from public.organisation _h1 where _h1.id = r.organisation) = (select auth.uid())) or coalesce((r.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false)), false) then r.rate end;
  r.billable_amount := case when coalesce((((select _h1.owner from public.organisation _h1 where _h1.id = r.organisation) = (select auth.uid())) or coalesce((r.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false)), false) then r.billable_amount end;
  return r;
end;
$fn$;
revoke execute on function public.time_entry_approve(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.time_entry_approve(uuid, integer, jsonb) to authenticated;

-- Transition timeEntry.reject: logged -> rejected (orgAdmin).
create or replace function public.time_entry_reject(p_id uuid, p_version integer default null, p_input jsonb default '{}'::jsonb)
returns public.time_entry
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  r public.time_entry;
  v_from text;
begin
  select * into r from public.time_entry x where x.id = p_id for no key update;
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['member', 'admin']::text[]))) and coalesce(((r.person = (select auth.uid())) or coalesce((r.organisation in (select _c1_r.organisation from public.membership _c1_r where _c1_r.organisation is not null and ((_c1_r.person = (select auth.uid()))) and ((_c1_r.role in ('owner', 'admin', 'member'))))), false)), false)) or coalesce(coalesce((r.organisation in (select _c1_r.organisation from public.membership _c1_r where _c1_r.organisation is not null and ((_c1_r.person = (select auth.uid()))) and ((_c1_r.role in ('owner', 'admin', 'member'))))), false), false) or coalesce(coalesce((r.organisation in (select _c1_r.organisation from public.membership _c1_r where _c1_r.organisation is not null and ((_c1_r.person = (select auth.uid()))) and ((_c1_r.role in ('owner', 'admin'))))), false), false), false) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'timeEntry', 'id', p_id)::text;
  end if;
  if not (coalesce(coalesce((r.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false), false)) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'timeEntry', 'action', 'reject')::text;
  end if;
  if p_version is not null and r.version <> p_version then
    raise exception using errcode = 'P0001', message = 'CONFLICT', detail = jsonb_build_object('entity', 'timeEntry', 'id', p_id, 'version', p_version, 'current', r.version)::text;
  end if;
  v_from := r.status;
  if v_from is null or v_from not in ('logged') then
    raise exception using errcode = 'P0001', message = 'INVALID_TRANSITION', detail = jsonb_build_object('entity', 'timeEntry', 'transition', 'reject', 'from', v_from)::text;
  end if;
  if not coalesce((r.person <> (select auth.uid())), false) then
    raise exception using errcode = 'P0001', message = 'SELF_APPROVAL', detail = jsonb_build_object('entity', 'timeEntry', 'action', 'reject')::text;
  end if;
  begin
    update public.time_entry x set
      status = 'rejected'
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
  insert into public.time_entry_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'reject', v_from, 'rejected', (select auth.uid()), '{}'::jsonb);
  r.rate := case when coalesce((((select _h1.owner from public.organisation _h1 where _h1.id = r.organisation) = (select auth.uid())) or coalesce((r.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false)), false) then r.rate end;
  r.billable_amount := case when coalesce((((select _h1.owner from public.organisation _h1 where _h1.id = r.organisation) = (select auth.uid())) or coalesce((r.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false)), false) then r.billable_amount end;
  return r;
end;
$fn$;
revoke execute on function public.time_entry_reject(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.time_entry_reject(uuid, integer, jsonb) to authenticated;

-- ======================================================================
-- Transitions by time
-- ======================================================================

-- Transitions of task that happen by time: markOverdue.
create or replace function app.task__run_timed(p_now timestamptz default now())
returns integer
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  r public.task;
  v_from text;
  n integer := 0;
begin
  perform set_config('ninefold.in_transition', 'on', true);
  for r in select * from public.task x
    where x.status in ('open', 'in_progress') and ((date_trunc('day', (((((((((x.due_date)::timestamp at time zone 'utc') + ((1)::double precision * interval '86400 seconds'))) at time zone ('UTC')))::date)::timestamp at time zone ((select _h1.time_zone from public.organisation _h1 where _h1.id = x.organisation))) at time zone ((select _h1.time_zone from public.organisation _h1 where _h1.id = x.organisation)))) at time zone ((select _h1.time_zone from public.organisation _h1 where _h1.id = x.organisation)))) <= p_now
    order by x.id for update skip locked
  loop
    v_from := r.status;
    begin
      update public.task x set
        status = 'overdue'
      where x.id = r.id
      returning x.* into r;
      insert into public.task_history (row_id, transition, from_state, to_state, actor, input)
      values (r.id, 'markOverdue', v_from, 'overdue', null, '{}'::jsonb);
      n := n + 1;
    exception when others then
      raise warning 'ninefold: task.markOverdue of % did not happen: %', r.id, sqlerrm;
    end;
  end loop;
  perform set_config('ninefold.in_transition', '', true);
  return n;
end;
$fn$;
revoke execute on function app.task__run_timed(timestamptz) from public, anon, authenticated;

-- Every transition that happens by time, at p_now; returns how many rows moved.
create or replace function app.run_timed(p_now timestamptz default now())
returns integer
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  return app.task__run_timed(p_now);
end;
$fn$;
revoke execute on function app.run_timed(timestamptz) from public, anon, authenticated;

-- What time has done by now, before a read (the clock is the server's, never the caller's).
create or replace function public.ninefold_run_timed()
returns integer
language sql volatile security definer
set search_path = ''
as $fn$
select app.run_timed(now());
$fn$;
revoke execute on function public.ninefold_run_timed() from public, anon, authenticated;
grant execute on function public.ninefold_run_timed() to authenticated;

-- ======================================================================
-- Row-level security
-- ======================================================================

alter table public.person enable row level security;
alter table public.person force row level security;
drop policy if exists person__member__read on public.person;
create policy person__member__read on public.person as permissive for select to authenticated using (((select app.has_role((select auth.uid()), 'member')) and coalesce(((person.id = (select auth.uid())) or coalesce((person.id in (select _c1.person from public.membership _c1 where _c1.person is not null and ((exists (select 1 from public.membership _c2 where (((_c2.organisation = _c1.organisation) and (_c2.person = (select auth.uid()))) and (_c2.role in ('owner', 'admin', 'member')))))))), false)), false)));
drop policy if exists person__member__update on public.person;
create policy person__member__update on public.person as permissive for update to authenticated using (((select app.has_role((select auth.uid()), 'member')) and coalesce((person.id = (select auth.uid())), false))) with check (((select app.has_role((select auth.uid()), 'member')) and coalesce((person.id = (select auth.uid())), false)));
drop policy if exists person__admin__read on public.person;
create policy person__admin__read on public.person as permissive for select to authenticated using ((select app.has_role((select auth.uid()), 'admin')));
drop policy if exists person__admin__update on public.person;
create policy person__admin__update on public.person as permissive for update to authenticated using ((select app.has_role((select auth.uid()), 'admin'))) with check ((select app.has_role((select auth.uid()), 'admin')));
drop policy if exists person__admin__delete on public.person;
create policy person__admin__delete on public.person as permissive for delete to authenticated using (((select app.has_role((select auth.uid()), 'admin')) and coalesce((person.id <> (select auth.uid())), false)));

alter table public.organisation enable row level security;
alter table public.organisation force row level security;
-- organisation: the scope rows of a relationship role inside its own read policy, read once per statement without RLS (no policy recursion)
create or replace function app.organisation__self_read_1()
returns setof uuid
language sql stable security definer
set search_path = ''
as $fn$
select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin', 'member')));
$fn$;
revoke execute on function app.organisation__self_read_1() from public, anon, authenticated;
grant execute on function app.organisation__self_read_1() to authenticated;
-- organisation: a read inside a write policy that would re-enter the table's policies; a query of its own under the caller's RLS (no policy recursion)
create or replace function app.organisation__policy_read_1(p_row public.organisation)
returns bigint
language sql stable
set search_path = ''
as $fn$
select (select count(*) from public.membership _c1 where (((_c1.organisation = p_row.id) and (_c1.person = (select auth.uid()))) and (_c1.role in ('owner', 'admin'))));
$fn$;
revoke execute on function app.organisation__policy_read_1(public.organisation) from public, anon, authenticated;
grant execute on function app.organisation__policy_read_1(public.organisation) to authenticated;
-- organisation: a read inside a write policy that would re-enter the table's policies; a query of its own under the caller's RLS (no policy recursion)
create or replace function app.organisation__policy_read_2(p_row public.organisation)
returns bigint
language sql stable
set search_path = ''
as $fn$
select (select count(*) from public.membership _c1 where (((_c1.organisation = p_row.id) and (_c1.person = (select auth.uid()))) and (_c1.role in ('owner', 'admin'))));
$fn$;
revoke execute on function app.organisation__policy_read_2(public.organisation) from public, anon, authenticated;
grant execute on function app.organisation__policy_read_2(public.organisation) to authenticated;
drop policy if exists organisation__member__read on public.organisation;
create policy organisation__member__read on public.organisation as permissive for select to authenticated using (((select app.has_role((select auth.uid()), 'member')) and coalesce(((organisation.owner = (select auth.uid())) or coalesce((organisation.id in (select app.organisation__self_read_1())), false)), false)));
drop policy if exists organisation__member__create on public.organisation;
create policy organisation__member__create on public.organisation as permissive for insert to authenticated with check ((select app.has_role((select auth.uid()), 'member')));
drop policy if exists organisation__member__update on public.organisation;
create policy organisation__member__update on public.organisation as permissive for update to authenticated using (((select app.has_role((select auth.uid()), 'member')) and coalesce(((organisation.owner = (select auth.uid())) or (app.organisation__policy_read_1(organisation) >= 1)), false))) with check (((select app.has_role((select auth.uid()), 'member')) and coalesce(((organisation.owner = (select auth.uid())) or (app.organisation__policy_read_1(organisation) >= 1)), false)));
drop policy if exists organisation__member__delete on public.organisation;
create policy organisation__member__delete on public.organisation as permissive for delete to authenticated using (((select app.has_role((select auth.uid()), 'member')) and coalesce((organisation.owner = (select auth.uid())), false)));
drop policy if exists organisation__admin__read on public.organisation;
create policy organisation__admin__read on public.organisation as permissive for select to authenticated using ((select app.has_role((select auth.uid()), 'admin')));
drop policy if exists organisation__admin__create on public.organisation;
create policy organisation__admin__create on public.organisation as permissive for insert to authenticated with check ((select app.has_role((select auth.uid()), 'admin')));
drop policy if exists organisation__admin__update on public.organisation;
create policy organisation__admin__update on public.organisation as permissive for update to authenticated using (((select app.has_role((select auth.uid()), 'admin')) and coalesce(((organisation.owner = (select auth.uid())) or (app.organisation__policy_read_2(organisation) >= 1)), false))) with check (((select app.has_role((select auth.uid()), 'admin')) and coalesce(((organisation.owner = (select auth.uid())) or (app.organisation__policy_read_2(organisation) >= 1)), false)));
drop policy if exists organisation__admin__delete on public.organisation;
create policy organisation__admin__delete on public.organisation as permissive for delete to authenticated using (((select app.has_role((select auth.uid()), 'admin')) and coalesce((organisation.owner = (select auth.uid())), false)));

alter table public.membership enable row level security;
alter table public.membership force row level security;
-- membership: a read inside its own read policy that would re-enter it, without RLS (no policy recursion)
create or replace function app.membership__self_read_1(p_row public.membership)
returns uuid
language sql stable security definer
set search_path = ''
as $fn$
select (select _h1.owner from public.organisation _h1 where _h1.id = p_row.organisation);
$fn$;
revoke execute on function app.membership__self_read_1(public.membership) from public, anon, authenticated;
grant execute on function app.membership__self_read_1(public.membership) to authenticated;
-- membership: the scope rows of a relationship role inside its own read policy, read once per statement without RLS (no policy recursion)
create or replace function app.membership__self_read_2()
returns setof uuid
language sql stable security definer
set search_path = ''
as $fn$
select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin', 'member')));
$fn$;
revoke execute on function app.membership__self_read_2() from public, anon, authenticated;
grant execute on function app.membership__self_read_2() to authenticated;
-- membership: the scope rows of a relationship role inside its own read policy, read once per statement without RLS (no policy recursion)
create or replace function app.membership__self_read_3()
returns setof uuid
language sql stable security definer
set search_path = ''
as $fn$
select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin', 'member')));
$fn$;
revoke execute on function app.membership__self_read_3() from public, anon, authenticated;
grant execute on function app.membership__self_read_3() to authenticated;
-- membership: a read inside a write policy that would re-enter the table's policies; a query of its own under the caller's RLS (no policy recursion)
create or replace function app.membership__policy_read_1(p_row public.membership)
returns uuid
language sql stable
set search_path = ''
as $fn$
select (select _h1.owner from public.organisation _h1 where _h1.id = p_row.organisation);
$fn$;
revoke execute on function app.membership__policy_read_1(public.membership) from public, anon, authenticated;
grant execute on function app.membership__policy_read_1(public.membership) to authenticated;
-- membership: a read inside a write policy that would re-enter the table's policies; a query of its own under the caller's RLS (no policy recursion)
create or replace function app.membership__policy_read_2(p_row public.membership)
returns bigint
language sql stable
set search_path = ''
as $fn$
select (select count(*) from public.membership _c1 where (((_c1.organisation = p_row.organisation) and (_c1.person = (select auth.uid()))) and (_c1.role in ('owner', 'admin'))));
$fn$;
revoke execute on function app.membership__policy_read_2(public.membership) from public, anon, authenticated;
grant execute on function app.membership__policy_read_2(public.membership) to authenticated;
-- membership: a read inside a write policy that would re-enter the table's policies; a query of its own under the caller's RLS (no policy recursion)
create or replace function app.membership__policy_read_3(p_row public.membership)
returns uuid
language sql stable
set search_path = ''
as $fn$
select (select _h1.owner from public.organisation _h1 where _h1.id = p_row.organisation);
$fn$;
revoke execute on function app.membership__policy_read_3(public.membership) from public, anon, authenticated;
grant execute on function app.membership__policy_read_3(public.membership) to authenticated;
-- membership: a read inside a write policy that would re-enter the table's policies; a query of its own under the caller's RLS (no policy recursion)
create or replace function app.membership__policy_read_4(p_row public.membership)
returns bigint
language sql stable
set search_path = ''
as $fn$
select (select count(*) from public.membership _c1 where (((_c1.organisation = p_row.organisation) and (_c1.person = (select auth.uid()))) and (_c1.role in ('owner'))));
$fn$;
revoke execute on function app.membership__policy_read_4(public.membership) from public, anon, authenticated;
grant execute on function app.membership__policy_read_4(public.membership) to authenticated;
-- membership: a read inside a write policy that would re-enter the table's policies; a query of its own under the caller's RLS (no policy recursion)
create or replace function app.membership__policy_read_5(p_row public.membership)
returns uuid
language sql stable
set search_path = ''
as $fn$
select (select _h1.owner from public.organisation _h1 where _h1.id = p_row.organisation);
$fn$;
revoke execute on function app.membership__policy_read_5(public.membership) from public, anon, authenticated;
grant execute on function app.membership__policy_read_5(public.membership) to authenticated;
-- membership: a read inside a write policy that would re-enter the table's policies; a query of its own under the caller's RLS (no policy recursion)
create or replace function app.membership__policy_read_6(p_row public.membership)
returns bigint
language sql stable
set search_path = ''
as $fn$
select (select count(*) from public.membership _c1 where (((_c1.organisation = p_row.organisation) and (_c1.person = (select auth.uid()))) and (_c1.role in ('owner'))));
$fn$;
revoke execute on function app.membership__policy_read_6(public.membership) from public, anon, authenticated;
grant execute on function app.membership__policy_read_6(public.membership) to authenticated;
-- membership: a read inside a write policy that would re-enter the table's policies; a query of its own under the caller's RLS (no policy recursion)
create or replace function app.membership__policy_read_7(p_row public.membership)
returns bigint
language sql stable
set search_path = ''
as $fn$
select (select count(*) from public.membership _c1 where (((_c1.organisation = p_row.organisation) and (_c1.person = (select auth.uid()))) and (_c1.role in ('owner', 'admin'))));
$fn$;
revoke execute on function app.membership__policy_read_7(public.membership) from public, anon, authenticated;
grant execute on function app.membership__policy_read_7(public.membership) to authenticated;
-- membership: a read inside a write policy that would re-enter the table's policies; a query of its own under the caller's RLS (no policy recursion)
create or replace function app.membership__policy_read_8(p_row public.membership)
returns uuid
language sql stable
set search_path = ''
as $fn$
select (select _h1.owner from public.organisation _h1 where _h1.id = p_row.organisation);
$fn$;
revoke execute on function app.membership__policy_read_8(public.membership) from public, anon, authenticated;
grant execute on function app.membership__policy_read_8(public.membership) to authenticated;
-- membership: a read inside a write policy that would re-enter the table's policies; a query of its own under the caller's RLS (no policy recursion)
create or replace function app.membership__policy_read_9(p_row public.membership)
returns bigint
language sql stable
set search_path = ''
as $fn$
select (select count(*) from public.membership _c1 where (((_c1.organisation = p_row.organisation) and (_c1.person = (select auth.uid()))) and (_c1.role in ('owner'))));
$fn$;
revoke execute on function app.membership__policy_read_9(public.membership) from public, anon, authenticated;
grant execute on function app.membership__policy_read_9(public.membership) to authenticated;
-- membership: a read inside a write policy that would re-enter the table's policies; a query of its own under the caller's RLS (no policy recursion)
create or replace function app.membership__policy_read_10(p_row public.membership)
returns uuid
language sql stable
set search_path = ''
as $fn$
select (select _h1.owner from public.organisation _h1 where _h1.id = p_row.organisation);
$fn$;
revoke execute on function app.membership__policy_read_10(public.membership) from public, anon, authenticated;
grant execute on function app.membership__policy_read_10(public.membership) to authenticated;
-- membership: a read inside a write policy that would re-enter the table's policies; a query of its own under the caller's RLS (no policy recursion)
create or replace function app.membership__policy_read_11(p_row public.membership)
returns bigint
language sql stable
set search_path = ''
as $fn$
select (select count(*) from public.membership _c1 where (((_c1.organisation = p_row.organisation) and (_c1.person = (select auth.uid()))) and (_c1.role in ('owner'))));
$fn$;
revoke execute on function app.membership__policy_read_11(public.membership) from public, anon, authenticated;
grant execute on function app.membership__policy_read_11(public.membership) to authenticated;
-- membership: a read inside a write policy that would re-enter the table's policies; a query of its own under the caller's RLS (no policy recursion)
create or replace function app.membership__policy_read_12(p_row public.membership)
returns bigint
language sql stable
set search_path = ''
as $fn$
select (select count(*) from public.membership _c1 where (((_c1.organisation = p_row.organisation) and (_c1.person = (select auth.uid()))) and (_c1.role in ('owner', 'admin'))));
$fn$;
revoke execute on function app.membership__policy_read_12(public.membership) from public, anon, authenticated;
grant execute on function app.membership__policy_read_12(public.membership) to authenticated;
-- membership: a read inside a write policy that would re-enter the table's policies; a query of its own under the caller's RLS (no policy recursion)
create or replace function app.membership__policy_read_13(p_row public.membership)
returns uuid
language sql stable
set search_path = ''
as $fn$
select (select _h1.owner from public.organisation _h1 where _h1.id = p_row.organisation);
$fn$;
revoke execute on function app.membership__policy_read_13(public.membership) from public, anon, authenticated;
grant execute on function app.membership__policy_read_13(public.membership) to authenticated;
-- membership: a read inside a write policy that would re-enter the table's policies; a query of its own under the caller's RLS (no policy recursion)
create or replace function app.membership__policy_read_14(p_row public.membership)
returns bigint
language sql stable
set search_path = ''
as $fn$
select (select count(*) from public.membership _c1 where (((_c1.organisation = p_row.organisation) and (_c1.person = (select auth.uid()))) and (_c1.role in ('owner', 'admin'))));
$fn$;
revoke execute on function app.membership__policy_read_14(public.membership) from public, anon, authenticated;
grant execute on function app.membership__policy_read_14(public.membership) to authenticated;
-- membership: a read inside a write policy that would re-enter the table's policies; a query of its own under the caller's RLS (no policy recursion)
create or replace function app.membership__policy_read_15(p_row public.membership)
returns uuid
language sql stable
set search_path = ''
as $fn$
select (select _h1.owner from public.organisation _h1 where _h1.id = p_row.organisation);
$fn$;
revoke execute on function app.membership__policy_read_15(public.membership) from public, anon, authenticated;
grant execute on function app.membership__policy_read_15(public.membership) to authenticated;
-- membership: a read inside a write policy that would re-enter the table's policies; a query of its own under the caller's RLS (no policy recursion)
create or replace function app.membership__policy_read_16(p_row public.membership)
returns bigint
language sql stable
set search_path = ''
as $fn$
select (select count(*) from public.membership _c1 where (((_c1.organisation = p_row.organisation) and (_c1.person = (select auth.uid()))) and (_c1.role in ('owner'))));
$fn$;
revoke execute on function app.membership__policy_read_16(public.membership) from public, anon, authenticated;
grant execute on function app.membership__policy_read_16(public.membership) to authenticated;
-- membership: a read inside a write policy that would re-enter the table's policies; a query of its own under the caller's RLS (no policy recursion)
create or replace function app.membership__policy_read_17(p_row public.membership)
returns uuid
language sql stable
set search_path = ''
as $fn$
select (select _h1.owner from public.organisation _h1 where _h1.id = p_row.organisation);
$fn$;
revoke execute on function app.membership__policy_read_17(public.membership) from public, anon, authenticated;
grant execute on function app.membership__policy_read_17(public.membership) to authenticated;
-- membership: a read inside a write policy that would re-enter the table's policies; a query of its own under the caller's RLS (no policy recursion)
create or replace function app.membership__policy_read_18(p_row public.membership)
returns bigint
language sql stable
set search_path = ''
as $fn$
select (select count(*) from public.membership _c1 where (((_c1.organisation = p_row.organisation) and (_c1.person = (select auth.uid()))) and (_c1.role in ('owner'))));
$fn$;
revoke execute on function app.membership__policy_read_18(public.membership) from public, anon, authenticated;
grant execute on function app.membership__policy_read_18(public.membership) to authenticated;
-- membership: a read inside a write policy that would re-enter the table's policies; a query of its own under the caller's RLS (no policy recursion)
create or replace function app.membership__policy_read_19(p_row public.membership)
returns bigint
language sql stable
set search_path = ''
as $fn$
select (select count(*) from public.membership _c1 where (((_c1.organisation = p_row.organisation) and (_c1.person = (select auth.uid()))) and (_c1.role in ('owner', 'admin'))));
$fn$;
revoke execute on function app.membership__policy_read_19(public.membership) from public, anon, authenticated;
grant execute on function app.membership__policy_read_19(public.membership) to authenticated;
-- membership: a read inside a write policy that would re-enter the table's policies; a query of its own under the caller's RLS (no policy recursion)
create or replace function app.membership__policy_read_20(p_row public.membership)
returns uuid
language sql stable
set search_path = ''
as $fn$
select (select _h1.owner from public.organisation _h1 where _h1.id = p_row.organisation);
$fn$;
revoke execute on function app.membership__policy_read_20(public.membership) from public, anon, authenticated;
grant execute on function app.membership__policy_read_20(public.membership) to authenticated;
-- membership: a read inside a write policy that would re-enter the table's policies; a query of its own under the caller's RLS (no policy recursion)
create or replace function app.membership__policy_read_21(p_row public.membership)
returns bigint
language sql stable
set search_path = ''
as $fn$
select (select count(*) from public.membership _c1 where (((_c1.organisation = p_row.organisation) and (_c1.person = (select auth.uid()))) and (_c1.role in ('owner'))));
$fn$;
revoke execute on function app.membership__policy_read_21(public.membership) from public, anon, authenticated;
grant execute on function app.membership__policy_read_21(public.membership) to authenticated;
-- membership: a read inside a write policy that would re-enter the table's policies; a query of its own under the caller's RLS (no policy recursion)
create or replace function app.membership__policy_read_22(p_row public.membership)
returns uuid
language sql stable
set search_path = ''
as $fn$
select (select _h1.owner from public.organisation _h1 where _h1.id = p_row.organisation);
$fn$;
revoke execute on function app.membership__policy_read_22(public.membership) from public, anon, authenticated;
grant execute on function app.membership__policy_read_22(public.membership) to authenticated;
-- membership: a read inside a write policy that would re-enter the table's policies; a query of its own under the caller's RLS (no policy recursion)
create or replace function app.membership__policy_read_23(p_row public.membership)
returns bigint
language sql stable
set search_path = ''
as $fn$
select (select count(*) from public.membership _c1 where (((_c1.organisation = p_row.organisation) and (_c1.person = (select auth.uid()))) and (_c1.role in ('owner'))));
$fn$;
revoke execute on function app.membership__policy_read_23(public.membership) from public, anon, authenticated;
grant execute on function app.membership__policy_read_23(public.membership) to authenticated;
-- membership: a read inside a write policy that would re-enter the table's policies; a query of its own under the caller's RLS (no policy recursion)
create or replace function app.membership__policy_read_24(p_row public.membership)
returns bigint
language sql stable
set search_path = ''
as $fn$
select (select count(*) from public.membership _c1 where (((_c1.organisation = p_row.organisation) and (_c1.person = (select auth.uid()))) and (_c1.role in ('owner', 'admin'))));
$fn$;
revoke execute on function app.membership__policy_read_24(public.membership) from public, anon, authenticated;
grant execute on function app.membership__policy_read_24(public.membership) to authenticated;
drop policy if exists membership__member__read on public.membership;
create policy membership__member__read on public.membership as permissive for select to authenticated using (((select app.has_role((select auth.uid()), 'member')) and coalesce((((membership.person = (select auth.uid())) or (app.membership__self_read_1(membership) = (select auth.uid()))) or coalesce((membership.organisation in (select app.membership__self_read_2())), false)), false)));
drop policy if exists membership__member__create on public.membership;
create policy membership__member__create on public.membership as permissive for insert to authenticated with check (((select app.has_role((select auth.uid()), 'member')) and coalesce(((app.membership__policy_read_1(membership) = (select auth.uid())) or (app.membership__policy_read_2(membership) >= 1)), false)) and coalesce((((membership.role <> 'owner') or (app.membership__policy_read_3(membership) = (select auth.uid()))) or (app.membership__policy_read_4(membership) >= 1)), false));
drop policy if exists membership__member__update on public.membership;
create policy membership__member__update on public.membership as permissive for update to authenticated using (((select app.has_role((select auth.uid()), 'member')) and coalesce((((app.membership__policy_read_5(membership) = (select auth.uid())) or (app.membership__policy_read_6(membership) >= 1)) or ((app.membership__policy_read_7(membership) >= 1) and (membership.role <> 'owner'))), false))) with check (((select app.has_role((select auth.uid()), 'member')) and coalesce((((app.membership__policy_read_5(membership) = (select auth.uid())) or (app.membership__policy_read_6(membership) >= 1)) or ((app.membership__policy_read_7(membership) >= 1) and (membership.role <> 'owner'))), false)) and coalesce((((membership.role <> 'owner') or (app.membership__policy_read_8(membership) = (select auth.uid()))) or (app.membership__policy_read_9(membership) >= 1)), false));
drop policy if exists membership__member__delete on public.membership;
create policy membership__member__delete on public.membership as permissive for delete to authenticated using (((select app.has_role((select auth.uid()), 'member')) and coalesce(((((membership.person = (select auth.uid())) or (app.membership__policy_read_10(membership) = (select auth.uid()))) or (app.membership__policy_read_11(membership) >= 1)) or ((app.membership__policy_read_12(membership) >= 1) and (membership.role <> 'owner'))), false)));
drop policy if exists membership__admin__read on public.membership;
create policy membership__admin__read on public.membership as permissive for select to authenticated using ((select app.has_role((select auth.uid()), 'admin')));
drop policy if exists membership__admin__create on public.membership;
create policy membership__admin__create on public.membership as permissive for insert to authenticated with check (((select app.has_role((select auth.uid()), 'admin')) and coalesce(((app.membership__policy_read_13(membership) = (select auth.uid())) or (app.membership__policy_read_14(membership) >= 1)), false)) and coalesce((((membership.role <> 'owner') or (app.membership__policy_read_15(membership) = (select auth.uid()))) or (app.membership__policy_read_16(membership) >= 1)), false));
drop policy if exists membership__admin__update on public.membership;
create policy membership__admin__update on public.membership as permissive for update to authenticated using (((select app.has_role((select auth.uid()), 'admin')) and coalesce((((app.membership__policy_read_17(membership) = (select auth.uid())) or (app.membership__policy_read_18(membership) >= 1)) or ((app.membership__policy_read_19(membership) >= 1) and (membership.role <> 'owner'))), false))) with check (((select app.has_role((select auth.uid()), 'admin')) and coalesce((((app.membership__policy_read_17(membership) = (select auth.uid())) or (app.membership__policy_read_18(membership) >= 1)) or ((app.membership__policy_read_19(membership) >= 1) and (membership.role <> 'owner'))), false)) and coalesce((((membership.role <> 'owner') or (app.membership__policy_read_20(membership) = (select auth.uid()))) or (app.membership__policy_read_21(membership) >= 1)), false));
drop policy if exists membership__admin__delete on public.membership;
create policy membership__admin__delete on public.membership as permissive for delete to authenticated using (((select app.has_role((select auth.uid()), 'admin')) and coalesce(((((membership.person = (select auth.uid())) or (app.membership__policy_read_22(membership) = (select auth.uid()))) or (app.membership__policy_read_23(membership) >= 1)) or ((app.membership__policy_read_24(membership) >= 1) and (membership.role <> 'owner'))), false)));
drop policy if exists "membership__orgMember__read" on public.membership;
create policy "membership__orgMember__read" on public.membership as permissive for select to authenticated using (coalesce(((membership.person = (select auth.uid())) or coalesce((membership.organisation in (select app.membership__self_read_3())), false)), false));
drop policy if exists "membership__orgAdmin__own" on public.membership;
create policy "membership__orgAdmin__own" on public.membership as permissive for select to authenticated using (coalesce((membership.person = (select auth.uid())), false));
drop policy if exists "membership__orgOwner__own" on public.membership;
create policy "membership__orgOwner__own" on public.membership as permissive for select to authenticated using (coalesce((membership.person = (select auth.uid())), false));

alter table public.rate enable row level security;
alter table public.rate force row level security;
drop policy if exists rate__member__read on public.rate;
create policy rate__member__read on public.rate as permissive for select to authenticated using (((select app.has_role((select auth.uid()), 'member')) and coalesce((((select _h1.owner from public.organisation _h1 where _h1.id = rate.organisation) = (select auth.uid())) or coalesce((rate.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false)), false)));
drop policy if exists rate__member__create on public.rate;
create policy rate__member__create on public.rate as permissive for insert to authenticated with check (((select app.has_role((select auth.uid()), 'member')) and coalesce((((select _h1.owner from public.organisation _h1 where _h1.id = rate.organisation) = (select auth.uid())) or coalesce((rate.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false)), false)));
drop policy if exists rate__member__update on public.rate;
create policy rate__member__update on public.rate as permissive for update to authenticated using (((select app.has_role((select auth.uid()), 'member')) and coalesce((((select _h1.owner from public.organisation _h1 where _h1.id = rate.organisation) = (select auth.uid())) or coalesce((rate.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false)), false))) with check (((select app.has_role((select auth.uid()), 'member')) and coalesce((((select _h1.owner from public.organisation _h1 where _h1.id = rate.organisation) = (select auth.uid())) or coalesce((rate.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false)), false)));
drop policy if exists rate__member__delete on public.rate;
create policy rate__member__delete on public.rate as permissive for delete to authenticated using (((select app.has_role((select auth.uid()), 'member')) and coalesce((((select _h1.owner from public.organisation _h1 where _h1.id = rate.organisation) = (select auth.uid())) or coalesce((rate.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false)), false)));

alter table public.project enable row level security;
alter table public.project force row level security;
drop policy if exists project__member__read on public.project;
create policy project__member__read on public.project as permissive for select to authenticated using (((select app.has_role((select auth.uid()), 'member')) and coalesce(coalesce((project.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin', 'member'))))), false), false)));
drop policy if exists project__member__create on public.project;
create policy project__member__create on public.project as permissive for insert to authenticated with check (((select app.has_role((select auth.uid()), 'member')) and coalesce(coalesce((project.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false), false)));
drop policy if exists project__member__update on public.project;
create policy project__member__update on public.project as permissive for update to authenticated using (((select app.has_role((select auth.uid()), 'member')) and coalesce(coalesce((project.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false), false))) with check (((select app.has_role((select auth.uid()), 'member')) and coalesce(coalesce((project.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false), false)));
drop policy if exists project__member__delete on public.project;
create policy project__member__delete on public.project as permissive for delete to authenticated using (((select app.has_role((select auth.uid()), 'member')) and coalesce(coalesce((project.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false), false)));
drop policy if exists "project__orgMember__read" on public.project;
create policy "project__orgMember__read" on public.project as permissive for select to authenticated using (coalesce(coalesce((project.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin', 'member'))))), false), false));
drop policy if exists "project__projectLead__read" on public.project;
create policy "project__projectLead__read" on public.project as permissive for select to authenticated using (coalesce(((project.lead = (select auth.uid())) or (((not ((select auth.uid()) is null)) and (not (project.lead is null))) and (project.lead = (select auth.uid())))), false));
drop policy if exists "project__projectLead__update" on public.project;
create policy "project__projectLead__update" on public.project as permissive for update to authenticated using (coalesce((((not ((select auth.uid()) is null)) and (not (project.lead is null))) and (project.lead = (select auth.uid()))), false)) with check (coalesce((((not ((select auth.uid()) is null)) and (not (project.lead is null))) and (project.lead = (select auth.uid()))), false));

alter table public.task enable row level security;
alter table public.task force row level security;
drop policy if exists task__member__read on public.task;
create policy task__member__read on public.task as permissive for select to authenticated using (((select app.has_role((select auth.uid()), 'member')) and coalesce(coalesce((task.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin', 'member'))))), false), false)));
drop policy if exists task__member__create on public.task;
create policy task__member__create on public.task as permissive for insert to authenticated with check (((select app.has_role((select auth.uid()), 'member')) and coalesce(coalesce((task.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin', 'member'))))), false), false)));
drop policy if exists task__member__update on public.task;
create policy task__member__update on public.task as permissive for update to authenticated using (((select app.has_role((select auth.uid()), 'member')) and coalesce(((task.status <> 'done') and ((((task.assignee = (select auth.uid())) or (task.created_by = (select auth.uid()))) or coalesce((task.project in (select _c1.id from public.project _c1 where _c1.id is not null and ((_c1.lead = (select auth.uid()))))), false)) or coalesce((task.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false))), false))) with check (((select app.has_role((select auth.uid()), 'member')) and coalesce(((task.status <> 'done') and ((((task.assignee = (select auth.uid())) or (task.created_by = (select auth.uid()))) or coalesce((task.project in (select _c1.id from public.project _c1 where _c1.id is not null and ((_c1.lead = (select auth.uid()))))), false)) or coalesce((task.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false))), false)));
drop policy if exists task__member__delete on public.task;
create policy task__member__delete on public.task as permissive for delete to authenticated using (((select app.has_role((select auth.uid()), 'member')) and coalesce((((task.created_by = (select auth.uid())) and (task.status = 'open')) or coalesce((task.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false)), false)));
drop policy if exists "task__orgMember__read" on public.task;
create policy "task__orgMember__read" on public.task as permissive for select to authenticated using (coalesce(coalesce((task.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin', 'member'))))), false), false));

alter table public.time_entry enable row level security;
alter table public.time_entry force row level security;
drop policy if exists time_entry__member__read on public.time_entry;
create policy time_entry__member__read on public.time_entry as permissive for select to authenticated using (((select app.has_role((select auth.uid()), 'member')) and coalesce(((time_entry.person = (select auth.uid())) or coalesce((time_entry.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin', 'member'))))), false)), false)));
drop policy if exists time_entry__member__create on public.time_entry;
create policy time_entry__member__create on public.time_entry as permissive for insert to authenticated with check (((select app.has_role((select auth.uid()), 'member')) and coalesce(((time_entry.person = (select auth.uid())) and coalesce((time_entry.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin', 'member'))))), false)), false)));
drop policy if exists time_entry__member__update on public.time_entry;
create policy time_entry__member__update on public.time_entry as permissive for update to authenticated using (((select app.has_role((select auth.uid()), 'member')) and coalesce(((time_entry.person = (select auth.uid())) and (time_entry.status = 'logged')), false))) with check (((select app.has_role((select auth.uid()), 'member')) and coalesce(((time_entry.person = (select auth.uid())) and (time_entry.status = 'logged')), false)));
drop policy if exists time_entry__member__delete on public.time_entry;
create policy time_entry__member__delete on public.time_entry as permissive for delete to authenticated using (((select app.has_role((select auth.uid()), 'member')) and coalesce(((time_entry.person = (select auth.uid())) and (time_entry.status = 'logged')), false)));
drop policy if exists "time_entry__orgMember__read" on public.time_entry;
create policy "time_entry__orgMember__read" on public.time_entry as permissive for select to authenticated using (coalesce(coalesce((time_entry.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin', 'member'))))), false), false));
drop policy if exists "time_entry__orgAdmin__read" on public.time_entry;
create policy "time_entry__orgAdmin__read" on public.time_entry as permissive for select to authenticated using (coalesce(coalesce((time_entry.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false), false));

-- ======================================================================
-- Search
-- ======================================================================

create index if not exists person__name__trgm_idx on public.person using gin (name extensions.gin_trgm_ops);
create index if not exists person__email__trgm_idx on public.person using gin (email extensions.gin_trgm_ops);
-- Search for person: matching ids the caller may read (a security-definer function, so the trigram indexes apply).
create or replace function app.person__search(p_pattern text, p_limit integer)
returns setof uuid
language plpgsql stable security definer
set search_path = ''
set cpu_operator_cost = 0.05
as $fn$
begin
  return query execute 'select t.id from public.person t where (t.name ilike $1 or t.email ilike $1) and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''member'', ''admin'']::text[]))) and coalesce(((t.id = (select auth.uid())) or coalesce((t.id in (select _c1_t.person from public.membership _c1_t where _c1_t.person is not null and ((exists (select 1 from public.membership _c2_t where (((_c2_t.organisation = _c1_t.organisation) and (_c2_t.person = (select auth.uid()))) and (_c2_t.role in (''owner'', ''admin'', ''member'')))))) and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''member'', ''admin'']::text[]))) and coalesce((((_c1_t.person = (select auth.uid())) or ((select _h1__c1_t.owner from public.organisation _h1__c1_t where _h1__c1_t.id = _c1_t.organisation) = (select auth.uid()))) or coalesce((_c1_t.organisation in (select _c2__c1_t.organisation from public.membership _c2__c1_t where _c2__c1_t.organisation is not null and ((_c2__c1_t.person = (select auth.uid()))) and ((_c2__c1_t.role in (''owner'', ''admin'', ''member''))))), false)), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''admin'']::text[]))) or coalesce(((_c1_t.person = (select auth.uid())) or coalesce((_c1_t.organisation in (select _c1__c1_t.organisation from public.membership _c1__c1_t where _c1__c1_t.organisation is not null and ((_c1__c1_t.person = (select auth.uid()))) and ((_c1__c1_t.role in (''owner'', ''admin'', ''member''))))), false)), false) or coalesce((_c1_t.person = (select auth.uid())), false) or coalesce((_c1_t.person = (select auth.uid())), false), false))), false)), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''admin'']::text[]))), false) limit $2' using p_pattern, p_limit;
end
$fn$;
revoke execute on function app.person__search(text, integer) from public;
grant execute on function app.person__search(text, integer) to authenticated;

create index if not exists organisation__name__trgm_idx on public.organisation using gin (name extensions.gin_trgm_ops);
-- Search for organisation: matching ids the caller may read (a security-definer function, so the trigram indexes apply).
create or replace function app.organisation__search(p_pattern text, p_limit integer)
returns setof uuid
language plpgsql stable security definer
set search_path = ''
set cpu_operator_cost = 0.05
as $fn$
begin
  return query execute 'select t.id from public.organisation t where (t.name ilike $1) and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''member'', ''admin'']::text[]))) and coalesce(((t.owner = (select auth.uid())) or coalesce((t.id in (select _c1_t.organisation from public.membership _c1_t where _c1_t.organisation is not null and ((_c1_t.person = (select auth.uid()))) and ((_c1_t.role in (''owner'', ''admin'', ''member''))))), false)), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''admin'']::text[]))), false) limit $2' using p_pattern, p_limit;
end
$fn$;
revoke execute on function app.organisation__search(text, integer) from public;
grant execute on function app.organisation__search(text, integer) to authenticated;

create index if not exists project__name__trgm_idx on public.project using gin (name extensions.gin_trgm_ops);
create index if not exists project__code__trgm_idx on public.project using gin (code extensions.gin_trgm_ops);
create index if not exists project__description__trgm_idx on public.project using gin (description extensions.gin_trgm_ops);
-- Search for project: matching ids the caller may read (a security-definer function, so the trigram indexes apply).
create or replace function app.project__search(p_pattern text, p_limit integer)
returns setof uuid
language plpgsql stable security definer
set search_path = ''
set cpu_operator_cost = 0.05
as $fn$
begin
  return query execute 'select t.id from public.project t where (t.name ilike $1 or t.code ilike $1 or t.description ilike $1) and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''member'', ''admin'']::text[]))) and coalesce(coalesce((t.organisation in (select _c1_t.organisation from public.membership _c1_t where _c1_t.organisation is not null and ((_c1_t.person = (select auth.uid()))) and ((_c1_t.role in (''owner'', ''admin'', ''member''))))), false), false)) or coalesce(coalesce((t.organisation in (select _c1_t.organisation from public.membership _c1_t where _c1_t.organisation is not null and ((_c1_t.person = (select auth.uid()))) and ((_c1_t.role in (''owner'', ''admin'', ''member''))))), false), false) or coalesce(((t.lead = (select auth.uid())) or (((not ((select auth.uid()) is null)) and (not (t.lead is null))) and (t.lead = (select auth.uid())))), false), false) limit $2' using p_pattern, p_limit;
end
$fn$;
revoke execute on function app.project__search(text, integer) from public;
grant execute on function app.project__search(text, integer) to authenticated;

create index if not exists task__title__trgm_idx on public.task using gin (title extensions.gin_trgm_ops);
create index if not exists task__description__trgm_idx on public.task using gin (description extensions.gin_trgm_ops);
-- Search for task: matching ids the caller may read (a security-definer function, so the trigram indexes apply).
create or replace function app.task__search(p_pattern text, p_limit integer)
returns setof uuid
language plpgsql stable security definer
set search_path = ''
set cpu_operator_cost = 0.05
as $fn$
begin
  return query execute 'select t.id from public.task t where (t.title ilike $1 or t.description ilike $1) and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''member'', ''admin'']::text[]))) and coalesce(coalesce((t.organisation in (select _c1_t.organisation from public.membership _c1_t where _c1_t.organisation is not null and ((_c1_t.person = (select auth.uid()))) and ((_c1_t.role in (''owner'', ''admin'', ''member''))))), false), false)) or coalesce(coalesce((t.organisation in (select _c1_t.organisation from public.membership _c1_t where _c1_t.organisation is not null and ((_c1_t.person = (select auth.uid()))) and ((_c1_t.role in (''owner'', ''admin'', ''member''))))), false), false), false) limit $2' using p_pattern, p_limit;
end
$fn$;
revoke execute on function app.task__search(text, integer) from public;
grant execute on function app.task__search(text, integer) to authenticated;

create index if not exists time_entry__note__trgm_idx on public.time_entry using gin (note extensions.gin_trgm_ops);
-- Search for timeEntry: matching ids the caller may read (a security-definer function, so the trigram indexes apply).
create or replace function app.time_entry__search(p_pattern text, p_limit integer)
returns setof uuid
language plpgsql stable security definer
set search_path = ''
set cpu_operator_cost = 0.05
as $fn$
begin
  return query execute 'select t.id from public.time_entry t where (t.note ilike $1) and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''member'', ''admin'']::text[]))) and coalesce(((t.person = (select auth.uid())) or coalesce((t.organisation in (select _c1_t.organisation from public.membership _c1_t where _c1_t.organisation is not null and ((_c1_t.person = (select auth.uid()))) and ((_c1_t.role in (''owner'', ''admin'', ''member''))))), false)), false)) or coalesce(coalesce((t.organisation in (select _c1_t.organisation from public.membership _c1_t where _c1_t.organisation is not null and ((_c1_t.person = (select auth.uid()))) and ((_c1_t.role in (''owner'', ''admin'', ''member''))))), false), false) or coalesce(coalesce((t.organisation in (select _c1_t.organisation from public.membership _c1_t where _c1_t.organisation is not null and ((_c1_t.person = (select auth.uid()))) and ((_c1_t.role in (''owner'', ''admin''))))), false), false), false) limit $2' using p_pattern, p_limit;
end
$fn$;
revoke execute on function app.time_entry__search(text, integer) from public;
grant execute on function app.time_entry__search(text, integer) to authenticated;

-- ======================================================================
-- Privileges
-- ======================================================================

revoke all on table public.person from anon, authenticated;
grant select on table public.person to authenticated;
grant update (name, email) on table public.person to authenticated;
grant delete on table public.person to authenticated;

revoke all on table public.organisation from anon, authenticated;
grant select on table public.organisation to authenticated;
grant insert (name, time_zone, workday_start_hour, workday_end_hour, currency) on table public.organisation to authenticated;
grant update (name, time_zone, workday_start_hour, workday_end_hour, currency) on table public.organisation to authenticated;
grant delete on table public.organisation to authenticated;

revoke all on table public.membership from anon, authenticated;
grant select on table public.membership to authenticated;
grant insert (organisation, person, role) on table public.membership to authenticated;
grant update (role) on table public.membership to authenticated;
grant delete on table public.membership to authenticated;

revoke all on table public.rate from anon, authenticated;
grant select on table public.rate to authenticated;
grant insert (organisation, person, hourly_rate, currency) on table public.rate to authenticated;
grant update (hourly_rate) on table public.rate to authenticated;
grant delete on table public.rate to authenticated;

revoke all on table public.project from anon, authenticated;
grant select on table public.project to authenticated;
grant insert (organisation, name, code, description, lead, archived) on table public.project to authenticated;
grant update (name, code, description, lead, archived) on table public.project to authenticated;
grant delete on table public.project to authenticated;

revoke all on table public.task from anon, authenticated;
grant select on table public.task to authenticated;
grant insert (organisation, project, title, description, assignee, due_date, priority, estimate_hours) on table public.task to authenticated;
grant update (title, description, assignee, due_date, priority, estimate_hours) on table public.task to authenticated;
grant delete on table public.task to authenticated;
revoke all on table public.task_history from anon, authenticated;
grant select on table public.task_history to authenticated;

revoke all on table public.time_entry from anon, authenticated;
grant select (id, created_at, updated_at, version, organisation, task, person, date, hours, note, status, currency, approved_by, approved_at) on table public.time_entry to authenticated;
grant insert (organisation, task, date, hours, note, currency, rate, billable_amount) on table public.time_entry to authenticated;
grant update (date, hours, note) on table public.time_entry to authenticated;
grant delete on table public.time_entry to authenticated;
revoke all on table public.time_entry_history from anon, authenticated;
grant select on table public.time_entry_history to authenticated;

-- ======================================================================
-- Per-field reads
-- ======================================================================

-- timeEntry.rate where the caller may read it (organisation.owner = me or me is orgAdmin), else null.
create or replace function app.time_entry__read_rate(p_id uuid)
returns numeric
language sql stable security definer
set search_path = ''
as $fn$
select case when coalesce((((select _h1.owner from public.organisation _h1 where _h1.id = t.organisation) = (select auth.uid())) or coalesce((t.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false)), false) then t.rate end from public.time_entry t where t.id = p_id and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['member', 'admin']::text[]))) and coalesce(((t.person = (select auth.uid())) or coalesce((t.organisation in (select _c1_t.organisation from public.membership _c1_t where _c1_t.organisation is not null and ((_c1_t.person = (select auth.uid()))) and ((_c1_t.role in ('owner', 'admin', 'member'))))), false)), false)) or coalesce(coalesce((t.organisation in (select _c1_t.organisation from public.membership _c1_t where _c1_t.organisation is not null and ((_c1_t.person = (select auth.uid()))) and ((_c1_t.role in ('owner', 'admin', 'member'))))), false), false) or coalesce(coalesce((t.organisation in (select _c1_t.organisation from public.membership _c1_t where _c1_t.organisation is not null and ((_c1_t.person = (select auth.uid()))) and ((_c1_t.role in ('owner', 'admin'))))), false), false), false)
$fn$;
revoke execute on function app.time_entry__read_rate(uuid) from public, anon, authenticated;
grant execute on function app.time_entry__read_rate(uuid) to authenticated;
-- timeEntry.billableAmount where the caller may read it (organisation.owner = me or me is orgAdmin), else null.
create or replace function app.time_entry__read_billable_amount(p_id uuid)
returns numeric
language sql stable security definer
set search_path = ''
as $fn$
select case when coalesce((((select _h1.owner from public.organisation _h1 where _h1.id = t.organisation) = (select auth.uid())) or coalesce((t.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false)), false) then t.billable_amount end from public.time_entry t where t.id = p_id and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['member', 'admin']::text[]))) and coalesce(((t.person = (select auth.uid())) or coalesce((t.organisation in (select _c1_t.organisation from public.membership _c1_t where _c1_t.organisation is not null and ((_c1_t.person = (select auth.uid()))) and ((_c1_t.role in ('owner', 'admin', 'member'))))), false)), false)) or coalesce(coalesce((t.organisation in (select _c1_t.organisation from public.membership _c1_t where _c1_t.organisation is not null and ((_c1_t.person = (select auth.uid()))) and ((_c1_t.role in ('owner', 'admin', 'member'))))), false), false) or coalesce(coalesce((t.organisation in (select _c1_t.organisation from public.membership _c1_t where _c1_t.organisation is not null and ((_c1_t.person = (select auth.uid()))) and ((_c1_t.role in ('owner', 'admin'))))), false), false), false)
$fn$;
revoke execute on function app.time_entry__read_billable_amount(uuid) from public, anon, authenticated;
grant execute on function app.time_entry__read_billable_amount(uuid) to authenticated;
-- The read-restricted fields of timeEntry the caller may not read on the row (shown as hidden, not empty).
create or replace function app.time_entry__hidden_fields(p_id uuid)
returns text[]
language sql stable security definer
set search_path = ''
as $fn$
select array_remove(array[case when not coalesce((((select _h1.owner from public.organisation _h1 where _h1.id = t.organisation) = (select auth.uid())) or coalesce((t.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false)), false) then 'rate' end, case when not coalesce((((select _h1.owner from public.organisation _h1 where _h1.id = t.organisation) = (select auth.uid())) or coalesce((t.organisation in (select _c2.organisation from public.membership _c2 where _c2.organisation is not null and ((_c2.person = (select auth.uid()))) and ((_c2.role in ('owner', 'admin'))))), false)), false) then 'billableAmount' end]::text[], null) from public.time_entry t where t.id = p_id and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['member', 'admin']::text[]))) and coalesce(((t.person = (select auth.uid())) or coalesce((t.organisation in (select _c1_t.organisation from public.membership _c1_t where _c1_t.organisation is not null and ((_c1_t.person = (select auth.uid()))) and ((_c1_t.role in ('owner', 'admin', 'member'))))), false)), false)) or coalesce(coalesce((t.organisation in (select _c1_t.organisation from public.membership _c1_t where _c1_t.organisation is not null and ((_c1_t.person = (select auth.uid()))) and ((_c1_t.role in ('owner', 'admin', 'member'))))), false), false) or coalesce(coalesce((t.organisation in (select _c1_t.organisation from public.membership _c1_t where _c1_t.organisation is not null and ((_c1_t.person = (select auth.uid()))) and ((_c1_t.role in ('owner', 'admin'))))), false), false), false)
$fn$;
revoke execute on function app.time_entry__hidden_fields(uuid) from public, anon, authenticated;
grant execute on function app.time_entry__hidden_fields(uuid) to authenticated;
-- What clients read of timeEntry: every column, the read-restricted ones masked.
create or replace view public.time_entry__readable with (security_invoker = true) as select t.id, t.created_at, t.updated_at, t.version, t.organisation, t.task, t.person, t.date, t.hours, t.note, t.status, t.currency, app.time_entry__read_rate(t.id) as rate, app.time_entry__read_billable_amount(t.id) as billable_amount, t.approved_by, t.approved_at, app.time_entry__hidden_fields(t.id) as ninefold_hidden from public.time_entry t;
revoke all on table public.time_entry__readable from anon, authenticated;
grant select on table public.time_entry__readable to authenticated;

-- ======================================================================
-- Screen filters
-- ======================================================================

-- Screen dashboard: the rows of task it lists (assignee = me).
create or replace function public.task__where_dashboard(p_row public.task)
returns boolean
language sql stable
as $fn$
select (p_row.assignee = (select auth.uid()))
$fn$;
revoke execute on function public.task__where_dashboard(public.task) from public, anon, authenticated;
grant execute on function public.task__where_dashboard(public.task) to authenticated;

-- Screen myTasks: the rows of task it lists (assignee = me and status != done).
create or replace function public.task__where_my_tasks(p_row public.task)
returns boolean
language sql stable
as $fn$
select ((p_row.assignee = (select auth.uid())) and (p_row.status <> 'done'))
$fn$;
revoke execute on function public.task__where_my_tasks(public.task) from public, anon, authenticated;
grant execute on function public.task__where_my_tasks(public.task) to authenticated;

-- Screen overdue: the rows of task it lists (status = overdue).
create or replace function public.task__where_overdue(p_row public.task)
returns boolean
language sql stable
as $fn$
select (p_row.status = 'overdue')
$fn$;
revoke execute on function public.task__where_overdue(public.task) from public, anon, authenticated;
grant execute on function public.task__where_overdue(public.task) to authenticated;

-- Screen timesheet: the rows of timeEntry it lists (person = me).
create or replace function public.time_entry__where_timesheet(p_row public.time_entry__readable)
returns boolean
language sql stable
as $fn$
select (p_row.person = (select auth.uid()))
$fn$;
revoke execute on function public.time_entry__where_timesheet(public.time_entry__readable) from public, anon, authenticated;
grant execute on function public.time_entry__where_timesheet(public.time_entry__readable) to authenticated;

-- Screen timeApprovals: the rows of timeEntry it lists (status = logged and person != me and me is orgAdmin).
create or replace function public.time_entry__where_time_approvals(p_row public.time_entry__readable)
returns boolean
language sql stable
as $fn$
select (((p_row.status = 'logged') and (p_row.person <> (select auth.uid()))) and coalesce((p_row.organisation in (select _c1.organisation from public.membership _c1 where _c1.organisation is not null and ((_c1.person = (select auth.uid()))) and ((_c1.role in ('owner', 'admin'))))), false))
$fn$;
revoke execute on function public.time_entry__where_time_approvals(public.time_entry__readable) from public, anon, authenticated;
grant execute on function public.time_entry__where_time_approvals(public.time_entry__readable) to authenticated;

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
