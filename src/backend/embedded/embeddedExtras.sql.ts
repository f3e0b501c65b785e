import type { AppSpec } from '../../spec/types.ts';
import { quoteLiteral } from '../../sql/quote.ts';
import { sqlFunction } from '../../sql/sqlFunction.ts';

/**
 * SQL the embedded backend adds after the migration (the parts Supabase provides as services):
 * - `ninefold.sessions`: hashes of session tokens (GoTrue's job on Supabase); owner-only schema.
 * - `app.outbox`: what declared calls would have sent, written only through
 *   `app.record_outbox` (SECURITY DEFINER, checks the call's roles), readable by admins only.
 * Idempotent, like the migration.
 *
 * @example
 * await db.exec(AUTH_STAND_IN_SQL + compileMigration(spec) + embeddedExtrasSql(spec));
 */
export function embeddedExtrasSql(spec: AppSpec): string {
  const calls = Object.entries(spec.calls.declared);
  const roleCase = calls.length
    ? [
        '  v_allowed := case p_call',
        ...calls.map(
          ([name, c]) =>
            `    when ${quoteLiteral(name)} then ${c.roles.length ? c.roles.map((r) => `app.has_role(v_uid, ${quoteLiteral(r)})`).join(' or ') : 'false'}`,
        ),
        '    else false end;',
      ]
    : ['  v_allowed := false;'];
  return [
    '-- Ninefold embedded extras (sessions, outbox, user administration).',
    'create schema if not exists ninefold;',
    'revoke all on schema ninefold from public;',
    'create table if not exists ninefold.sessions (',
    '  token_hash text primary key,',
    '  user_id uuid not null references auth.users (id) on delete cascade,',
    '  created_at timestamptz not null default now(),',
    '  expires_at timestamptz not null',
    ');',
    'create index if not exists sessions__user_id__idx on ninefold.sessions (user_id);',
    '',
    'create table if not exists app.outbox (',
    '  id uuid primary key default gen_random_uuid(),',
    '  call text not null,',
    '  payload jsonb not null,',
    '  requested_by uuid references auth.users (id) on delete set null,',
    '  created_at timestamptz not null default now()',
    ');',
    'alter table app.outbox enable row level security;',
    'alter table app.outbox force row level security;',
    'drop policy if exists outbox__read on app.outbox;',
    'create policy outbox__read on app.outbox for select to authenticated using ((select app.is_admin()));',
    'revoke all on table app.outbox from anon, authenticated;',
    'grant select on table app.outbox to authenticated;',
    '',
    sqlFunction({
      name: 'app.record_outbox',
      args: 'p_call text, p_payload jsonb',
      argTypes: 'text, jsonb',
      returns: 'uuid',
      language: 'plpgsql',
      volatility: 'volatile',
      securityDefiner: true,
      body: [
        'declare',
        '  v_uid uuid := auth.uid();',
        '  v_allowed boolean;',
        '  v_id uuid;',
        'begin',
        ...roleCase,
        '  if v_uid is null or not coalesce(v_allowed, false) then',
        "    raise exception using errcode = 'P0001', message = 'FORBIDDEN', detail = jsonb_build_object('call', p_call)::text;",
        '  end if;',
        '  insert into app.outbox (call, payload, requested_by) values (p_call, p_payload, v_uid) returning id into v_id;',
        '  return v_id;',
        'end;',
      ].join('\n'),
      executeTo: ['authenticated'],
      comment: 'Records what a declared call would send (embedded stand-in for the hosted service).',
    }),
    '',
  ].join('\n');
}
