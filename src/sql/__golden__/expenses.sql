-- Ninefold migration for "Expenses" (target: embedded). Generated: do not edit.
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
  role text not null constraint user_roles__role__values check (role in ('employee', 'manager', 'finance', 'admin')),
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
      or p_role = any (array['finance']::text[])
      or exists (select 1 from app.user_roles a where a.user_id = (select auth.uid()) and a.role = any (array['admin']::text[])))
    and ur.role = any (case p_role
      when 'employee' then array['employee', 'manager', 'finance', 'admin']::text[]
      when 'manager' then array['manager']::text[]
      when 'finance' then array['finance']::text[]
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
  when 'employee' then array['employee']::text[]
  when 'manager' then array['manager', 'employee']::text[]
  when 'finance' then array['finance', 'employee']::text[]
  when 'admin' then array['admin', 'employee']::text[]
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
  manager uuid,
  department text,
  cost_centre text,
  employee_number text,
  constraint person__name__blank check (not (btrim(name, E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '')),
  constraint person__name__values check (char_length(name) <= 10000),
  constraint person__email__unique unique (email),
  constraint person__email__blank check (not (btrim(email, E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '')),
  constraint person__email__values check (char_length(email) <= 10000),
  constraint person__department__values check (char_length(department) <= 10000),
  constraint person__cost_centre__values check (char_length(cost_centre) <= 10000),
  constraint person__employee_number__unique unique (employee_number),
  constraint person__employee_number__values check (char_length(employee_number) <= 10000),
  constraint person__email_invalid__1 check (email is null or (email ~ '^[^ \t\n\r\f\v@]+@[^ \t\n\r\f\v@]+\.[^ \t\n\r\f\v@]+$')),
  constraint person__cost_centre_invalid__2 check (cost_centre is null or (cost_centre ~ '^CC-[0-9]{4}$')),
  constraint person__manager_self__3 check (coalesce(((manager is null) or (manager <> id)), false))
);

create table if not exists public.claim (
  id uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  title text not null,
  purpose text,
  submitter uuid not null,
  status text not null default 'draft',
  currency text not null default 'EUR'::text,
  total numeric default 0::numeric,
  submitted_at timestamptz,
  approved_by uuid,
  approved_at timestamptz,
  finance_approved_by uuid,
  finance_approved_at timestamptz,
  return_reason text,
  rejection_reason text,
  paid_by uuid,
  paid_at timestamptz,
  payment_reference text,
  constraint claim__title__blank check (not (btrim(title, E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '')),
  constraint claim__purpose__values check (char_length(purpose) <= 100000),
  constraint claim__status__values check (status in ('draft', 'submitted', 'returned', 'approved', 'finance_approved', 'rejected', 'paid')),
  constraint claim__currency__values check (currency in ('EUR', 'USD', 'GBP', 'CHF', 'SEK')),
  constraint claim__total__values check (total not in ('NaN'::numeric, 'Infinity'::numeric, '-Infinity'::numeric)),
  constraint claim__submitted_at__values check (isfinite(submitted_at)),
  constraint claim__approved_at__values check (isfinite(approved_at)),
  constraint claim__finance_approved_at__values check (isfinite(finance_approved_at)),
  constraint claim__return_reason__values check (char_length(return_reason) <= 100000),
  constraint claim__rejection_reason__values check (char_length(rejection_reason) <= 100000),
  constraint claim__paid_at__values check (isfinite(paid_at)),
  constraint claim__payment_reference__values check (char_length(payment_reference) <= 10000),
  constraint claim__title_too_long__1 check (title is null or (char_length(title) <= 100)),
  constraint claim__claim_total_too_high__2 check (total is null or (total <= 20000)),
  constraint claim__reason_too_short__3 check (return_reason is null or (char_length(return_reason) >= 10)),
  constraint claim__reason_too_short__4 check (rejection_reason is null or (char_length(rejection_reason) >= 10)),
  constraint claim__self_approval__6 check (not coalesce((not (approved_by is null)), false) or coalesce((approved_by <> submitter), false)),
  constraint claim__self_approval__7 check (not coalesce((not (finance_approved_by is null)), false) or coalesce((finance_approved_by <> submitter), false)),
  constraint claim__self_approval__8 check (not coalesce((not (paid_by is null)), false) or coalesce((paid_by <> submitter), false)),
  constraint claim__duties_not_separated__9 check (not coalesce(((not (finance_approved_by is null)) and (not (approved_by is null))), false) or coalesce((finance_approved_by <> approved_by), false)),
  constraint claim__duties_not_separated__10 check (not coalesce(((not (paid_by is null)) and (not (approved_by is null))), false) or coalesce(((paid_by <> approved_by) and ((finance_approved_by is null) or (paid_by <> finance_approved_by))), false))
);

create table if not exists public.line (
  id uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  claim uuid not null,
  submitter uuid not null,
  date date not null,
  category text not null,
  description text not null,
  merchant text,
  distance_km numeric,
  amount numeric not null,
  currency text not null default 'EUR'::text,
  constraint line__date__values check (isfinite(date)),
  constraint line__category__values check (category in ('travel', 'lodging', 'meals', 'mileage', 'office', 'software', 'training', 'other')),
  constraint line__description__blank check (not (btrim(description, E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '')),
  constraint line__merchant__values check (char_length(merchant) <= 10000),
  constraint line__distance_km__values check (distance_km not in ('NaN'::numeric, 'Infinity'::numeric, '-Infinity'::numeric)),
  constraint line__amount__values check (amount not in ('NaN'::numeric, 'Infinity'::numeric, '-Infinity'::numeric)),
  constraint line__currency__values check (currency in ('EUR', 'USD', 'GBP', 'CHF', 'SEK')),
  constraint line__description_too_long__1 check (description is null or (char_length(description) <= 200)),
  constraint line__amount_not_positive__2 check (amount is null or (amount >= 0.01)),
  constraint line__line_amount_too_high__3 check (amount is null or (amount <= 5000)),
  constraint line__mileage_distance_required__8 check (not coalesce((category = 'mileage'), false) or coalesce((distance_km > 0), false)),
  constraint line__mileage_rate_exceeded__9 check (not coalesce((category = 'mileage'), false) or coalesce((amount <= ((distance_km)::numeric * 0.3)), false)),
  constraint line__distance_negative__11 check (distance_km is null or (distance_km >= 0))
);

create table if not exists public.receipt (
  id uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  name text not null,
  size_bytes bigint not null,
  mime_type text not null default 'application/octet-stream',
  content bytea,
  claim uuid not null,
  line uuid not null,
  uploaded_by uuid not null,
  constraint receipt__receipt_too_large__1 check (coalesce((size_bytes <= ((10)::numeric * 1048576)), false))
);

-- ======================================================================
-- References and indexes
-- ======================================================================

do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'person__manager__fk' and conrelid = 'public.person'::regclass) then
    alter table public.person add constraint person__manager__fk foreign key (manager) references public.person (id) on delete set null;
  end if;
end $do$;

create index if not exists person__manager__idx on public.person (manager);
create index if not exists person__name__idx on public.person (name);

do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'claim__submitter__fk' and conrelid = 'public.claim'::regclass) then
    alter table public.claim add constraint claim__submitter__fk foreign key (submitter) references public.person (id) on delete restrict;
  end if;
end $do$;
do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'claim__approved_by__fk' and conrelid = 'public.claim'::regclass) then
    alter table public.claim add constraint claim__approved_by__fk foreign key (approved_by) references public.person (id) on delete restrict;
  end if;
end $do$;
do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'claim__finance_approved_by__fk' and conrelid = 'public.claim'::regclass) then
    alter table public.claim add constraint claim__finance_approved_by__fk foreign key (finance_approved_by) references public.person (id) on delete restrict;
  end if;
end $do$;
do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'claim__paid_by__fk' and conrelid = 'public.claim'::regclass) then
    alter table public.claim add constraint claim__paid_by__fk foreign key (paid_by) references public.person (id) on delete restrict;
  end if;
end $do$;

create index if not exists claim__approved_at__idx on public.claim (approved_at);
create index if not exists claim__approved_by__idx on public.claim (approved_by);
create index if not exists claim__created_at__idx on public.claim (created_at);
create index if not exists claim__finance_approved_by__idx on public.claim (finance_approved_by);
create index if not exists claim__paid_at__idx on public.claim (paid_at);
create index if not exists claim__paid_by__idx on public.claim (paid_by);
create index if not exists claim__status__idx on public.claim (status);
create index if not exists claim__submitted_at__idx on public.claim (submitted_at);
create index if not exists claim__submitter__idx on public.claim (submitter);
create index if not exists claim__submitter__created_at__id__idx on public.claim (submitter, created_at, id) include (currency, status);
create index if not exists claim__submitter__status__submitted_at__id__idx on public.claim (submitter, status, submitted_at, id) include (currency);
create index if not exists claim__approved_at__id__where_status__idx on public.claim (approved_at, id) include (currency, status, submitter) where status in ('approved', 'finance_approved');
create index if not exists claim__status__paid_at__id__idx on public.claim (status, paid_at, id) include (currency, submitter);

do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'line__claim__fk' and conrelid = 'public.line'::regclass) then
    alter table public.line add constraint line__claim__fk foreign key (claim) references public.claim (id) on delete cascade;
  end if;
end $do$;
do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'line__submitter__fk' and conrelid = 'public.line'::regclass) then
    alter table public.line add constraint line__submitter__fk foreign key (submitter) references public.person (id) on delete restrict;
  end if;
end $do$;

create index if not exists line__claim__idx on public.line (claim);
create index if not exists line__submitter__idx on public.line (submitter);

do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'receipt__claim__fk' and conrelid = 'public.receipt'::regclass) then
    alter table public.receipt add constraint receipt__claim__fk foreign key (claim) references public.claim (id) on delete cascade;
  end if;
end $do$;
do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'receipt__line__fk' and conrelid = 'public.receipt'::regclass) then
    alter table public.receipt add constraint receipt__line__fk foreign key (line) references public.line (id) on delete cascade;
  end if;
end $do$;
do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'receipt__uploaded_by__fk' and conrelid = 'public.receipt'::regclass) then
    alter table public.receipt add constraint receipt__uploaded_by__fk foreign key (uploaded_by) references public.person (id) on delete restrict;
  end if;
end $do$;

create index if not exists receipt__claim__idx on public.receipt (claim);
create index if not exists receipt__line__idx on public.receipt (line);
create index if not exists receipt__uploaded_by__idx on public.receipt (uploaded_by);

do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'receipt__size_bytes__nonnegative' and conrelid = 'public.receipt'::regclass) then
    alter table public.receipt add constraint receipt__size_bytes__nonnegative check (size_bytes >= 0);
  end if;
end $do$;
do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'receipt__name__values' and conrelid = 'public.receipt'::regclass) then
    alter table public.receipt add constraint receipt__name__values check (char_length(name) <= 255);
  end if;
end $do$;
do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'receipt__mime_type__values' and conrelid = 'public.receipt'::regclass) then
    alter table public.receipt add constraint receipt__mime_type__values check (char_length(mime_type) <= 255);
  end if;
end $do$;
do $do$ begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'receipt__size_bytes__matches_content' and conrelid = 'public.receipt'::regclass) then
    alter table public.receipt add constraint receipt__size_bytes__matches_content check (content is null or octet_length(content) = size_bytes);
  end if;
end $do$;

-- ======================================================================
-- Users
-- ======================================================================

-- A new auth user gets a person row and the sign-up roles (employee).
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
  insert into app.user_roles (user_id, role) values (new.id, 'employee') on conflict do nothing;
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
  if current_user in ('anon', 'authenticated') then
    if new.manager is not null and not exists (select 1 from public.person x where x.id = new.manager) then
      raise exception using errcode = '23503', constraint = 'person__manager__fk',
        message = 'insert or update on table "person" violates foreign key constraint "person__manager__fk"',
        detail = 'Key (manager) is not present in table "person".';
    end if;
  end if;
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
    if new.name is distinct from old.name and not ((app.has_role((select auth.uid()), 'employee') and coalesce((old.id = (select auth.uid())), false)) or (app.has_role((select auth.uid()), 'manager') and coalesce((old.id = (select auth.uid())), false)) or (app.has_role((select auth.uid()), 'finance') and coalesce((old.id = (select auth.uid())), false)) or app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'person', 'field', 'name')::text;
    end if;
    if new.email is distinct from old.email and not (app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'person', 'field', 'email')::text;
    end if;
    if new.manager is distinct from old.manager and not (app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'person', 'field', 'manager')::text;
    end if;
    if new.department is distinct from old.department and not (app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'person', 'field', 'department')::text;
    end if;
    if new.cost_centre is distinct from old.cost_centre and not (app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'person', 'field', 'costCentre')::text;
    end if;
    if new.employee_number is distinct from old.employee_number and not (app.has_role((select auth.uid()), 'admin')) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'person', 'field', 'employeeNumber')::text;
    end if;
    if new.manager is not null and new.manager is distinct from old.manager and not exists (select 1 from public.person x where x.id = new.manager) then
      raise exception using errcode = '23503', constraint = 'person__manager__fk',
        message = 'insert or update on table "person" violates foreign key constraint "person__manager__fk"',
        detail = 'Key (manager) is not present in table "person".';
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.person__on_update() from public, anon, authenticated;
create or replace trigger ninefold_20_on_update before update on public.person for each row execute function app.person__on_update();

