import type { AppModel } from '../model/index.ts';
import type { Typed } from '../rules/ast.ts';
import { typedChildren } from '../rules/typedChildren.ts';
import { enumValueNames } from '../spec/enumValueNames.ts';
import { quoteLiteral, quoteTextArray } from './quote.ts';
import { raiseSql, rowlessReraiseSql } from './raise.ts';
import {
  adminRoles,
  colSql,
  grantsFor,
  holdersOf,
  impliedRoles,
  roleNames,
  sqlType,
  tableOf,
  tableRef,
} from './specModel.ts';
import { indent, sqlFunction, sqlTrigger } from './sqlFunction.ts';

/**
 * Roles some rule of the specification asks about a user other than the caller (`id is agent`,
 * `assignee is agent`). `app.has_role` answers about another user only for these (or to an
 * admin): nobody learns who holds a role the specification never shows.
 */
export function rolesAskedOfOthers(model: AppModel): string[] {
  const out = new Set<string>();
  const visit = (t: Typed) => {
    if (t.kind === 'role' && !(t.subject.kind === 'me' && t.subject.field === undefined)) out.add(t.role);
    for (const c of typedChildren(t)) visit(c);
  };
  for (const r of model.rules) if (r.typed) visit(r.typed);
  return [...out].sort();
}

/**
 * App roles: `app.user_roles` (who holds which role, writable by admins only, never from user
 * metadata), the inheritance-aware helpers the policies call, and role administration calls.
 */
export function emitRoleTable(model: AppModel): string {
  const roles = roleNames(model);
  const admins = adminRoles(model);
  const allowed = roles.length > 0 ? roles.map(quoteLiteral).join(', ') : 'null';
  return [
    'create table if not exists app.user_roles (',
    '  user_id uuid not null references auth.users (id) on delete cascade,',
    `  role text not null constraint user_roles__role__values check (role in (${allowed})),`,
    '  granted_at timestamptz not null default now(),',
    '  primary key (user_id, role)',
    ');',
    'alter table app.user_roles enable row level security;',
    'alter table app.user_roles force row level security;',
    '',
    hasRoleFunction(model, roles, admins),
    '',
    currentRolesFunction(model, roles),
    '',
    isAdminFunction(model, admins),
    '',
    'drop policy if exists user_roles__read on app.user_roles;',
    'create policy user_roles__read on app.user_roles for select to authenticated using (user_id = (select auth.uid()) or (select app.is_admin()));',
    'drop policy if exists user_roles__grant on app.user_roles;',
    'create policy user_roles__grant on app.user_roles for insert to authenticated with check ((select app.is_admin()));',
    'drop policy if exists user_roles__revoke on app.user_roles;',
    'create policy user_roles__revoke on app.user_roles for delete to authenticated using ((select app.is_admin()));',
    'revoke all on table app.user_roles from anon, authenticated;',
    'grant select, insert, delete on table app.user_roles to authenticated;',
    '',
    roleCalls(),
  ].join('\n');
}

/** `app.has_role(user, role)`: the inheritance-aware test the policies call. */
function hasRoleFunction(model: AppModel, roles: readonly string[], admins: readonly string[]): string {
  return sqlFunction({
    name: 'app.has_role',
    args: 'p_user_id uuid, p_role text',
    argTypes: 'uuid, text',
    returns: 'boolean',
    language: 'sql',
    volatility: 'stable',
    securityDefiner: true,
    // Inheritance is resolved here once: holding `admin` counts as holding every role admin inherits.
    // About the caller; about anyone for roles the rules ask of others; about anyone to an admin
    // or outside a client request (no JWT: the owner, seeds, maintenance).
    body: [
      'select exists (',
      '  select 1 from app.user_roles ur',
      '  where ur.user_id = p_user_id',
      '    and (p_user_id = (select auth.uid()) or (select auth.uid()) is null',
      `      or p_role = any (${quoteTextArray(rolesAskedOfOthers(model))})`,
      `      or exists (select 1 from app.user_roles a where a.user_id = (select auth.uid()) and a.role = any (${quoteTextArray(admins)})))`,
      '    and ur.role = any (case p_role',
      ...roles.map((r) => `      when ${quoteLiteral(r)} then ${quoteTextArray(holdersOf(model, r))}`),
      '      else array[p_role] end)',
      ')',
    ].join('\n'),
    executeTo: ['authenticated'],
    comment:
      'Whether a user holds a role, directly or through a role that inherits it. Null user: false. Only about the caller, unless the rules ask it of others or the caller is an admin.',
  });
}

