import type { AppModel } from '../model/index.ts';
import { emitRoleRecheck } from './emitRoleRecheck.ts';
import { quoteLiteral, quoteTextArray } from './quote.ts';
import { raiseSql } from './raise.ts';
import { adminRoles, holdersOf } from './specModel.ts';
import { sqlFunction } from './sqlFunction.ts';

/**
 * User administration for both targets, callable through PostgREST (`public` schema):
 * `public.admin_list_users()` (users with their direct roles; `auth.users` is not readable by the
 * API roles) and `public.set_roles(p_user_id, p_roles)`, which replaces a user's roles in one
 * transaction. Both are SECURITY DEFINER and refuse callers who are not admins (`app.is_admin()`,
 * the same test as `grant_role`/`revoke_role` and the RLS on `app.user_roles`).
 *
 * @example
 * emitAdminRpc(helpdesk); // create or replace function public.admin_list_users() …
 */
export function emitAdminRpc(model: AppModel): string {
  const admins = quoteTextArray(adminRoles(model));
  const named = [...new Set(model.rolesNamedByRules.flatMap((n) => n.roles))].sort();
  return [
    adminListUsers(),
    setRoles(),
    keepAnAdmin(admins),
    roleHolders(model, named),
    'drop trigger if exists user_roles__keep_an_admin on app.user_roles;',
    'create constraint trigger user_roles__keep_an_admin after delete on app.user_roles',
    '  deferrable initially deferred for each row execute function app.keep_an_admin();',
    emitRoleRecheck(model),
  ]
    .filter((s) => s !== '')
    .join('\n');
}

/** The admin test the admin calls open with: FORBIDDEN for anyone else. */
function forbidden(action: string): string {
  return [
    '  if not coalesce(app.is_admin(), false) then',
    `    ${raiseSql('FORBIDDEN', { entity: "'user_roles'", action: `'${action}'` })}`,
    '  end if;',
  ].join('\n');
}

/** `public.admin_list_users()`: users and their direct roles (`auth.users` is not readable by the API roles). */
function adminListUsers(): string {
  return sqlFunction({
    name: 'public.admin_list_users',
    args: '',
    argTypes: '',
    returns: 'table (id uuid, email text, roles text[], created_at timestamptz)',
    language: 'plpgsql',
    volatility: 'stable',
    securityDefiner: true,
    body: [
      'begin',
      forbidden('list'),
      '  return query',
      '    select u.id, u.email::text,',
      '      coalesce(array_agg(ur.role order by ur.role) filter (where ur.role is not null), array[]::text[]),',
      '      u.created_at::timestamptz',
      '    from auth.users u left join app.user_roles ur on ur.user_id = u.id',
      '    group by u.id order by u.created_at, u.email;',
      'end;',
    ].join('\n'),
    executeTo: ['authenticated'],
    comment: 'Users and their direct roles (admins only).',
  });
}

/** `public.set_roles(p_user_id, p_roles)`: replaces a user's direct roles in one transaction. */
function setRoles(): string {
  return sqlFunction({
    name: 'public.set_roles',
    args: 'p_user_id uuid, p_roles text[]',
    argTypes: 'uuid, text[]',
    returns: 'void',
    language: 'plpgsql',
    volatility: 'volatile',
    securityDefiner: true,
    body: [
      'declare',
      '  v_roles text[];',
      'begin',
      forbidden('set'),
      '  if p_roles is null then',
      `    ${raiseSql('INPUT_REQUIRED', { entity: "'user_roles'", field: "'roles'" })}`,
      '  end if;',
      '  if not exists (select 1 from auth.users u where u.id = p_user_id) then',
      `    ${raiseSql('NOT_FOUND', { entity: "'user'", id: 'p_user_id' })}`,
      '  end if;',
      // Two admins setting the same user's roles at once: one waits, the other's result wins whole.
      '  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(p_user_id::text, 0));',
      '  v_roles := array(select distinct r from unnest(p_roles) as r where r is not null order by r);',
      '  delete from app.user_roles ur where ur.user_id = p_user_id and not (ur.role = any (v_roles));',
      // Unknown roles fail the role CHECK (user_roles__role__values) and undo the whole call.
      '  insert into app.user_roles (user_id, role) select p_user_id, r from unnest(v_roles) as r',
      '  on conflict do nothing;',
      'end;',
    ].join('\n'),
    executeTo: ['authenticated'],
    comment: "Replaces a user's direct roles in one transaction (admins only).",
  });
}

/**
 * Whoever removes it (set_roles, revoke_role, a direct delete under RLS), the app keeps one
 * admin: otherwise nobody could ever grant a role again. Checked at commit (deferred), so
 * set_roles may delete and re-insert within its transaction; a user deleted altogether
 * (their roles go by cascade) is not a role removal and passes.
 */
function keepAnAdmin(admins: string): string {
  return sqlFunction({
    name: 'app.keep_an_admin',
    args: '',
    argTypes: '',
    returns: 'trigger',
    language: 'plpgsql',
    volatility: 'volatile',
    securityDefiner: true,
    body: [
      'begin',
      `  if old.role = any (${admins})`,
      '     and exists (select 1 from auth.users u where u.id = old.user_id)',
      `     and not exists (select 1 from app.user_roles ur where ur.role = any (${admins})) then`,
      `    ${raiseSql('LAST_ADMIN')}`,
      '  end if;',
      '  return null;',
      'end;',
    ].join('\n'),
    executeTo: [],
    comment: 'Refuses removing the last admin role (LAST_ADMIN).',
  });
}

/**
 * Forms offer only people the rules accept (`assignee is agent`): who holds a role a validation
 * rule names is public to signed-in users, and only those roles (never, say, who is an admin).
 */
function roleHolders(model: AppModel, named: readonly string[]): string {
  return sqlFunction({
    name: 'public.role_holders',
    args: 'p_role text',
    argTypes: 'text',
    returns: 'table (user_id uuid, role text)',
    language: 'plpgsql',
    volatility: 'stable',
    securityDefiner: true,
    body: [
      'begin',
      `  if (select auth.uid()) is null or not (p_role = any (${quoteTextArray(named)})) then`,
      `    ${raiseSql('FORBIDDEN', { entity: "'user_roles'", action: "'list'" })}`,
      '  end if;',
      // Each holder once, under the role asked: an admin who holds `agent` through `admin` shows
      // as an agent, never as an admin (which roles someone holds besides is not the form's business).
      '  return query select distinct ur.user_id, p_role from app.user_roles ur',
      // No rule names a role: nothing to tell (and a CASE needs at least one WHEN).
      ...(named.length === 0
        ? ['    where false;']
        : [
            '    where ur.role = any (case p_role',
            ...named.map((r) => `      when ${quoteLiteral(r)} then ${quoteTextArray(holdersOf(model, r))}`),
            '      else array[p_role] end);',
          ]),
      'end;',
    ].join('\n'),
    executeTo: ['authenticated'],
    comment: 'Who holds a role a validation rule names (inherited included), for the options forms offer.',
  });
}