-- Locks the groups of person that rules read, before the write (see emitGroupLocks.ts).
create or replace function app.person__lock_groups()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  if tg_op = 'UPDATE' and (old.manager is distinct from new.manager) then
    perform app.lock_group('claim.submitter', (new.id)::text);
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.person__lock_groups() from public, anon, authenticated;
create or replace trigger ninefold_05_lock_groups before insert or update or delete on public.person for each row execute function app.person__lock_groups();

-- Insert bookkeeping of claim.
create or replace function app.claim__on_insert()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  new.created_at := now();
  new.updated_at := new.created_at;
  new.version := 1;
  if current_user in ('anon', 'authenticated') then
    new.submitter := (select auth.uid());
    new.status := 'draft';
    if new.approved_by is not null and not exists (select 1 from public.person x where x.id = new.approved_by) then
      raise exception using errcode = '23503', constraint = 'claim__approved_by__fk',
        message = 'insert or update on table "claim" violates foreign key constraint "claim__approved_by__fk"',
        detail = 'Key (approved_by) is not present in table "person".';
    end if;
    if new.finance_approved_by is not null and not exists (select 1 from public.person x where x.id = new.finance_approved_by) then
      raise exception using errcode = '23503', constraint = 'claim__finance_approved_by__fk',
        message = 'insert or update on table "claim" violates foreign key constraint "claim__finance_approved_by__fk"',
        detail = 'Key (finance_approved_by) is not present in table "person".';
    end if;
    if new.paid_by is not null and not exists (select 1 from public.person x where x.id = new.paid_by) then
      raise exception using errcode = '23503', constraint = 'claim__paid_by__fk',
        message = 'insert or update on table "claim" violates foreign key constraint "claim__paid_by__fk"',
        detail = 'Key (paid_by) is not present in table "person".';
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.claim__on_insert() from public, anon, authenticated;
create or replace trigger ninefold_10_on_insert before insert on public.claim for each row execute function app.claim__on_insert();
-- Update bookkeeping and column rules of claim.
create or replace function app.claim__on_update()
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
    if new.submitter is distinct from old.submitter then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'claim', 'field', 'submitter')::text;
    end if;
    if new.status is distinct from old.status then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'claim', 'field', 'status')::text;
    end if;
    if new.total is distinct from old.total then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'claim', 'field', 'total')::text;
    end if;
    if new.submitted_at is distinct from old.submitted_at then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'claim', 'field', 'submittedAt')::text;
    end if;
    if new.approved_by is distinct from old.approved_by then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'claim', 'field', 'approvedBy')::text;
    end if;
    if new.approved_at is distinct from old.approved_at then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'claim', 'field', 'approvedAt')::text;
    end if;
    if new.finance_approved_by is distinct from old.finance_approved_by then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'claim', 'field', 'financeApprovedBy')::text;
    end if;
    if new.finance_approved_at is distinct from old.finance_approved_at then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'claim', 'field', 'financeApprovedAt')::text;
    end if;
    if new.return_reason is distinct from old.return_reason then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'claim', 'field', 'returnReason')::text;
    end if;
    if new.rejection_reason is distinct from old.rejection_reason then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'claim', 'field', 'rejectionReason')::text;
    end if;
    if new.paid_by is distinct from old.paid_by then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'claim', 'field', 'paidBy')::text;
    end if;
    if new.paid_at is distinct from old.paid_at then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'claim', 'field', 'paidAt')::text;
    end if;
    if new.payment_reference is distinct from old.payment_reference then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'claim', 'field', 'paymentReference')::text;
    end if;
    if new.title is distinct from old.title and not ((app.has_role((select auth.uid()), 'employee') and coalesce(((old.submitter = (select auth.uid())) and (old.status in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'manager') and coalesce(((old.submitter = (select auth.uid())) and (old.status in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'finance') and coalesce(((old.submitter = (select auth.uid())) and (old.status in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'admin') and coalesce(((old.submitter = (select auth.uid())) and (old.status in ('draft', 'returned'))), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'claim', 'field', 'title')::text;
    end if;
    if new.purpose is distinct from old.purpose and not ((app.has_role((select auth.uid()), 'employee') and coalesce(((old.submitter = (select auth.uid())) and (old.status in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'manager') and coalesce(((old.submitter = (select auth.uid())) and (old.status in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'finance') and coalesce(((old.submitter = (select auth.uid())) and (old.status in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'admin') and coalesce(((old.submitter = (select auth.uid())) and (old.status in ('draft', 'returned'))), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'claim', 'field', 'purpose')::text;
    end if;
    if new.currency is distinct from old.currency and not ((app.has_role((select auth.uid()), 'employee') and coalesce(((old.submitter = (select auth.uid())) and (old.status in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'manager') and coalesce(((old.submitter = (select auth.uid())) and (old.status in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'finance') and coalesce(((old.submitter = (select auth.uid())) and (old.status in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'admin') and coalesce(((old.submitter = (select auth.uid())) and (old.status in ('draft', 'returned'))), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'claim', 'field', 'currency')::text;
    end if;
    if new.approved_by is not null and new.approved_by is distinct from old.approved_by and not exists (select 1 from public.person x where x.id = new.approved_by) then
      raise exception using errcode = '23503', constraint = 'claim__approved_by__fk',
        message = 'insert or update on table "claim" violates foreign key constraint "claim__approved_by__fk"',
        detail = 'Key (approved_by) is not present in table "person".';
    end if;
    if new.finance_approved_by is not null and new.finance_approved_by is distinct from old.finance_approved_by and not exists (select 1 from public.person x where x.id = new.finance_approved_by) then
      raise exception using errcode = '23503', constraint = 'claim__finance_approved_by__fk',
        message = 'insert or update on table "claim" violates foreign key constraint "claim__finance_approved_by__fk"',
        detail = 'Key (finance_approved_by) is not present in table "person".';
    end if;
    if new.paid_by is not null and new.paid_by is distinct from old.paid_by and not exists (select 1 from public.person x where x.id = new.paid_by) then
      raise exception using errcode = '23503', constraint = 'claim__paid_by__fk',
        message = 'insert or update on table "claim" violates foreign key constraint "claim__paid_by__fk"',
        detail = 'Key (paid_by) is not present in table "person".';
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.claim__on_update() from public, anon, authenticated;
create or replace trigger ninefold_20_on_update before update on public.claim for each row execute function app.claim__on_update();

-- Locks the groups of claim that rules read, before the write (see emitGroupLocks.ts).
create or replace function app.claim__lock_groups()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  if tg_op = 'INSERT' or (tg_op = 'UPDATE' and old.submitter is distinct from new.submitter) then
    perform 1 from public.person p where p.id = new.submitter for key share;
  end if;
  if tg_op = 'INSERT' then
    perform app.lock_group_shared('claim.submitter', (new.submitter)::text);
  elsif tg_op = 'DELETE' then
    if exists (select 1 from public.person p where p.id = old.submitter) then
      perform app.lock_group_shared('claim.submitter', (old.submitter)::text);
    end if;
  else
    perform app.lock_group_shared('claim.submitter', (least(old.submitter::text, new.submitter::text))::text);
    if old.submitter is distinct from new.submitter then
      perform app.lock_group_shared('claim.submitter', (greatest(old.submitter::text, new.submitter::text))::text);
    end if;
  end if;
  if tg_op = 'UPDATE' and (old.currency is distinct from new.currency or old.status is distinct from new.status or old.submitter is distinct from new.submitter) then
    perform app.lock_group('line.claim', (new.id)::text);
  end if;
  if tg_op = 'UPDATE' and (old.status is distinct from new.status or old.submitter is distinct from new.submitter) then
    perform app.lock_group('receipt.claim', (new.id)::text);
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.claim__lock_groups() from public, anon, authenticated;
create or replace trigger ninefold_05_lock_groups before insert or update or delete on public.claim for each row execute function app.claim__lock_groups();

-- Insert bookkeeping of line.
create or replace function app.line__on_insert()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  new.created_at := now();
  new.updated_at := new.created_at;
  new.version := 1;
  if current_user in ('anon', 'authenticated') then
    new.submitter := (select auth.uid());
    if new.claim is not null and not exists (select 1 from public.claim x where x.id = new.claim) then
      raise exception using errcode = '23503', constraint = 'line__claim__fk',
        message = 'insert or update on table "line" violates foreign key constraint "line__claim__fk"',
        detail = 'Key (claim) is not present in table "claim".';
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.line__on_insert() from public, anon, authenticated;
create or replace trigger ninefold_10_on_insert before insert on public.line for each row execute function app.line__on_insert();
-- Update bookkeeping and column rules of line.
create or replace function app.line__on_update()
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
    if new.claim is distinct from old.claim then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'line', 'field', 'claim')::text;
    end if;
    if new.submitter is distinct from old.submitter then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'line', 'field', 'submitter')::text;
    end if;
    if new.date is distinct from old.date and not ((app.has_role((select auth.uid()), 'employee') and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'manager') and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'finance') and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'admin') and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'line', 'field', 'date')::text;
    end if;
    if new.category is distinct from old.category and not ((app.has_role((select auth.uid()), 'employee') and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'manager') and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'finance') and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'admin') and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'line', 'field', 'category')::text;
    end if;
    if new.description is distinct from old.description and not ((app.has_role((select auth.uid()), 'employee') and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'manager') and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'finance') and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'admin') and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'line', 'field', 'description')::text;
    end if;
    if new.merchant is distinct from old.merchant and not ((app.has_role((select auth.uid()), 'employee') and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'manager') and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'finance') and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'admin') and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'line', 'field', 'merchant')::text;
    end if;
    if new.distance_km is distinct from old.distance_km and not ((app.has_role((select auth.uid()), 'employee') and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'manager') and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'finance') and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'admin') and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'line', 'field', 'distanceKm')::text;
    end if;
    if new.amount is distinct from old.amount and not ((app.has_role((select auth.uid()), 'employee') and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'manager') and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'finance') and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'admin') and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'line', 'field', 'amount')::text;
    end if;
    if new.currency is distinct from old.currency and not ((app.has_role((select auth.uid()), 'employee') and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'manager') and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'finance') and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false)) or (app.has_role((select auth.uid()), 'admin') and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false))) then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'line', 'field', 'currency')::text;
    end if;
    if new.claim is not null and new.claim is distinct from old.claim and not exists (select 1 from public.claim x where x.id = new.claim) then
      raise exception using errcode = '23503', constraint = 'line__claim__fk',
        message = 'insert or update on table "line" violates foreign key constraint "line__claim__fk"',
        detail = 'Key (claim) is not present in table "claim".';
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.line__on_update() from public, anon, authenticated;
create or replace trigger ninefold_20_on_update before update on public.line for each row execute function app.line__on_update();

-- Locks the groups of line that rules read, before the write (see emitGroupLocks.ts).
create or replace function app.line__lock_groups()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  if tg_op = 'INSERT' or (tg_op = 'UPDATE' and old.claim is distinct from new.claim) then
    perform 1 from public.claim p where p.id = new.claim for key share;
  end if;
  if tg_op = 'INSERT' then
    perform app.lock_group('line.claim', (new.claim)::text);
  elsif tg_op = 'DELETE' then
    if exists (select 1 from public.claim p where p.id = old.claim) then
      perform app.lock_group('line.claim', (old.claim)::text);
    end if;
  else
    perform app.lock_group('line.claim', (least(old.claim::text, new.claim::text))::text);
    if old.claim is distinct from new.claim then
      perform app.lock_group('line.claim', (greatest(old.claim::text, new.claim::text))::text);
    end if;
  end if;
  if tg_op = 'UPDATE' and (old.claim is distinct from new.claim) then
    perform app.lock_group('receipt.line', (new.id)::text);
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.line__lock_groups() from public, anon, authenticated;
create or replace trigger ninefold_05_lock_groups before insert or update or delete on public.line for each row execute function app.line__lock_groups();

-- Insert bookkeeping of receipt.
create or replace function app.receipt__on_insert()
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
    if new.claim is not null and not exists (select 1 from public.claim x where x.id = new.claim) then
      raise exception using errcode = '23503', constraint = 'receipt__claim__fk',
        message = 'insert or update on table "receipt" violates foreign key constraint "receipt__claim__fk"',
        detail = 'Key (claim) is not present in table "claim".';
    end if;
    if new.line is not null and not exists (select 1 from public.line x where x.id = new.line) then
      raise exception using errcode = '23503', constraint = 'receipt__line__fk',
        message = 'insert or update on table "receipt" violates foreign key constraint "receipt__line__fk"',
        detail = 'Key (line) is not present in table "line".';
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.receipt__on_insert() from public, anon, authenticated;
create or replace trigger ninefold_10_on_insert before insert on public.receipt for each row execute function app.receipt__on_insert();
-- Update bookkeeping and column rules of receipt.
create or replace function app.receipt__on_update()
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
    if new.claim is distinct from old.claim then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'receipt', 'field', 'claim')::text;
    end if;
    if new.line is distinct from old.line then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'receipt', 'field', 'line')::text;
    end if;
    if new.uploaded_by is distinct from old.uploaded_by then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'receipt', 'field', 'uploadedBy')::text;
    end if;
    if new.name is distinct from old.name then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'receipt', 'field', 'name')::text;
    end if;
    if new.size_bytes is distinct from old.size_bytes then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'receipt', 'field', 'size_bytes')::text;
    end if;
    if new.mime_type is distinct from old.mime_type then
      raise exception using errcode = 'P0001', message = 'FIELD_NOT_WRITABLE', detail = jsonb_build_object('entity', 'receipt', 'field', 'mime_type')::text;
    end if;
    if new.claim is not null and new.claim is distinct from old.claim and not exists (select 1 from public.claim x where x.id = new.claim) then
      raise exception using errcode = '23503', constraint = 'receipt__claim__fk',
        message = 'insert or update on table "receipt" violates foreign key constraint "receipt__claim__fk"',
        detail = 'Key (claim) is not present in table "claim".';
    end if;
    if new.line is not null and new.line is distinct from old.line and not exists (select 1 from public.line x where x.id = new.line) then
      raise exception using errcode = '23503', constraint = 'receipt__line__fk',
        message = 'insert or update on table "receipt" violates foreign key constraint "receipt__line__fk"',
        detail = 'Key (line) is not present in table "line".';
    end if;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.receipt__on_update() from public, anon, authenticated;
