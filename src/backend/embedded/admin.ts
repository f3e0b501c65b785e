import { type AdminPort, type AdminUser, BackendError } from '../types.ts';
import type { EmbeddedContext } from './context.ts';
import { asCaller, QUERY_OPTIONS } from './request.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * User and role administration, as the caller: the database (`app.is_admin`, `public.grant_role`,
 * `public.revoke_role`, `app.admin_list_users`) decides who may.
 *
 * @example
 * await backend.admin.setRoles(userId, ['agent']);
 */
export function createAdminPort(ctx: EmbeddedContext, onOwnRolesChanged: () => Promise<void>): AdminPort {
  return {
    async listUsers() {
      return asCaller(
        ctx,
        async (tx) => {
          const r = await tx.query<{ id: string; email: string; roles: string[]; created_at: string }>(
            'select id, email, roles, created_at from app.admin_list_users()',
            [],
            QUERY_OPTIONS,
          );
          return r.rows.map(
            (u): AdminUser => ({ id: u.id, email: u.email, roles: u.roles, createdAt: u.created_at }),
          );
        },
        { signedIn: true },
      );
    },

    async setRoles(userId, roles) {
      const known = Object.keys(ctx.spec.roles.roles);
      const unknown = roles.filter((r) => !known.includes(r));
      if (unknown.length) throw new BackendError('INVALID_INPUT', { field: 'roles', unknown });
      if (!UUID.test(userId)) throw new BackendError('NOT_FOUND', { entity: 'user', id: userId });
      const self = await asCaller(
        ctx,
        async (tx, user) => {
          const admin = await tx.query<{ ok: boolean }>('select app.is_admin() as ok');
          if (!admin.rows[0]?.ok)
            throw new BackendError('FORBIDDEN', { entity: 'user_roles', action: 'set' });
          const held = await tx.query<{ roles: string[] }>('select public.user_roles($1) as roles', [userId]);
          const current = held.rows[0]?.roles ?? [];
          for (const r of roles.filter((x) => !current.includes(x))) {
            await tx.query('select public.grant_role($1, $2)', [userId, r]);
          }
          for (const r of current.filter((x) => !roles.includes(x))) {
            await tx.query('select public.revoke_role($1, $2)', [userId, r]);
          }
          return user?.id === userId;
        },
        { signedIn: true },
      );
      if (self) await onOwnRolesChanged();
    },
  };
}
