import { type AdminPort, type AdminUser, BackendError } from '../types.ts';
import type { EmbeddedContext } from './context.ts';
import { asCaller, QUERY_OPTIONS } from './request.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * User and role administration, as the caller: the migration's `public.admin_list_users` and
 * `public.set_roles` (the same functions the hosted adapter calls) decide who may.
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
            'select id, email, roles, created_at from public.admin_list_users()',
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

    async roleHolders(role) {
      return asCaller(
        ctx,
        async (tx) => {
          const r = await tx.query<{ user_id: string; role: string }>(
            'select user_id, role from public.role_holders($1)',
            [role],
            QUERY_OPTIONS,
          );
          return r.rows.map((x) => ({ userId: x.user_id, role: x.role }));
        },
        { signedIn: true },
      );
    },

    async setRoles(userId, roles) {
      const known = [...ctx.model.roles.keys()];
      const unknown = roles.filter((r) => !known.includes(r));
      if (unknown.length) throw new BackendError('INVALID_INPUT', { field: 'roles', unknown });
      if (!UUID.test(userId)) throw new BackendError('NOT_FOUND', { entity: 'user', id: userId });
      const self = await asCaller(
        ctx,
        async (tx, user) => {
          await tx.query('select public.set_roles($1, $2)', [userId, [...roles]]);
          return user?.id === userId;
        },
        { signedIn: true },
      );
      if (self) await onOwnRolesChanged();
    },
  };
}