create or replace trigger ninefold_20_on_update before update on public.receipt for each row execute function app.receipt__on_update();

-- Locks the groups of receipt that rules read, before the write (see emitGroupLocks.ts).
create or replace function app.receipt__lock_groups()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  if tg_op = 'INSERT' or (tg_op = 'UPDATE' and old.line is distinct from new.line) then
    perform 1 from public.line p where p.id = new.line for key share;
  end if;
  if tg_op = 'INSERT' or (tg_op = 'UPDATE' and old.claim is distinct from new.claim) then
    perform 1 from public.claim p where p.id = new.claim for key share;
  end if;
  if tg_op = 'INSERT' then
    perform app.lock_group_shared('receipt.claim', (new.claim)::text);
  elsif tg_op = 'DELETE' then
    if exists (select 1 from public.claim p where p.id = old.claim) then
      perform app.lock_group_shared('receipt.claim', (old.claim)::text);
    end if;
  else
    perform app.lock_group_shared('receipt.claim', (least(old.claim::text, new.claim::text))::text);
    if old.claim is distinct from new.claim then
      perform app.lock_group_shared('receipt.claim', (greatest(old.claim::text, new.claim::text))::text);
    end if;
  end if;
  if tg_op = 'INSERT' then
    perform app.lock_group('receipt.line', (new.line)::text);
  elsif tg_op = 'DELETE' then
    if exists (select 1 from public.line p where p.id = old.line) then
      perform app.lock_group('receipt.line', (old.line)::text);
    end if;
  else
    perform app.lock_group('receipt.line', (least(old.line::text, new.line::text))::text);
    if old.line is distinct from new.line then
      perform app.lock_group('receipt.line', (greatest(old.line::text, new.line::text))::text);
    end if;
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.receipt__lock_groups() from public, anon, authenticated;
create or replace trigger ninefold_05_lock_groups before insert or update or delete on public.receipt for each row execute function app.receipt__lock_groups();

-- ======================================================================
-- Validation beyond the row
-- ======================================================================

-- Validation of claim that reads beyond the row (raises the rule's catalogue code).
create or replace function app.claim__validate()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  perform app.lock_group('line.claim', (new.id)::text);
  if not (not coalesce((new.status not in ('draft', 'returned')), false) or coalesce(((select count(*) from public.line _c1 where ((_c1.claim = new.id)) and app.line__counted_for_writer(_c1)) >= 1), false)) then
    raise exception using errcode = 'P0001', message = 'CLAIM_EMPTY', detail = jsonb_build_object('entity', 'claim')::text;
  end if;
  return null;
end;
$fn$;
revoke execute on function app.claim__validate() from public, anon, authenticated;
create or replace trigger ninefold_30_validate after insert or update on public.claim for each row execute function app.claim__validate();
-- Row rules of other entities that read claim through a reference, checked again when it changes.
create or replace function app.claim__revalidate_dependents()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  c record;
begin
  if new.currency is distinct from old.currency then
    for c in select * from public.line x where x.claim = new.id loop
      if not (coalesce((c.currency = (select _h1.currency from public.claim _h1 where _h1.id = c.claim)), false)) then
        raise exception using errcode = 'P0001', message = 'CURRENCY_MISMATCH', detail = jsonb_build_object('entity', 'line', 'id', c.id, 'field', 'currency')::text;
      end if;
    end loop;
  end if;
  if new.status is distinct from old.status then
    for c in select * from public.line x where x.claim = new.id loop
      perform app.lock_group('receipt.line', (c.id)::text);
      if not (not coalesce(((c.amount > 25) and ((select _h1.status from public.claim _h1 where _h1.id = c.claim) not in ('draft', 'returned'))), false) or coalesce(((select count(*) from public.receipt _c1 where ((_c1.line = c.id)) and app.receipt__counted_for_writer(_c1)) >= 1), false)) then
        raise exception using errcode = 'P0001', message = 'RECEIPT_REQUIRED', detail = jsonb_build_object('entity', 'line', 'id', c.id, 'field', 'amount')::text;
      end if;
    end loop;
  end if;
  return null;
end;
$fn$;
revoke execute on function app.claim__revalidate_dependents() from public, anon, authenticated;
create or replace trigger ninefold_40_revalidate after update on public.claim for each row execute function app.claim__revalidate_dependents();

-- line: whether a row counts in a rule's count for the current writer (it may read or owns it).
create or replace function app.line__counted_for_writer(p_row public.line)
returns boolean
language sql stable security definer
set search_path = ''
as $fn$
select coalesce(
  coalesce(current_setting('role', true), 'none') not in ('anon', 'authenticated')
  or p_row.submitter = (select auth.uid())
  or (((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['employee', 'manager', 'finance', 'admin']::text[]))) and coalesce((p_row.submitter = (select auth.uid())), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['manager']::text[]))) and coalesce(((p_row.submitter = (select auth.uid())) or (((select _h1_p_row.manager from public.person _h1_p_row where _h1_p_row.id = p_row.submitter and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['employee', 'manager', 'finance', 'admin']::text[]))) and coalesce((((_h1_p_row.id = (select auth.uid())) or (_h1_p_row.id = (select _me1__h1_p_row.manager from public.person _me1__h1_p_row where _me1__h1_p_row.id = (select auth.uid())))) or app.has_role(_h1_p_row.id, 'finance')), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['manager']::text[]))) and coalesce((_h1_p_row.manager = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['finance']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false)) = (select auth.uid())) and ((select _h2_p_row.status from public.claim _h2_p_row where _h2_p_row.id = p_row.claim and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['employee', 'manager', 'finance', 'admin']::text[]))) and coalesce((_h2_p_row.submitter = (select auth.uid())), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['manager']::text[]))) and coalesce(((_h2_p_row.submitter = (select auth.uid())) or (((select _h1__h2_p_row.manager from public.person _h1__h2_p_row where _h1__h2_p_row.id = _h2_p_row.submitter and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['employee', 'manager', 'finance', 'admin']::text[]))) and coalesce((((_h1__h2_p_row.id = (select auth.uid())) or (_h1__h2_p_row.id = (select _me1__h1__h2_p_row.manager from public.person _me1__h1__h2_p_row where _me1__h1__h2_p_row.id = (select auth.uid())))) or app.has_role(_h1__h2_p_row.id, 'finance')), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['manager']::text[]))) and coalesce((_h1__h2_p_row.manager = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['finance']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false)) = (select auth.uid())) and (_h2_p_row.status <> 'draft'))), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['finance']::text[]))) and coalesce(((_h2_p_row.submitter = (select auth.uid())) or (_h2_p_row.status <> 'draft')), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false)) <> 'draft'))), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['finance']::text[]))) and coalesce(((p_row.submitter = (select auth.uid())) or ((select _h1_p_row.status from public.claim _h1_p_row where _h1_p_row.id = p_row.claim and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['employee', 'manager', 'finance', 'admin']::text[]))) and coalesce((_h1_p_row.submitter = (select auth.uid())), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['manager']::text[]))) and coalesce(((_h1_p_row.submitter = (select auth.uid())) or (((select _h1__h1_p_row.manager from public.person _h1__h1_p_row where _h1__h1_p_row.id = _h1_p_row.submitter and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['employee', 'manager', 'finance', 'admin']::text[]))) and coalesce((((_h1__h1_p_row.id = (select auth.uid())) or (_h1__h1_p_row.id = (select _me1__h1__h1_p_row.manager from public.person _me1__h1__h1_p_row where _me1__h1__h1_p_row.id = (select auth.uid())))) or app.has_role(_h1__h1_p_row.id, 'finance')), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['manager']::text[]))) and coalesce((_h1__h1_p_row.manager = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['finance']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false)) = (select auth.uid())) and (_h1_p_row.status <> 'draft'))), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['finance']::text[]))) and coalesce(((_h1_p_row.submitter = (select auth.uid())) or (_h1_p_row.status <> 'draft')), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false)) <> 'draft')), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[])))), false);
$fn$;
revoke execute on function app.line__counted_for_writer(public.line) from public, anon, authenticated;

-- Validation of line that reads beyond the row (raises the rule's catalogue code).
create or replace function app.line__validate()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  perform app.lock_group('line.claim', (new.claim)::text);
  perform app.lock_group('receipt.line', (new.id)::text);
  if not (coalesce((new.date <= (now() at time zone 'utc')::date), false)) then
    raise exception using errcode = 'P0001', message = 'DATE_IN_FUTURE', detail = jsonb_build_object('entity', 'line', 'field', 'date')::text;
  end if;
  if not (coalesce((((new.date)::timestamp at time zone 'utc') >= ((((now() at time zone 'utc')::date)::timestamp at time zone 'utc') - ((90)::double precision * interval '86400 seconds'))), false)) then
    raise exception using errcode = 'P0001', message = 'EXPENSE_TOO_OLD', detail = jsonb_build_object('entity', 'line', 'field', 'date')::text;
  end if;
  if not (coalesce((new.currency = (select _h1.currency from public.claim _h1 where _h1.id = new.claim)), false)) then
    raise exception using errcode = 'P0001', message = 'CURRENCY_MISMATCH', detail = jsonb_build_object('entity', 'line', 'field', 'currency')::text;
  end if;
  if not (coalesce(((select count(*) from public.line _c1 where ((_c1.claim = new.claim)) and (_c1.id = new.id or app.line__counted_for_writer(_c1))) <= 50), false)) then
    raise exception using errcode = 'P0001', message = 'TOO_MANY_LINES', detail = jsonb_build_object('entity', 'line')::text;
  end if;
  if not (not coalesce(((new.amount > 25) and ((select _h1.status from public.claim _h1 where _h1.id = new.claim) not in ('draft', 'returned'))), false) or coalesce(((select count(*) from public.receipt _c1 where ((_c1.line = new.id)) and app.receipt__counted_for_writer(_c1)) >= 1), false)) then
    raise exception using errcode = 'P0001', message = 'RECEIPT_REQUIRED', detail = jsonb_build_object('entity', 'line', 'field', 'amount')::text;
  end if;
  return null;
end;
$fn$;
revoke execute on function app.line__validate() from public, anon, authenticated;
create or replace trigger ninefold_30_validate after insert or update on public.line for each row execute function app.line__validate();
-- Row rules of other entities that read line through a reference, checked again when it changes.
create or replace function app.line__revalidate_dependents()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  c record;
begin
  if new.claim is distinct from old.claim then
    for c in select * from public.receipt x where x.line = new.id loop
      if not (coalesce(((select _h1.claim from public.line _h1 where _h1.id = c.line) = c.claim), false)) then
        raise exception using errcode = 'P0001', message = 'RECEIPT_LINE_MISMATCH', detail = jsonb_build_object('entity', 'receipt', 'id', c.id, 'field', 'line')::text;
      end if;
    end loop;
  end if;
  return null;
end;
$fn$;
revoke execute on function app.line__revalidate_dependents() from public, anon, authenticated;
create or replace trigger ninefold_40_revalidate after update on public.line for each row execute function app.line__revalidate_dependents();

-- Write permissions of line that read other rows, checked again under the group locks.
create or replace function app.line__recheck_permission()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  if current_user in ('anon', 'authenticated') then
    if tg_op = 'INSERT' and not (((select app.has_role((select auth.uid()), 'employee')) and coalesce((((select _h1.submitter from public.claim _h1 where _h1.id = new.claim) = (select auth.uid())) and ((select _h2.status from public.claim _h2 where _h2.id = new.claim) in ('draft', 'returned'))), false)) or ((select app.has_role((select auth.uid()), 'manager')) and coalesce((((select _h1.submitter from public.claim _h1 where _h1.id = new.claim) = (select auth.uid())) and ((select _h2.status from public.claim _h2 where _h2.id = new.claim) in ('draft', 'returned'))), false)) or ((select app.has_role((select auth.uid()), 'finance')) and coalesce((((select _h1.submitter from public.claim _h1 where _h1.id = new.claim) = (select auth.uid())) and ((select _h2.status from public.claim _h2 where _h2.id = new.claim) in ('draft', 'returned'))), false)) or ((select app.has_role((select auth.uid()), 'admin')) and coalesce((((select _h1.submitter from public.claim _h1 where _h1.id = new.claim) = (select auth.uid())) and ((select _h2.status from public.claim _h2 where _h2.id = new.claim) in ('draft', 'returned'))), false))) then
      raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'line', 'action', 'create')::text;
    end if;
    if tg_op = 'UPDATE' and not (((select app.has_role((select auth.uid()), 'employee')) and coalesce(((new.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = new.claim) in ('draft', 'returned'))), false)) or ((select app.has_role((select auth.uid()), 'manager')) and coalesce(((new.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = new.claim) in ('draft', 'returned'))), false)) or ((select app.has_role((select auth.uid()), 'finance')) and coalesce(((new.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = new.claim) in ('draft', 'returned'))), false)) or ((select app.has_role((select auth.uid()), 'admin')) and coalesce(((new.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = new.claim) in ('draft', 'returned'))), false))) then
      raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'line', 'action', 'update')::text;
    end if;
    if tg_op = 'DELETE' and exists (select 1 from public.claim p where p.id = old.claim) and not (((select app.has_role((select auth.uid()), 'employee')) and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false)) or ((select app.has_role((select auth.uid()), 'manager')) and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false)) or ((select app.has_role((select auth.uid()), 'finance')) and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false)) or ((select app.has_role((select auth.uid()), 'admin')) and coalesce(((old.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false))) then
      raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'line', 'action', 'delete')::text;
    end if;
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.line__recheck_permission() from public, anon, authenticated;
create or replace trigger ninefold_35_recheck_permission before insert or update or delete on public.line for each row execute function app.line__recheck_permission();