/** `app.current_roles()`: the signed-in user's roles, inherited ones included. */
function currentRolesFunction(model: AppModel, roles: readonly string[]): string {
  return sqlFunction({
    name: 'app.current_roles',
    args: '',
    argTypes: '',
    returns: 'text[]',
    language: 'sql',
    volatility: 'stable',
    securityDefiner: true,
    body: [
      'select coalesce(array_agg(distinct r.role order by r.role), array[]::text[])',
      'from app.user_roles ur',
      'cross join lateral unnest(case ur.role',
      ...roles.map((r) => `  when ${quoteLiteral(r)} then ${quoteTextArray(impliedRoles(model, r))}`),
      '  else array[ur.role] end) as r(role)',
      'where ur.user_id = (select auth.uid())',
    ].join('\n'),
    executeTo: ['authenticated'],
    comment: "The signed-in user's roles, inherited ones included.",
  });
}

/** `app.is_admin()`: the test every role administration call and policy applies. */
function isAdminFunction(model: AppModel, admins: readonly string[]): string {
  return sqlFunction({
    name: 'app.is_admin',
    args: '',
    argTypes: '',
    returns: 'boolean',
    language: 'sql',
    volatility: 'stable',
    securityDefiner: true,
    body: `select exists (select 1 from app.user_roles ur where ur.user_id = (select auth.uid()) and ur.role = any (${quoteTextArray(admins)}))`,
    executeTo: ['authenticated'],
    comment: `Admins manage roles: roles that may update every ${model.profile ?? 'profile'} row (${admins.join(', ') || 'none'}).`,
  });
}

/** The role calls of the client: its own roles, a user's direct roles, grant and revoke (admins only). */
function roleCalls(): string {
  return [
    sqlFunction({
      name: 'public.my_roles',
      args: '',
      argTypes: '',
      returns: 'text[]',
      language: 'sql',
      volatility: 'stable',
      securityDefiner: false,
      body: 'select app.current_roles()',
      executeTo: ['authenticated'],
      comment: "The caller's roles (inherited included), for the client.",
    }),
    '',
    sqlFunction({
      name: 'public.user_roles',
      args: 'p_user_id uuid',
      argTypes: 'uuid',
      returns: 'text[]',
      language: 'sql',
      volatility: 'stable',
      securityDefiner: false,
      body: 'select coalesce(array_agg(ur.role order by ur.role), array[]::text[]) from app.user_roles ur where ur.user_id = p_user_id',
      executeTo: ['authenticated'],
      comment: 'Roles held directly by a user (RLS: yourself, or any user if you are an admin).',
    }),
    '',
    sqlFunction({
      name: 'public.grant_role',
      args: 'p_user_id uuid, p_role text',
      argTypes: 'uuid, text',
      returns: 'void',
      language: 'plpgsql',
      volatility: 'volatile',
      securityDefiner: false,
      body: [
        'begin',
        '  if not app.is_admin() then',
        `    ${raiseSql('FORBIDDEN', { entity: "'user_roles'", action: "'grant'" })}`,
        '  end if;',
        '  insert into app.user_roles (user_id, role) values (p_user_id, p_role) on conflict do nothing;',
        'end;',
      ].join('\n'),
      executeTo: ['authenticated'],
      comment: 'Grants a role (admins only).',
    }),
    '',
    sqlFunction({
      name: 'public.revoke_role',
      args: 'p_user_id uuid, p_role text',
      argTypes: 'uuid, text',
      returns: 'void',
      language: 'plpgsql',
      volatility: 'volatile',
      securityDefiner: false,
      body: [
        'begin',
        '  if not app.is_admin() then',
        `    ${raiseSql('FORBIDDEN', { entity: "'user_roles'", action: "'revoke'" })}`,
        '  end if;',
        '  delete from app.user_roles ur where ur.user_id = p_user_id and ur.role = p_role;',
        'end;',
      ].join('\n'),
      executeTo: ['authenticated'],
      comment: 'Revokes a role (admins only).',
    }),
  ].join('\n');
}

/**
 * Keeps the profile table in step with `auth.users`: a new auth user gets a profile row and the
 * sign-up roles. Only display text is taken from the (user-editable) sign-up metadata; references,
 * numbers and roles never are.
 */