-- receipt: whether a row counts in a rule's count for the current writer (it may read or owns it).
create or replace function app.receipt__counted_for_writer(p_row public.receipt)
returns boolean
language sql stable security definer
set search_path = ''
as $fn$
select coalesce(
  coalesce(current_setting('role', true), 'none') not in ('anon', 'authenticated')
  or p_row.uploaded_by = (select auth.uid())
  or (((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['employee', 'manager', 'finance', 'admin']::text[]))) and coalesce((p_row.uploaded_by = (select auth.uid())), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['manager']::text[]))) and coalesce(((p_row.uploaded_by = (select auth.uid())) or (((select _h1_p_row.manager from public.person _h1_p_row where _h1_p_row.id = p_row.uploaded_by and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['employee', 'manager', 'finance', 'admin']::text[]))) and coalesce((((_h1_p_row.id = (select auth.uid())) or (_h1_p_row.id = (select _me1__h1_p_row.manager from public.person _me1__h1_p_row where _me1__h1_p_row.id = (select auth.uid())))) or app.has_role(_h1_p_row.id, 'finance')), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['manager']::text[]))) and coalesce((_h1_p_row.manager = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['finance']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false)) = (select auth.uid())) and ((select _h2_p_row.status from public.claim _h2_p_row where _h2_p_row.id = p_row.claim and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['employee', 'manager', 'finance', 'admin']::text[]))) and coalesce((_h2_p_row.submitter = (select auth.uid())), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['manager']::text[]))) and coalesce(((_h2_p_row.submitter = (select auth.uid())) or (((select _h1__h2_p_row.manager from public.person _h1__h2_p_row where _h1__h2_p_row.id = _h2_p_row.submitter and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['employee', 'manager', 'finance', 'admin']::text[]))) and coalesce((((_h1__h2_p_row.id = (select auth.uid())) or (_h1__h2_p_row.id = (select _me1__h1__h2_p_row.manager from public.person _me1__h1__h2_p_row where _me1__h1__h2_p_row.id = (select auth.uid())))) or app.has_role(_h1__h2_p_row.id, 'finance')), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['manager']::text[]))) and coalesce((_h1__h2_p_row.manager = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['finance']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false)) = (select auth.uid())) and (_h2_p_row.status <> 'draft'))), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['finance']::text[]))) and coalesce(((_h2_p_row.submitter = (select auth.uid())) or (_h2_p_row.status <> 'draft')), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false)) <> 'draft'))), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['finance']::text[]))) and coalesce(((p_row.uploaded_by = (select auth.uid())) or ((select _h1_p_row.status from public.claim _h1_p_row where _h1_p_row.id = p_row.claim and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['employee', 'manager', 'finance', 'admin']::text[]))) and coalesce((_h1_p_row.submitter = (select auth.uid())), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['manager']::text[]))) and coalesce(((_h1_p_row.submitter = (select auth.uid())) or (((select _h1__h1_p_row.manager from public.person _h1__h1_p_row where _h1__h1_p_row.id = _h1_p_row.submitter and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['employee', 'manager', 'finance', 'admin']::text[]))) and coalesce((((_h1__h1_p_row.id = (select auth.uid())) or (_h1__h1_p_row.id = (select _me1__h1__h1_p_row.manager from public.person _me1__h1__h1_p_row where _me1__h1__h1_p_row.id = (select auth.uid())))) or app.has_role(_h1__h1_p_row.id, 'finance')), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['manager']::text[]))) and coalesce((_h1__h1_p_row.manager = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['finance']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false)) = (select auth.uid())) and (_h1_p_row.status <> 'draft'))), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['finance']::text[]))) and coalesce(((_h1_p_row.submitter = (select auth.uid())) or (_h1_p_row.status <> 'draft')), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false)) <> 'draft')), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[])))), false);
$fn$;
revoke execute on function app.receipt__counted_for_writer(public.receipt) from public, anon, authenticated;

-- Validation of receipt that reads beyond the row (raises the rule's catalogue code).
create or replace function app.receipt__validate()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  perform app.lock_group('receipt.line', (new.line)::text);
  if not (coalesce(((select _h1.claim from public.line _h1 where _h1.id = new.line) = new.claim), false)) then
    raise exception using errcode = 'P0001', message = 'RECEIPT_LINE_MISMATCH', detail = jsonb_build_object('entity', 'receipt', 'field', 'line')::text;
  end if;
  if not (coalesce(((select count(*) from public.receipt _c1 where ((_c1.line = new.line)) and (_c1.id = new.id or app.receipt__counted_for_writer(_c1))) <= 5), false)) then
    raise exception using errcode = 'P0001', message = 'TOO_MANY_RECEIPTS', detail = jsonb_build_object('entity', 'receipt')::text;
  end if;
  return null;
end;
$fn$;
revoke execute on function app.receipt__validate() from public, anon, authenticated;
create or replace trigger ninefold_30_validate after insert or update on public.receipt for each row execute function app.receipt__validate();

-- Write permissions of receipt that read other rows, checked again under the group locks.
create or replace function app.receipt__recheck_permission()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  if current_user in ('anon', 'authenticated') then
    if tg_op = 'INSERT' and not (((select app.has_role((select auth.uid()), 'employee')) and coalesce((((select _h1.submitter from public.claim _h1 where _h1.id = new.claim) = (select auth.uid())) and ((select _h2.status from public.claim _h2 where _h2.id = new.claim) in ('draft', 'returned'))), false)) or ((select app.has_role((select auth.uid()), 'manager')) and coalesce((((select _h1.submitter from public.claim _h1 where _h1.id = new.claim) = (select auth.uid())) and ((select _h2.status from public.claim _h2 where _h2.id = new.claim) in ('draft', 'returned'))), false)) or ((select app.has_role((select auth.uid()), 'finance')) and coalesce((((select _h1.submitter from public.claim _h1 where _h1.id = new.claim) = (select auth.uid())) and ((select _h2.status from public.claim _h2 where _h2.id = new.claim) in ('draft', 'returned'))), false)) or ((select app.has_role((select auth.uid()), 'admin')) and coalesce((((select _h1.submitter from public.claim _h1 where _h1.id = new.claim) = (select auth.uid())) and ((select _h2.status from public.claim _h2 where _h2.id = new.claim) in ('draft', 'returned'))), false))) then
      raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'receipt', 'action', 'create')::text;
    end if;
    if tg_op = 'DELETE' and exists (select 1 from public.claim p where p.id = old.claim) and not (((select app.has_role((select auth.uid()), 'employee')) and coalesce(((old.uploaded_by = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false)) or ((select app.has_role((select auth.uid()), 'manager')) and coalesce(((old.uploaded_by = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false)) or ((select app.has_role((select auth.uid()), 'finance')) and coalesce(((old.uploaded_by = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false)) or ((select app.has_role((select auth.uid()), 'admin')) and coalesce(((old.uploaded_by = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = old.claim) in ('draft', 'returned'))), false))) then
      raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'receipt', 'action', 'delete')::text;
    end if;
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end;
$fn$;
revoke execute on function app.receipt__recheck_permission() from public, anon, authenticated;
create or replace trigger ninefold_35_recheck_permission before insert or update or delete on public.receipt for each row execute function app.receipt__recheck_permission();

-- ======================================================================
-- History
-- ======================================================================

create table if not exists public.claim_history (
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
alter table public.claim_history add column if not exists kind text not null default 'transition';
alter table public.claim_history add column if not exists previous jsonb not null default '{}'::jsonb;
create index if not exists claim_history__row_id__idx on public.claim_history (row_id, at);
alter table public.claim_history enable row level security;
alter table public.claim_history force row level security;
drop policy if exists claim_history__read on public.claim_history;
create policy claim_history__read on public.claim_history as permissive for select to authenticated using (exists (select 1 from public.claim x where x.id = claim_history.row_id and x.created_at <= claim_history.at) and (claim_history.kind <> 'added' or case claim_history.transition when 'line' then exists (select 1 from public.line c where c.id = (claim_history.input ->> 'id')::uuid) when 'receipt' then exists (select 1 from public.receipt c where c.id = (claim_history.input ->> 'id')::uuid) else false end));
-- History of claim is append-only.
create or replace function app.claim_history__append_only()
returns trigger
language plpgsql volatile
set search_path = ''
as $fn$
begin
  raise exception using errcode = 'P0001', message = 'APPEND_ONLY', detail = jsonb_build_object('table', 'claim_history')::text;
end;
$fn$;
revoke execute on function app.claim_history__append_only() from public, anon, authenticated;
create or replace trigger ninefold_append_only before update or delete on public.claim_history for each row execute function app.claim_history__append_only();

-- History of claim: edits of title, purpose, currency.
create or replace function app.claim__audit()
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
  if new.purpose is distinct from old.purpose then v := v || jsonb_build_object('purpose', to_jsonb(new.purpose)); p := p || jsonb_build_object('purpose', to_jsonb(old.purpose)); end if;
  if new.currency is distinct from old.currency then v := v || jsonb_build_object('currency', to_jsonb(new.currency)); p := p || jsonb_build_object('currency', to_jsonb(old.currency)); end if;
  if v <> '{}'::jsonb then
    insert into public.claim_history (row_id, kind, transition, from_state, to_state, actor, input, previous)
    values (new.id, 'edit', '', old.status, new.status, (select auth.uid()), v, p);
  end if;
  return null;
end;
$fn$;
revoke execute on function app.claim__audit() from public, anon, authenticated;

create or replace trigger ninefold_audit after update on public.claim for each row execute function app.claim__audit();

-- History of claim: a line added under it.
create or replace function app.line__audit_claim()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  if (select auth.uid()) is null or new.claim is null then
    return null;
  end if;
  insert into public.claim_history (row_id, kind, transition, from_state, to_state, actor, input)
  select p.id, 'added', 'line', p.status, p.status, (select auth.uid()), jsonb_build_object('id', new.id)
  from public.claim p where p.id = new.claim;
  return null;
end;
$fn$;
revoke execute on function app.line__audit_claim() from public, anon, authenticated;

create or replace trigger ninefold_audit_claim after insert on public.line for each row execute function app.line__audit_claim();

-- History of claim: a receipt added under it.
create or replace function app.receipt__audit_claim()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $fn$
begin
  if (select auth.uid()) is null or new.claim is null then
    return null;
  end if;
  insert into public.claim_history (row_id, kind, transition, from_state, to_state, actor, input)
  select p.id, 'added', 'receipt', p.status, p.status, (select auth.uid()), jsonb_build_object('id', new.id)
  from public.claim p where p.id = new.claim;
  return null;
end;
$fn$;
revoke execute on function app.receipt__audit_claim() from public, anon, authenticated;

create or replace trigger ninefold_audit_claim after insert on public.receipt for each row execute function app.receipt__audit_claim();

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
    when 'exportJournalEntry' then '{"method":"POST","path":"/v1/journal-entries","service":"accounting","payload":{"claimId":"uuid","reference":"string","employeeEmail":"email","costCentre?":"string","currency":"string","total":"number","paidAt":"datetime","lines":[{"date":"string","category":"string","description":"string","amount":"number"}]},"roles":["finance"],"transitions":["claim.pay"]}'::jsonb
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
    when 'exportJournalEntry' then app.has_role(v_uid, 'finance')
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

-- Transition claim.submit: draft, returned -> submitted (employee).
create or replace function public.claim_submit(p_id uuid, p_version integer default null, p_input jsonb default '{}'::jsonb)
returns public.claim
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  r public.claim;
  v_from text;
begin
  select * into r from public.claim x where x.id = p_id for no key update;
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['employee', 'manager', 'finance', 'admin']::text[]))) and coalesce((r.submitter = (select auth.uid())), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['manager']::text[]))) and coalesce(((r.submitter = (select auth.uid())) or (((select _h1_r.manager from public.person _h1_r where _h1_r.id = r.submitter and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['employee', 'manager', 'finance', 'admin']::text[]))) and coalesce((((_h1_r.id = (select auth.uid())) or (_h1_r.id = (select _me1__h1_r.manager from public.person _me1__h1_r where _me1__h1_r.id = (select auth.uid())))) or app.has_role(_h1_r.id, 'finance')), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['manager']::text[]))) and coalesce((_h1_r.manager = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['finance']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false)) = (select auth.uid())) and (r.status <> 'draft'))), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['finance']::text[]))) and coalesce(((r.submitter = (select auth.uid())) or (r.status <> 'draft')), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'claim', 'id', p_id)::text;
  end if;
  if not (app.has_role((select auth.uid()), 'employee')) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'claim', 'action', 'submit')::text;
  end if;
  if p_version is not null and r.version <> p_version then
    raise exception using errcode = 'P0001', message = 'CONFLICT', detail = jsonb_build_object('entity', 'claim', 'id', p_id, 'version', p_version, 'current', r.version)::text;
  end if;
  v_from := r.status;
  if v_from is null or v_from not in ('draft', 'returned') then
    raise exception using errcode = 'P0001', message = 'INVALID_TRANSITION', detail = jsonb_build_object('entity', 'claim', 'transition', 'submit', 'from', v_from)::text;
  end if;
  perform app.lock_group('line.claim', (r.id)::text);
  perform app.lock_group('receipt.claim', (r.id)::text);
  select * into r from public.claim x where x.id = p_id;
  if not coalesce((r.submitter = (select auth.uid())), false) then
    raise exception using errcode = 'P0001', message = 'NOT_SUBMITTER', detail = jsonb_build_object('entity', 'claim', 'action', 'submit')::text;
  end if;
  perform set_config('ninefold.in_transition', 'on', true);
  begin
    update public.claim x set
      submitted_at = now(),
      total = round((coalesce((select sum(_s1.amount) from public.line _s1 where (_s1.claim = x.id)), 0))::numeric, (case upper(x.currency) when 'BHD' then 3 when 'BIF' then 0 when 'CLF' then 4 when 'CLP' then 0 when 'DJF' then 0 when 'GNF' then 0 when 'IQD' then 3 when 'ISK' then 0 when 'JOD' then 3 when 'JPY' then 0 when 'KMF' then 0 when 'KRW' then 0 when 'KWD' then 3 when 'LYD' then 3 when 'OMR' then 3 when 'PYG' then 0 when 'RWF' then 0 when 'TND' then 3 when 'UGX' then 0 when 'UYI' then 0 when 'UYW' then 4 when 'VND' then 0 when 'VUV' then 0 when 'XAF' then 0 when 'XOF' then 0 when 'XPF' then 0 else 2 end)),
      status = 'submitted'
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
  insert into public.claim_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'submit', v_from, 'submitted', (select auth.uid()), '{}'::jsonb);
  return r;
end;
$fn$;
revoke execute on function public.claim_submit(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.claim_submit(uuid, integer, jsonb) to authenticated;

-- Transition claim.recall: submitted -> draft (employee).
create or replace function public.claim_recall(p_id uuid, p_version integer default null, p_input jsonb default '{}'::jsonb)
returns public.claim
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  r public.claim;
  v_from text;
begin
  select * into r from public.claim x where x.id = p_id for no key update;
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['employee', 'manager', 'finance', 'admin']::text[]))) and coalesce((r.submitter = (select auth.uid())), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['manager']::text[]))) and coalesce(((r.submitter = (select auth.uid())) or (((select _h1_r.manager from public.person _h1_r where _h1_r.id = r.submitter and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['employee', 'manager', 'finance', 'admin']::text[]))) and coalesce((((_h1_r.id = (select auth.uid())) or (_h1_r.id = (select _me1__h1_r.manager from public.person _me1__h1_r where _me1__h1_r.id = (select auth.uid())))) or app.has_role(_h1_r.id, 'finance')), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['manager']::text[]))) and coalesce((_h1_r.manager = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['finance']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false)) = (select auth.uid())) and (r.status <> 'draft'))), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['finance']::text[]))) and coalesce(((r.submitter = (select auth.uid())) or (r.status <> 'draft')), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'claim', 'id', p_id)::text;
  end if;
  if not (app.has_role((select auth.uid()), 'employee')) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'claim', 'action', 'recall')::text;
  end if;
  if p_version is not null and r.version <> p_version then
    raise exception using errcode = 'P0001', message = 'CONFLICT', detail = jsonb_build_object('entity', 'claim', 'id', p_id, 'version', p_version, 'current', r.version)::text;
  end if;
  v_from := r.status;
  if v_from is null or v_from not in ('submitted') then
    raise exception using errcode = 'P0001', message = 'INVALID_TRANSITION', detail = jsonb_build_object('entity', 'claim', 'transition', 'recall', 'from', v_from)::text;
  end if;
  perform app.lock_group('line.claim', (r.id)::text);
  perform app.lock_group('receipt.claim', (r.id)::text);
  select * into r from public.claim x where x.id = p_id;
  if not coalesce((r.submitter = (select auth.uid())), false) then
    raise exception using errcode = 'P0001', message = 'NOT_SUBMITTER', detail = jsonb_build_object('entity', 'claim', 'action', 'recall')::text;
  end if;
  perform set_config('ninefold.in_transition', 'on', true);
  begin
    update public.claim x set
      submitted_at = null,
      status = 'draft'
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
  insert into public.claim_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'recall', v_from, 'draft', (select auth.uid()), '{}'::jsonb);
  return r;
end;
$fn$;
revoke execute on function public.claim_recall(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.claim_recall(uuid, integer, jsonb) to authenticated;

-- Transition claim.approve: submitted -> approved (manager).
create or replace function public.claim_approve(p_id uuid, p_version integer default null, p_input jsonb default '{}'::jsonb)
returns public.claim
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  r public.claim;
  v_from text;
begin
  select * into r from public.claim x where x.id = p_id for no key update;
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['employee', 'manager', 'finance', 'admin']::text[]))) and coalesce((r.submitter = (select auth.uid())), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['manager']::text[]))) and coalesce(((r.submitter = (select auth.uid())) or (((select _h1_r.manager from public.person _h1_r where _h1_r.id = r.submitter and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['employee', 'manager', 'finance', 'admin']::text[]))) and coalesce((((_h1_r.id = (select auth.uid())) or (_h1_r.id = (select _me1__h1_r.manager from public.person _me1__h1_r where _me1__h1_r.id = (select auth.uid())))) or app.has_role(_h1_r.id, 'finance')), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['manager']::text[]))) and coalesce((_h1_r.manager = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['finance']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false)) = (select auth.uid())) and (r.status <> 'draft'))), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['finance']::text[]))) and coalesce(((r.submitter = (select auth.uid())) or (r.status <> 'draft')), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'claim', 'id', p_id)::text;
  end if;
  if not (app.has_role((select auth.uid()), 'manager')) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'claim', 'action', 'approve')::text;
  end if;
  if p_version is not null and r.version <> p_version then
    raise exception using errcode = 'P0001', message = 'CONFLICT', detail = jsonb_build_object('entity', 'claim', 'id', p_id, 'version', p_version, 'current', r.version)::text;
  end if;
  v_from := r.status;
  if v_from is null or v_from not in ('submitted') then
    raise exception using errcode = 'P0001', message = 'INVALID_TRANSITION', detail = jsonb_build_object('entity', 'claim', 'transition', 'approve', 'from', v_from)::text;
  end if;
  perform app.lock_group('line.claim', (r.id)::text);
  perform app.lock_group('receipt.claim', (r.id)::text);
  select * into r from public.claim x where x.id = p_id;
  if not coalesce(((select _h1.manager from public.person _h1 where _h1.id = r.submitter) = (select auth.uid())), false) then
    raise exception using errcode = 'P0001', message = 'NOT_YOUR_REPORT', detail = jsonb_build_object('entity', 'claim', 'action', 'approve')::text;
  end if;
  perform set_config('ninefold.in_transition', 'on', true);
  begin
    update public.claim x set
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
  perform set_config('ninefold.in_transition', '', true);
  insert into public.claim_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'approve', v_from, 'approved', (select auth.uid()), '{}'::jsonb);
  return r;
end;
$fn$;
revoke execute on function public.claim_approve(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.claim_approve(uuid, integer, jsonb) to authenticated;

-- Transition claim.finance_approve: approved -> finance_approved (finance).
create or replace function public.claim_finance_approve(p_id uuid, p_version integer default null, p_input jsonb default '{}'::jsonb)
returns public.claim
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  r public.claim;
  v_from text;
begin
  select * into r from public.claim x where x.id = p_id for no key update;
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['employee', 'manager', 'finance', 'admin']::text[]))) and coalesce((r.submitter = (select auth.uid())), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['manager']::text[]))) and coalesce(((r.submitter = (select auth.uid())) or (((select _h1_r.manager from public.person _h1_r where _h1_r.id = r.submitter and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['employee', 'manager', 'finance', 'admin']::text[]))) and coalesce((((_h1_r.id = (select auth.uid())) or (_h1_r.id = (select _me1__h1_r.manager from public.person _me1__h1_r where _me1__h1_r.id = (select auth.uid())))) or app.has_role(_h1_r.id, 'finance')), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['manager']::text[]))) and coalesce((_h1_r.manager = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['finance']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false)) = (select auth.uid())) and (r.status <> 'draft'))), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['finance']::text[]))) and coalesce(((r.submitter = (select auth.uid())) or (r.status <> 'draft')), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'claim', 'id', p_id)::text;
  end if;
  if not (app.has_role((select auth.uid()), 'finance')) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'claim', 'action', 'finance_approve')::text;
  end if;
  if p_version is not null and r.version <> p_version then
    raise exception using errcode = 'P0001', message = 'CONFLICT', detail = jsonb_build_object('entity', 'claim', 'id', p_id, 'version', p_version, 'current', r.version)::text;
  end if;
  v_from := r.status;
  if v_from is null or v_from not in ('approved') then
    raise exception using errcode = 'P0001', message = 'INVALID_TRANSITION', detail = jsonb_build_object('entity', 'claim', 'transition', 'finance_approve', 'from', v_from)::text;
  end if;
  perform app.lock_group('line.claim', (r.id)::text);
  perform app.lock_group('receipt.claim', (r.id)::text);
  select * into r from public.claim x where x.id = p_id;
  if not coalesce((r.submitter <> (select auth.uid())), false) then
    raise exception using errcode = 'P0001', message = 'SELF_APPROVAL', detail = jsonb_build_object('entity', 'claim', 'action', 'finance_approve')::text;
  end if;
  perform set_config('ninefold.in_transition', 'on', true);
  begin
    update public.claim x set
      finance_approved_by = (select auth.uid()),
      finance_approved_at = now(),
      status = 'finance_approved'
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
  insert into public.claim_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'finance_approve', v_from, 'finance_approved', (select auth.uid()), '{}'::jsonb);
  return r;
end;
$fn$;
revoke execute on function public.claim_finance_approve(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.claim_finance_approve(uuid, integer, jsonb) to authenticated;

-- Transition claim.send_back: submitted, approved, finance_approved -> returned (manager, finance).
create or replace function public.claim_send_back(p_id uuid, p_version integer default null, p_input jsonb default '{}'::jsonb)
returns public.claim
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  r public.claim;
  v_from text;
begin
  select * into r from public.claim x where x.id = p_id for no key update;
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['employee', 'manager', 'finance', 'admin']::text[]))) and coalesce((r.submitter = (select auth.uid())), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['manager']::text[]))) and coalesce(((r.submitter = (select auth.uid())) or (((select _h1_r.manager from public.person _h1_r where _h1_r.id = r.submitter and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['employee', 'manager', 'finance', 'admin']::text[]))) and coalesce((((_h1_r.id = (select auth.uid())) or (_h1_r.id = (select _me1__h1_r.manager from public.person _me1__h1_r where _me1__h1_r.id = (select auth.uid())))) or app.has_role(_h1_r.id, 'finance')), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['manager']::text[]))) and coalesce((_h1_r.manager = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['finance']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false)) = (select auth.uid())) and (r.status <> 'draft'))), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['finance']::text[]))) and coalesce(((r.submitter = (select auth.uid())) or (r.status <> 'draft')), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'claim', 'id', p_id)::text;
  end if;
  if not (app.has_role((select auth.uid()), 'manager') or app.has_role((select auth.uid()), 'finance')) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'claim', 'action', 'send_back')::text;
  end if;
  if p_version is not null and r.version <> p_version then
    raise exception using errcode = 'P0001', message = 'CONFLICT', detail = jsonb_build_object('entity', 'claim', 'id', p_id, 'version', p_version, 'current', r.version)::text;
  end if;
  v_from := r.status;
  if v_from is null or v_from not in ('submitted', 'approved', 'finance_approved') then
    raise exception using errcode = 'P0001', message = 'INVALID_TRANSITION', detail = jsonb_build_object('entity', 'claim', 'transition', 'send_back', 'from', v_from)::text;
  end if;
  perform app.lock_group('line.claim', (r.id)::text);
  perform app.lock_group('receipt.claim', (r.id)::text);
  select * into r from public.claim x where x.id = p_id;
  if not coalesce(((r.submitter <> (select auth.uid())) and (((select _h1.manager from public.person _h1 where _h1.id = r.submitter) = (select auth.uid())) or app.has_role((select auth.uid()), 'finance'))), false) then
    raise exception using errcode = 'P0001', message = 'NOT_APPROVER', detail = jsonb_build_object('entity', 'claim', 'action', 'send_back')::text;
  end if;
  if p_input -> 'returnReason' is null or jsonb_typeof(p_input -> 'returnReason') = 'null' or btrim((p_input ->> 'returnReason'), E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '' then
    raise exception using errcode = 'P0001', message = 'INPUT_REQUIRED', detail = jsonb_build_object('entity', 'claim', 'transition', 'send_back', 'field', 'returnReason')::text;
  end if;
  perform set_config('ninefold.in_transition', 'on', true);
  begin
    update public.claim x set
      return_reason = (p_input ->> 'returnReason')::text,
      approved_by = null,
      approved_at = null,
      finance_approved_by = null,
      finance_approved_at = null,
      status = 'returned'
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
  insert into public.claim_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'send_back', v_from, 'returned', (select auth.uid()), jsonb_build_object('returnReason', p_input -> 'returnReason'));
  return r;