export function emitProfileSync(model: AppModel): string {
  const profile = model.profile;
  const signup = roleNames(model).filter((r) => model.roles.get(r)?.signup);
  const cols = ['id'];
  const vals = ['new.id'];
  const pt = profile ? tableOf(model, profile) : undefined;
  const pe = pt?.spec;
  const st = pt?.statusField === undefined ? undefined : { field: pt.statusField };
  // Sign-up data (user metadata, chosen by whoever signs up) fills only the profile fields a new
  // user may write on their own profile anyway; a department or cost centre only admins set is
  // never taken from it (docs/security.md, "Sign-up").
  const held = new Set(signup.flatMap((r) => impliedRoles(model, r)));
  const selfWritable = new Set(
    profile
      ? grantsFor(model, profile).flatMap((g) =>
          g.action === 'update' && held.has(g.role) ? (g.fields ?? []) : [],
        )
      : [],
  );
  for (const [field, f] of Object.entries(pe?.fields ?? {})) {
    let v: string | undefined;
    const meta = selfWritable.has(field)
      ? `nullif(new.raw_user_meta_data ->> ${quoteLiteral(field)}, '')`
      : 'null::text';
    if (f.type === 'email') v = 'new.email';
    else if (f.type === 'text' || f.type === 'longtext')
      v = f.required
        ? `coalesce(${meta}, split_part(new.email, '@', 1))`
        : selfWritable.has(field)
          ? meta
          : undefined;
    else if (
      f.required &&
      f.default === undefined &&
      f.type === 'enum' &&
      enumValueNames(f)?.[0] !== undefined &&
      st?.field !== field
    ) {
      v = quoteLiteral(enumValueNames(f)?.[0] ?? null);
    }
    if (v === undefined) continue;
    cols.push(colSql(model, profile as string, field));
    vals.push(f.type === 'email' || f.type === 'text' || f.type === 'longtext' ? v : `${v}::${sqlType(f)}`);
  }
  const body = ['begin'];
  if (profile) {
    // Sign-up metadata that breaks a profile rule (a name too long) refuses the sign-up with the
    // rule's constraint, never with the profile row in the error (rowlessReraiseSql).
    body.push(
      '  begin',
      `    insert into ${tableRef(model, profile)} (${cols.join(', ')})`,
      `    values (${vals.join(', ')})`,
      '    on conflict (id) do nothing;',
      indent(rowlessReraiseSql()),
      '  end;',
    );
  }
  for (const r of signup) {
    body.push(
      `  insert into app.user_roles (user_id, role) values (new.id, ${quoteLiteral(r)}) on conflict do nothing;`,
    );
  }
  body.push('  return new;', 'end;');
  return [
    sqlFunction({
      name: 'app.on_auth_user_created',
      args: '',
      argTypes: '',
      returns: 'trigger',
      language: 'plpgsql',
      volatility: 'volatile',
      securityDefiner: true,
      body: body.join('\n'),
      executeTo: [],
      comment: `A new auth user gets a ${profile ?? 'profile'} row and the sign-up roles (${signup.join(', ') || 'none'}).`,
    }),
    sqlTrigger('ninefold_on_auth_user_created', 'after insert', 'auth.users', 'app.on_auth_user_created'),
    ...emitEmailSync(model, profile),
  ].join('\n');
}

/**
 * The profile's e-mail fields follow the account's e-mail (a changed sign-in address changes the
 * profile in the same transaction), so rules and screens never read a stale address.
 */
function emitEmailSync(model: AppModel, profile: string | undefined): string[] {
  const fields = Object.entries((profile ? model.tables.get(profile)?.spec.fields : undefined) ?? {})
    .filter(([, f]) => f.type === 'email')
    .map(([n]) => n);
  if (!profile || fields.length === 0) return [];
  const sets = fields.map((f) => `${colSql(model, profile, f)} = new.email`).join(', ');
  return [
    sqlFunction({
      name: 'app.on_auth_user_email_changed',
      args: '',
      argTypes: '',
      returns: 'trigger',
      language: 'plpgsql',
      volatility: 'volatile',
      securityDefiner: true,
      body: `begin\n  update ${tableRef(model, profile)} set ${sets} where id = new.id;\n  return new;\nend;`,
      executeTo: [],
      comment: `The ${profile}'s e-mail follows the account's e-mail.`,
    }),
    'create or replace trigger ninefold_on_auth_user_email_changed after update of email on auth.users for each row when (old.email is distinct from new.email) execute function app.on_auth_user_email_changed();',
  ];
}