end;
$fn$;
revoke execute on function public.claim_send_back(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.claim_send_back(uuid, integer, jsonb) to authenticated;

-- Transition claim.reject: submitted, approved, finance_approved -> rejected (manager, finance).
create or replace function public.claim_reject(p_id uuid, p_version integer default null, p_input jsonb default '{}'::jsonb)
returns public.claim
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  r public.claim;
  v_from text;
begin
  select * into r from public.claim x where x.id = p_id for no key update;
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['employee', 'manager', 'finance', 'admin']::text[]))) and coalesce((r.submitter = (select auth.uid())), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['manager']::text[]))) and coalesce(((r.submitter = (select auth.uid())) or (((select _h1_r.manager from public.person _h1_r where _h1_r.id = r.submitter and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['employee', 'manager', 'finance', 'admin']::text[]))) and coalesce((((_h1_r.id = (select auth.uid())) or (_h1_r.id = (select _me1__h1_r.manager from public.person _me1__h1_r where _me1__h1_r.id = (select auth.uid())))) or app.has_role(_h1_r.id, 'finance')), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['manager']::text[]))) and coalesce((_h1_r.manager = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['finance']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false)) = (select auth.uid())) and (r.status <> 'draft'))), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['finance']::text[]))) and coalesce(((r.submitter = (select auth.uid())) or (r.status <> 'draft')), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'claim', 'id', p_id)::text;
  end if;
  if not (app.has_role((select auth.uid()), 'manager') or app.has_role((select auth.uid()), 'finance')) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'claim', 'action', 'reject')::text;
  end if;
  if p_version is not null and r.version <> p_version then
    raise exception using errcode = 'P0001', message = 'CONFLICT', detail = jsonb_build_object('entity', 'claim', 'id', p_id, 'version', p_version, 'current', r.version)::text;
  end if;
  v_from := r.status;
  if v_from is null or v_from not in ('submitted', 'approved', 'finance_approved') then
    raise exception using errcode = 'P0001', message = 'INVALID_TRANSITION', detail = jsonb_build_object('entity', 'claim', 'transition', 'reject', 'from', v_from)::text;
  end if;
  perform app.lock_group('line.claim', (r.id)::text);
  perform app.lock_group('receipt.claim', (r.id)::text);
  select * into r from public.claim x where x.id = p_id;
  if not coalesce(((r.submitter <> (select auth.uid())) and (((select _h1.manager from public.person _h1 where _h1.id = r.submitter) = (select auth.uid())) or app.has_role((select auth.uid()), 'finance'))), false) then
    raise exception using errcode = 'P0001', message = 'NOT_APPROVER', detail = jsonb_build_object('entity', 'claim', 'action', 'reject')::text;
  end if;
  if p_input -> 'rejectionReason' is null or jsonb_typeof(p_input -> 'rejectionReason') = 'null' or btrim((p_input ->> 'rejectionReason'), E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '' then
    raise exception using errcode = 'P0001', message = 'INPUT_REQUIRED', detail = jsonb_build_object('entity', 'claim', 'transition', 'reject', 'field', 'rejectionReason')::text;
  end if;
  perform set_config('ninefold.in_transition', 'on', true);
  begin
    update public.claim x set
      rejection_reason = (p_input ->> 'rejectionReason')::text,
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
  perform set_config('ninefold.in_transition', '', true);
  insert into public.claim_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'reject', v_from, 'rejected', (select auth.uid()), jsonb_build_object('rejectionReason', p_input -> 'rejectionReason'));
  return r;
end;
$fn$;
revoke execute on function public.claim_reject(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.claim_reject(uuid, integer, jsonb) to authenticated;

-- Transition claim.pay: approved, finance_approved -> paid (finance).
create or replace function public.claim_pay(p_id uuid, p_version integer default null, p_input jsonb default '{}'::jsonb)
returns public.claim
language plpgsql volatile security definer
set search_path = ''
as $fn$
declare
  r public.claim;
  v_from text;
begin
  select * into r from public.claim x where x.id = p_id for no key update;
  if not found or not coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['employee', 'manager', 'finance', 'admin']::text[]))) and coalesce((r.submitter = (select auth.uid())), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['manager']::text[]))) and coalesce(((r.submitter = (select auth.uid())) or (((select _h1_r.manager from public.person _h1_r where _h1_r.id = r.submitter and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['employee', 'manager', 'finance', 'admin']::text[]))) and coalesce((((_h1_r.id = (select auth.uid())) or (_h1_r.id = (select _me1__h1_r.manager from public.person _me1__h1_r where _me1__h1_r.id = (select auth.uid())))) or app.has_role(_h1_r.id, 'finance')), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['manager']::text[]))) and coalesce((_h1_r.manager = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['finance']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false)) = (select auth.uid())) and (r.status <> 'draft'))), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['finance']::text[]))) and coalesce(((r.submitter = (select auth.uid())) or (r.status <> 'draft')), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array['admin']::text[]))), false) then
    raise exception using errcode = 'P0001', message = 'NOT_FOUND', detail = jsonb_build_object('entity', 'claim', 'id', p_id)::text;
  end if;
  if not (app.has_role((select auth.uid()), 'finance')) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'claim', 'action', 'pay')::text;
  end if;
  if p_version is not null and r.version <> p_version then
    raise exception using errcode = 'P0001', message = 'CONFLICT', detail = jsonb_build_object('entity', 'claim', 'id', p_id, 'version', p_version, 'current', r.version)::text;
  end if;
  v_from := r.status;
  if v_from is null or v_from not in ('approved', 'finance_approved') then
    raise exception using errcode = 'P0001', message = 'INVALID_TRANSITION', detail = jsonb_build_object('entity', 'claim', 'transition', 'pay', 'from', v_from)::text;
  end if;
  perform app.lock_group('line.claim', (r.id)::text);
  perform app.lock_group('receipt.claim', (r.id)::text);
  select * into r from public.claim x where x.id = p_id;
  if not coalesce(((((((not (r.finance_approved_by is null)) or ((r.currency = 'EUR') and (r.total <= 1000))) or ((r.currency = 'USD') and (r.total <= 1100))) or ((r.currency = 'GBP') and (r.total <= 850))) or ((r.currency = 'CHF') and (r.total <= 950))) or ((r.currency = 'SEK') and (r.total <= 11500))), false) then
    raise exception using errcode = 'P0001', message = 'FINANCE_APPROVAL_REQUIRED', detail = jsonb_build_object('entity', 'claim', 'action', 'pay')::text;
  end if;
  if p_input -> 'paymentReference' is null or jsonb_typeof(p_input -> 'paymentReference') = 'null' or btrim((p_input ->> 'paymentReference'), E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') = '' then
    raise exception using errcode = 'P0001', message = 'INPUT_REQUIRED', detail = jsonb_build_object('entity', 'claim', 'transition', 'pay', 'field', 'paymentReference')::text;
  end if;
  perform set_config('ninefold.in_transition', 'on', true);
  begin
    update public.claim x set
      payment_reference = (p_input ->> 'paymentReference')::text,
      paid_at = now(),
      paid_by = (select auth.uid()),
      status = 'paid'
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
  insert into public.claim_history (row_id, transition, from_state, to_state, actor, input)
  values (r.id, 'pay', v_from, 'paid', (select auth.uid()), jsonb_build_object('paymentReference', p_input -> 'paymentReference'));
  if not (app.has_role((select auth.uid()), 'finance')) then
    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('entity', 'claim', 'action', 'pay', 'call', 'exportJournalEntry')::text;
  end if;
  perform app.outbox_write('exportJournalEntry', p_input -> 'calls' -> 'exportJournalEntry', jsonb_strip_nulls(jsonb_build_object('claimId', to_jsonb((r.id)::uuid), 'reference', to_jsonb(regexp_replace((r.payment_reference)::text, '[\x01-\x1f\x7f-\x9f\u2028\u2029]', ' ', 'g')), 'employeeEmail', to_jsonb(regexp_replace(((select _h1.email from public.person _h1 where _h1.id = r.submitter))::text, '[\x01-\x1f\x7f-\x9f\u2028\u2029]', ' ', 'g')), 'costCentre', to_jsonb(regexp_replace(((select _h1.cost_centre from public.person _h1 where _h1.id = r.submitter))::text, '[\x01-\x1f\x7f-\x9f\u2028\u2029]', ' ', 'g')), 'currency', to_jsonb(regexp_replace((r.currency)::text, '[\x01-\x1f\x7f-\x9f\u2028\u2029]', ' ', 'g')), 'total', to_jsonb((r.total)::numeric), 'paidAt', to_jsonb((r.paid_at)::timestamptz), 'lines', coalesce((select jsonb_agg(jsonb_strip_nulls(jsonb_build_object('date', to_jsonb((_item1.date)::date), 'category', to_jsonb(regexp_replace((_item1.category)::text, '[\x01-\x1f\x7f-\x9f\u2028\u2029]', ' ', 'g')), 'description', to_jsonb(regexp_replace((_item1.description)::text, '[\x01-\x1f\x7f-\x9f\u2028\u2029]', ' ', 'g')), 'amount', to_jsonb((_item1.amount)::numeric))) order by _item1.created_at, _item1.id) from public.line _item1 where _item1.claim = r.id), '[]'::jsonb))), 'claim', r.id, 'pay');
  return r;
end;
$fn$;
revoke execute on function public.claim_pay(uuid, integer, jsonb) from public, anon, authenticated;
grant execute on function public.claim_pay(uuid, integer, jsonb) to authenticated;

-- ======================================================================
-- Row-level security
-- ======================================================================

alter table public.person enable row level security;
alter table public.person force row level security;
-- person: a read inside its own read policy that would re-enter it, without RLS (no policy recursion)
create or replace function app.person__self_read_1(p_row public.person)
returns uuid
language sql stable security definer
set search_path = ''
as $fn$
select (select _me1.manager from public.person _me1 where _me1.id = (select auth.uid()));
$fn$;
revoke execute on function app.person__self_read_1(public.person) from public, anon, authenticated;
grant execute on function app.person__self_read_1(public.person) to authenticated;
drop policy if exists person__employee__read on public.person;
create policy person__employee__read on public.person as permissive for select to authenticated using (((select app.has_role((select auth.uid()), 'employee')) and coalesce((((person.id = (select auth.uid())) or (person.id = app.person__self_read_1(person))) or app.has_role(person.id, 'finance')), false)));
drop policy if exists person__employee__update on public.person;
create policy person__employee__update on public.person as permissive for update to authenticated using (((select app.has_role((select auth.uid()), 'employee')) and coalesce((person.id = (select auth.uid())), false))) with check (((select app.has_role((select auth.uid()), 'employee')) and coalesce((person.id = (select auth.uid())), false)));
drop policy if exists person__manager__read on public.person;
create policy person__manager__read on public.person as permissive for select to authenticated using (((select app.has_role((select auth.uid()), 'manager')) and coalesce((person.manager = (select auth.uid())), false)));
drop policy if exists person__manager__update on public.person;
create policy person__manager__update on public.person as permissive for update to authenticated using (((select app.has_role((select auth.uid()), 'manager')) and coalesce((person.id = (select auth.uid())), false))) with check (((select app.has_role((select auth.uid()), 'manager')) and coalesce((person.id = (select auth.uid())), false)));
drop policy if exists person__finance__read on public.person;
create policy person__finance__read on public.person as permissive for select to authenticated using ((select app.has_role((select auth.uid()), 'finance')));
drop policy if exists person__finance__update on public.person;
create policy person__finance__update on public.person as permissive for update to authenticated using (((select app.has_role((select auth.uid()), 'finance')) and coalesce((person.id = (select auth.uid())), false))) with check (((select app.has_role((select auth.uid()), 'finance')) and coalesce((person.id = (select auth.uid())), false)));
drop policy if exists person__admin__read on public.person;
create policy person__admin__read on public.person as permissive for select to authenticated using ((select app.has_role((select auth.uid()), 'admin')));
drop policy if exists person__admin__update on public.person;
create policy person__admin__update on public.person as permissive for update to authenticated using ((select app.has_role((select auth.uid()), 'admin'))) with check ((select app.has_role((select auth.uid()), 'admin')));
drop policy if exists person__admin__delete on public.person;
create policy person__admin__delete on public.person as permissive for delete to authenticated using (((select app.has_role((select auth.uid()), 'admin')) and coalesce((person.id <> (select auth.uid())), false)));

alter table public.claim enable row level security;
alter table public.claim force row level security;
drop policy if exists claim__employee__read on public.claim;
create policy claim__employee__read on public.claim as permissive for select to authenticated using (((select app.has_role((select auth.uid()), 'employee')) and coalesce((claim.submitter = (select auth.uid())), false)));
drop policy if exists claim__employee__create on public.claim;
create policy claim__employee__create on public.claim as permissive for insert to authenticated with check ((select app.has_role((select auth.uid()), 'employee')));
drop policy if exists claim__employee__update on public.claim;
create policy claim__employee__update on public.claim as permissive for update to authenticated using (((select app.has_role((select auth.uid()), 'employee')) and coalesce(((claim.submitter = (select auth.uid())) and (claim.status in ('draft', 'returned'))), false))) with check (((select app.has_role((select auth.uid()), 'employee')) and coalesce(((claim.submitter = (select auth.uid())) and (claim.status in ('draft', 'returned'))), false)));
drop policy if exists claim__employee__delete on public.claim;
create policy claim__employee__delete on public.claim as permissive for delete to authenticated using (((select app.has_role((select auth.uid()), 'employee')) and coalesce(((claim.submitter = (select auth.uid())) and (claim.status = 'draft')), false)));
drop policy if exists claim__manager__read on public.claim;
create policy claim__manager__read on public.claim as permissive for select to authenticated using (((select app.has_role((select auth.uid()), 'manager')) and coalesce(((claim.submitter = (select auth.uid())) or (((select _h1.manager from public.person _h1 where _h1.id = claim.submitter) = (select auth.uid())) and (claim.status <> 'draft'))), false)));
drop policy if exists claim__manager__create on public.claim;
create policy claim__manager__create on public.claim as permissive for insert to authenticated with check ((select app.has_role((select auth.uid()), 'manager')));
drop policy if exists claim__manager__update on public.claim;
create policy claim__manager__update on public.claim as permissive for update to authenticated using (((select app.has_role((select auth.uid()), 'manager')) and coalesce(((claim.submitter = (select auth.uid())) and (claim.status in ('draft', 'returned'))), false))) with check (((select app.has_role((select auth.uid()), 'manager')) and coalesce(((claim.submitter = (select auth.uid())) and (claim.status in ('draft', 'returned'))), false)));
drop policy if exists claim__manager__delete on public.claim;
create policy claim__manager__delete on public.claim as permissive for delete to authenticated using (((select app.has_role((select auth.uid()), 'manager')) and coalesce(((claim.submitter = (select auth.uid())) and (claim.status = 'draft')), false)));
drop policy if exists claim__finance__read on public.claim;
create policy claim__finance__read on public.claim as permissive for select to authenticated using (((select app.has_role((select auth.uid()), 'finance')) and coalesce(((claim.submitter = (select auth.uid())) or (claim.status <> 'draft')), false)));
drop policy if exists claim__finance__create on public.claim;
create policy claim__finance__create on public.claim as permissive for insert to authenticated with check ((select app.has_role((select auth.uid()), 'finance')));
drop policy if exists claim__finance__update on public.claim;
create policy claim__finance__update on public.claim as permissive for update to authenticated using (((select app.has_role((select auth.uid()), 'finance')) and coalesce(((claim.submitter = (select auth.uid())) and (claim.status in ('draft', 'returned'))), false))) with check (((select app.has_role((select auth.uid()), 'finance')) and coalesce(((claim.submitter = (select auth.uid())) and (claim.status in ('draft', 'returned'))), false)));
drop policy if exists claim__finance__delete on public.claim;
create policy claim__finance__delete on public.claim as permissive for delete to authenticated using (((select app.has_role((select auth.uid()), 'finance')) and coalesce(((claim.submitter = (select auth.uid())) and (claim.status = 'draft')), false)));
drop policy if exists claim__admin__read on public.claim;
create policy claim__admin__read on public.claim as permissive for select to authenticated using ((select app.has_role((select auth.uid()), 'admin')));
drop policy if exists claim__admin__create on public.claim;
create policy claim__admin__create on public.claim as permissive for insert to authenticated with check ((select app.has_role((select auth.uid()), 'admin')));
drop policy if exists claim__admin__update on public.claim;
create policy claim__admin__update on public.claim as permissive for update to authenticated using (((select app.has_role((select auth.uid()), 'admin')) and coalesce(((claim.submitter = (select auth.uid())) and (claim.status in ('draft', 'returned'))), false))) with check (((select app.has_role((select auth.uid()), 'admin')) and coalesce(((claim.submitter = (select auth.uid())) and (claim.status in ('draft', 'returned'))), false)));
drop policy if exists claim__admin__delete on public.claim;
create policy claim__admin__delete on public.claim as permissive for delete to authenticated using (((select app.has_role((select auth.uid()), 'admin')) and coalesce((claim.status in ('draft', 'rejected')), false)));

alter table public.line enable row level security;
alter table public.line force row level security;
drop policy if exists line__employee__read on public.line;
create policy line__employee__read on public.line as permissive for select to authenticated using (((select app.has_role((select auth.uid()), 'employee')) and coalesce((line.submitter = (select auth.uid())), false)));
drop policy if exists line__employee__create on public.line;
create policy line__employee__create on public.line as permissive for insert to authenticated with check (((select app.has_role((select auth.uid()), 'employee')) and coalesce((((select _h1.submitter from public.claim _h1 where _h1.id = line.claim) = (select auth.uid())) and ((select _h2.status from public.claim _h2 where _h2.id = line.claim) in ('draft', 'returned'))), false)));
drop policy if exists line__employee__update on public.line;
create policy line__employee__update on public.line as permissive for update to authenticated using (((select app.has_role((select auth.uid()), 'employee')) and coalesce(((line.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = line.claim) in ('draft', 'returned'))), false))) with check (((select app.has_role((select auth.uid()), 'employee')) and coalesce(((line.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = line.claim) in ('draft', 'returned'))), false)));
drop policy if exists line__employee__delete on public.line;
create policy line__employee__delete on public.line as permissive for delete to authenticated using (((select app.has_role((select auth.uid()), 'employee')) and coalesce(((line.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = line.claim) in ('draft', 'returned'))), false)));
drop policy if exists line__manager__read on public.line;
create policy line__manager__read on public.line as permissive for select to authenticated using (((select app.has_role((select auth.uid()), 'manager')) and coalesce(((line.submitter = (select auth.uid())) or (((select _h1.manager from public.person _h1 where _h1.id = line.submitter) = (select auth.uid())) and ((select _h2.status from public.claim _h2 where _h2.id = line.claim) <> 'draft'))), false)));
drop policy if exists line__manager__create on public.line;
create policy line__manager__create on public.line as permissive for insert to authenticated with check (((select app.has_role((select auth.uid()), 'manager')) and coalesce((((select _h1.submitter from public.claim _h1 where _h1.id = line.claim) = (select auth.uid())) and ((select _h2.status from public.claim _h2 where _h2.id = line.claim) in ('draft', 'returned'))), false)));
drop policy if exists line__manager__update on public.line;
create policy line__manager__update on public.line as permissive for update to authenticated using (((select app.has_role((select auth.uid()), 'manager')) and coalesce(((line.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = line.claim) in ('draft', 'returned'))), false))) with check (((select app.has_role((select auth.uid()), 'manager')) and coalesce(((line.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = line.claim) in ('draft', 'returned'))), false)));
drop policy if exists line__manager__delete on public.line;
create policy line__manager__delete on public.line as permissive for delete to authenticated using (((select app.has_role((select auth.uid()), 'manager')) and coalesce(((line.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = line.claim) in ('draft', 'returned'))), false)));
drop policy if exists line__finance__read on public.line;
create policy line__finance__read on public.line as permissive for select to authenticated using (((select app.has_role((select auth.uid()), 'finance')) and coalesce(((line.submitter = (select auth.uid())) or ((select _h1.status from public.claim _h1 where _h1.id = line.claim) <> 'draft')), false)));
drop policy if exists line__finance__create on public.line;
create policy line__finance__create on public.line as permissive for insert to authenticated with check (((select app.has_role((select auth.uid()), 'finance')) and coalesce((((select _h1.submitter from public.claim _h1 where _h1.id = line.claim) = (select auth.uid())) and ((select _h2.status from public.claim _h2 where _h2.id = line.claim) in ('draft', 'returned'))), false)));
drop policy if exists line__finance__update on public.line;
create policy line__finance__update on public.line as permissive for update to authenticated using (((select app.has_role((select auth.uid()), 'finance')) and coalesce(((line.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = line.claim) in ('draft', 'returned'))), false))) with check (((select app.has_role((select auth.uid()), 'finance')) and coalesce(((line.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = line.claim) in ('draft', 'returned'))), false)));
drop policy if exists line__finance__delete on public.line;
create policy line__finance__delete on public.line as permissive for delete to authenticated using (((select app.has_role((select auth.uid()), 'finance')) and coalesce(((line.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = line.claim) in ('draft', 'returned'))), false)));
drop policy if exists line__admin__read on public.line;
create policy line__admin__read on public.line as permissive for select to authenticated using ((select app.has_role((select auth.uid()), 'admin')));
drop policy if exists line__admin__create on public.line;
create policy line__admin__create on public.line as permissive for insert to authenticated with check (((select app.has_role((select auth.uid()), 'admin')) and coalesce((((select _h1.submitter from public.claim _h1 where _h1.id = line.claim) = (select auth.uid())) and ((select _h2.status from public.claim _h2 where _h2.id = line.claim) in ('draft', 'returned'))), false)));
drop policy if exists line__admin__update on public.line;
create policy line__admin__update on public.line as permissive for update to authenticated using (((select app.has_role((select auth.uid()), 'admin')) and coalesce(((line.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = line.claim) in ('draft', 'returned'))), false))) with check (((select app.has_role((select auth.uid()), 'admin')) and coalesce(((line.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = line.claim) in ('draft', 'returned'))), false)));
drop policy if exists line__admin__delete on public.line;
create policy line__admin__delete on public.line as permissive for delete to authenticated using (((select app.has_role((select auth.uid()), 'admin')) and coalesce(((line.submitter = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = line.claim) in ('draft', 'returned'))), false)));

alter table public.receipt enable row level security;
alter table public.receipt force row level security;
drop policy if exists receipt__employee__read on public.receipt;
create policy receipt__employee__read on public.receipt as permissive for select to authenticated using (((select app.has_role((select auth.uid()), 'employee')) and coalesce((receipt.uploaded_by = (select auth.uid())), false)));
drop policy if exists receipt__employee__create on public.receipt;
create policy receipt__employee__create on public.receipt as permissive for insert to authenticated with check (((select app.has_role((select auth.uid()), 'employee')) and coalesce((((select _h1.submitter from public.claim _h1 where _h1.id = receipt.claim) = (select auth.uid())) and ((select _h2.status from public.claim _h2 where _h2.id = receipt.claim) in ('draft', 'returned'))), false)));
drop policy if exists receipt__employee__delete on public.receipt;
create policy receipt__employee__delete on public.receipt as permissive for delete to authenticated using (((select app.has_role((select auth.uid()), 'employee')) and coalesce(((receipt.uploaded_by = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = receipt.claim) in ('draft', 'returned'))), false)));
drop policy if exists receipt__manager__read on public.receipt;
create policy receipt__manager__read on public.receipt as permissive for select to authenticated using (((select app.has_role((select auth.uid()), 'manager')) and coalesce(((receipt.uploaded_by = (select auth.uid())) or (((select _h1.manager from public.person _h1 where _h1.id = receipt.uploaded_by) = (select auth.uid())) and ((select _h2.status from public.claim _h2 where _h2.id = receipt.claim) <> 'draft'))), false)));
drop policy if exists receipt__manager__create on public.receipt;
create policy receipt__manager__create on public.receipt as permissive for insert to authenticated with check (((select app.has_role((select auth.uid()), 'manager')) and coalesce((((select _h1.submitter from public.claim _h1 where _h1.id = receipt.claim) = (select auth.uid())) and ((select _h2.status from public.claim _h2 where _h2.id = receipt.claim) in ('draft', 'returned'))), false)));
drop policy if exists receipt__manager__delete on public.receipt;
create policy receipt__manager__delete on public.receipt as permissive for delete to authenticated using (((select app.has_role((select auth.uid()), 'manager')) and coalesce(((receipt.uploaded_by = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = receipt.claim) in ('draft', 'returned'))), false)));
drop policy if exists receipt__finance__read on public.receipt;
create policy receipt__finance__read on public.receipt as permissive for select to authenticated using (((select app.has_role((select auth.uid()), 'finance')) and coalesce(((receipt.uploaded_by = (select auth.uid())) or ((select _h1.status from public.claim _h1 where _h1.id = receipt.claim) <> 'draft')), false)));
drop policy if exists receipt__finance__create on public.receipt;
create policy receipt__finance__create on public.receipt as permissive for insert to authenticated with check (((select app.has_role((select auth.uid()), 'finance')) and coalesce((((select _h1.submitter from public.claim _h1 where _h1.id = receipt.claim) = (select auth.uid())) and ((select _h2.status from public.claim _h2 where _h2.id = receipt.claim) in ('draft', 'returned'))), false)));
drop policy if exists receipt__finance__delete on public.receipt;
create policy receipt__finance__delete on public.receipt as permissive for delete to authenticated using (((select app.has_role((select auth.uid()), 'finance')) and coalesce(((receipt.uploaded_by = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = receipt.claim) in ('draft', 'returned'))), false)));
drop policy if exists receipt__admin__read on public.receipt;
create policy receipt__admin__read on public.receipt as permissive for select to authenticated using ((select app.has_role((select auth.uid()), 'admin')));
drop policy if exists receipt__admin__create on public.receipt;
create policy receipt__admin__create on public.receipt as permissive for insert to authenticated with check (((select app.has_role((select auth.uid()), 'admin')) and coalesce((((select _h1.submitter from public.claim _h1 where _h1.id = receipt.claim) = (select auth.uid())) and ((select _h2.status from public.claim _h2 where _h2.id = receipt.claim) in ('draft', 'returned'))), false)));
drop policy if exists receipt__admin__delete on public.receipt;
create policy receipt__admin__delete on public.receipt as permissive for delete to authenticated using (((select app.has_role((select auth.uid()), 'admin')) and coalesce(((receipt.uploaded_by = (select auth.uid())) and ((select _h1.status from public.claim _h1 where _h1.id = receipt.claim) in ('draft', 'returned'))), false)));

-- ======================================================================
-- Search
-- ======================================================================

create index if not exists person__name__trgm_idx on public.person using gin (name extensions.gin_trgm_ops);
create index if not exists person__email__trgm_idx on public.person using gin (email extensions.gin_trgm_ops);
create index if not exists person__department__trgm_idx on public.person using gin (department extensions.gin_trgm_ops);
-- Search for person: matching ids the caller may read (a security-definer function, so the trigram indexes apply).
create or replace function app.person__search(p_pattern text, p_limit integer)
returns setof uuid
language plpgsql stable security definer
set search_path = ''
set cpu_operator_cost = 0.05
as $fn$
begin
  return query execute 'select t.id from public.person t where (t.name ilike $1 or t.email ilike $1 or t.department ilike $1) and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''employee'', ''manager'', ''finance'', ''admin'']::text[]))) and coalesce((((t.id = (select auth.uid())) or (t.id = (select _me1_t.manager from public.person _me1_t where _me1_t.id = (select auth.uid())))) or app.has_role(t.id, ''finance'')), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''manager'']::text[]))) and coalesce((t.manager = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''finance'']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''admin'']::text[]))), false) limit $2' using p_pattern, p_limit;
end
$fn$;
revoke execute on function app.person__search(text, integer) from public;
grant execute on function app.person__search(text, integer) to authenticated;

create index if not exists claim__title__trgm_idx on public.claim using gin (title extensions.gin_trgm_ops);
create index if not exists claim__purpose__trgm_idx on public.claim using gin (purpose extensions.gin_trgm_ops);
create index if not exists claim__return_reason__trgm_idx on public.claim using gin (return_reason extensions.gin_trgm_ops);
create index if not exists claim__rejection_reason__trgm_idx on public.claim using gin (rejection_reason extensions.gin_trgm_ops);
create index if not exists claim__payment_reference__trgm_idx on public.claim using gin (payment_reference extensions.gin_trgm_ops);
-- Search for claim: matching ids the caller may read (a security-definer function, so the trigram indexes apply).
create or replace function app.claim__search(p_pattern text, p_limit integer)
returns setof uuid
language plpgsql stable security definer
set search_path = ''
set cpu_operator_cost = 0.05
as $fn$
begin
  return query execute 'select t.id from public.claim t where (t.title ilike $1 or t.purpose ilike $1 or t.return_reason ilike $1 or t.rejection_reason ilike $1 or t.payment_reference ilike $1) and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''employee'', ''manager'', ''finance'', ''admin'']::text[]))) and coalesce((t.submitter = (select auth.uid())), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''manager'']::text[]))) and coalesce(((t.submitter = (select auth.uid())) or (((select _h1_t.manager from public.person _h1_t where _h1_t.id = t.submitter and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''employee'', ''manager'', ''finance'', ''admin'']::text[]))) and coalesce((((_h1_t.id = (select auth.uid())) or (_h1_t.id = (select _me1__h1_t.manager from public.person _me1__h1_t where _me1__h1_t.id = (select auth.uid())))) or app.has_role(_h1_t.id, ''finance'')), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''manager'']::text[]))) and coalesce((_h1_t.manager = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''finance'']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''admin'']::text[]))), false)) = (select auth.uid())) and (t.status <> ''draft''))), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''finance'']::text[]))) and coalesce(((t.submitter = (select auth.uid())) or (t.status <> ''draft'')), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''admin'']::text[]))), false) limit $2' using p_pattern, p_limit;
end
$fn$;
revoke execute on function app.claim__search(text, integer) from public;
grant execute on function app.claim__search(text, integer) to authenticated;

create index if not exists line__description__trgm_idx on public.line using gin (description extensions.gin_trgm_ops);
create index if not exists line__merchant__trgm_idx on public.line using gin (merchant extensions.gin_trgm_ops);
-- Search for line: matching ids the caller may read (a security-definer function, so the trigram indexes apply).
create or replace function app.line__search(p_pattern text, p_limit integer)
returns setof uuid
language plpgsql stable security definer
set search_path = ''
set cpu_operator_cost = 0.05
as $fn$
begin
  return query execute 'select t.id from public.line t where (t.description ilike $1 or t.merchant ilike $1) and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''employee'', ''manager'', ''finance'', ''admin'']::text[]))) and coalesce((t.submitter = (select auth.uid())), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''manager'']::text[]))) and coalesce(((t.submitter = (select auth.uid())) or (((select _h1_t.manager from public.person _h1_t where _h1_t.id = t.submitter and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''employee'', ''manager'', ''finance'', ''admin'']::text[]))) and coalesce((((_h1_t.id = (select auth.uid())) or (_h1_t.id = (select _me1__h1_t.manager from public.person _me1__h1_t where _me1__h1_t.id = (select auth.uid())))) or app.has_role(_h1_t.id, ''finance'')), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''manager'']::text[]))) and coalesce((_h1_t.manager = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''finance'']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''admin'']::text[]))), false)) = (select auth.uid())) and ((select _h2_t.status from public.claim _h2_t where _h2_t.id = t.claim and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''employee'', ''manager'', ''finance'', ''admin'']::text[]))) and coalesce((_h2_t.submitter = (select auth.uid())), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''manager'']::text[]))) and coalesce(((_h2_t.submitter = (select auth.uid())) or (((select _h1__h2_t.manager from public.person _h1__h2_t where _h1__h2_t.id = _h2_t.submitter and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''employee'', ''manager'', ''finance'', ''admin'']::text[]))) and coalesce((((_h1__h2_t.id = (select auth.uid())) or (_h1__h2_t.id = (select _me1__h1__h2_t.manager from public.person _me1__h1__h2_t where _me1__h1__h2_t.id = (select auth.uid())))) or app.has_role(_h1__h2_t.id, ''finance'')), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''manager'']::text[]))) and coalesce((_h1__h2_t.manager = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''finance'']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''admin'']::text[]))), false)) = (select auth.uid())) and (_h2_t.status <> ''draft''))), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''finance'']::text[]))) and coalesce(((_h2_t.submitter = (select auth.uid())) or (_h2_t.status <> ''draft'')), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''admin'']::text[]))), false)) <> ''draft''))), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''finance'']::text[]))) and coalesce(((t.submitter = (select auth.uid())) or ((select _h1_t.status from public.claim _h1_t where _h1_t.id = t.claim and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''employee'', ''manager'', ''finance'', ''admin'']::text[]))) and coalesce((_h1_t.submitter = (select auth.uid())), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''manager'']::text[]))) and coalesce(((_h1_t.submitter = (select auth.uid())) or (((select _h1__h1_t.manager from public.person _h1__h1_t where _h1__h1_t.id = _h1_t.submitter and coalesce(((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''employee'', ''manager'', ''finance'', ''admin'']::text[]))) and coalesce((((_h1__h1_t.id = (select auth.uid())) or (_h1__h1_t.id = (select _me1__h1__h1_t.manager from public.person _me1__h1__h1_t where _me1__h1__h1_t.id = (select auth.uid())))) or app.has_role(_h1__h1_t.id, ''finance'')), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''manager'']::text[]))) and coalesce((_h1__h1_t.manager = (select auth.uid())), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''finance'']::text[]))) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''admin'']::text[]))), false)) = (select auth.uid())) and (_h1_t.status <> ''draft''))), false)) or ((exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''finance'']::text[]))) and coalesce(((_h1_t.submitter = (select auth.uid())) or (_h1_t.status <> ''draft'')), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''admin'']::text[]))), false)) <> ''draft'')), false)) or (exists (select 1 from app.user_roles _ur where _ur.user_id = (select auth.uid()) and _ur.role = any (array[''admin'']::text[]))), false) limit $2' using p_pattern, p_limit;
end
$fn$;
revoke execute on function app.line__search(text, integer) from public;
grant execute on function app.line__search(text, integer) to authenticated;

-- ======================================================================
-- Privileges
-- ======================================================================

revoke all on table public.person from anon, authenticated;
grant select on table public.person to authenticated;
grant update (name, email, manager, department, cost_centre, employee_number) on table public.person to authenticated;
grant delete on table public.person to authenticated;

revoke all on table public.claim from anon, authenticated;
grant select on table public.claim to authenticated;
grant insert (title, purpose, currency) on table public.claim to authenticated;
grant update (title, purpose, currency) on table public.claim to authenticated;
grant delete on table public.claim to authenticated;
revoke all on table public.claim_history from anon, authenticated;
grant select on table public.claim_history to authenticated;

revoke all on table public.line from anon, authenticated;
grant select on table public.line to authenticated;
grant insert (claim, date, category, description, merchant, distance_km, amount, currency) on table public.line to authenticated;
grant update (date, category, description, merchant, distance_km, amount, currency) on table public.line to authenticated;
grant delete on table public.line to authenticated;

revoke all on table public.receipt from anon, authenticated;
grant select on table public.receipt to authenticated;
grant insert (name, size_bytes, mime_type, content, claim, line) on table public.receipt to authenticated;
grant delete on table public.receipt to authenticated;

-- ======================================================================
-- Screen filters
-- ======================================================================

-- Screen myClaims: the rows of claim it lists (submitter = me).
create or replace function public.claim__where_my_claims(p_row public.claim)
returns boolean
language sql stable
as $fn$
select (p_row.submitter = (select auth.uid()))
$fn$;
revoke execute on function public.claim__where_my_claims(public.claim) from public, anon, authenticated;
grant execute on function public.claim__where_my_claims(public.claim) to authenticated;

-- Screen approvals: the rows of claim it lists (status = submitted and submitter.manager = me).
create or replace function public.claim__where_approvals(p_row public.claim)
returns boolean
language sql stable
as $fn$
select ((p_row.status = 'submitted') and ((select _h1.manager from public.person _h1 where _h1.id = p_row.submitter) = (select auth.uid())))
$fn$;
revoke execute on function public.claim__where_approvals(public.claim) from public, anon, authenticated;
grant execute on function public.claim__where_approvals(public.claim) to authenticated;

-- Screen finance: the rows of claim it lists (status in (approved, finance_approved)).
create or replace function public.claim__where_finance(p_row public.claim)
returns boolean
language sql stable
as $fn$
select (p_row.status in ('approved', 'finance_approved'))
$fn$;
revoke execute on function public.claim__where_finance(public.claim) from public, anon, authenticated;
grant execute on function public.claim__where_finance(public.claim) to authenticated;

-- Screen board: the rows of claim it lists (status != draft).
create or replace function public.claim__where_board(p_row public.claim)
returns boolean
language sql stable
as $fn$
select (p_row.status <> 'draft')
$fn$;
revoke execute on function public.claim__where_board(public.claim) from public, anon, authenticated;
grant execute on function public.claim__where_board(public.claim) to authenticated;

-- Screen paid: the rows of claim it lists (status = paid).
create or replace function public.claim__where_paid(p_row public.claim)
returns boolean
language sql stable
as $fn$
select (p_row.status = 'paid')
$fn$;
revoke execute on function public.claim__where_paid(public.claim) from public, anon, authenticated;
grant execute on function public.claim__where_paid(public.claim) to authenticated;

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
