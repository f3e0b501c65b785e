import { type AdminPort, type AdminUser, BackendError } from '../types.ts';
import { ROLES_RPC } from './authPort.ts';
import { run, type SupabaseContext } from './supabaseContext.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * RPC functions administration relies on. `admin_list_users` and `set_roles` come from the
 * supabase-target migration (src/sql/emitAdminRpc.ts); `grant_role`, `revoke_role` and `user_roles`
 * (src/sql/emitRoles.ts) are the fallback for projects migrated before `set_roles` existed.
 */
export const ADMIN_RPC = {
  listUsers: 'admin_list_users',
  setRoles: 'set_roles',
  grant: 'grant_role',
  revoke: 'revoke_role',
  roleHolders: 'role_holders',
} as const;

interface ListedUser {
  id: string;
  email: string | null;
  roles: string[] | null;
  created_at: string;
}

/**
 * Users and roles through RPC functions that check `app.is_admin()` themselves: the database
 * decides who may administer, as in the embedded backend.
 *
 * @example
 * await backend.admin.setRoles(userId, ['agent']);
 */
export function createAdminPort(
  ctx: SupabaseContext,
  ownRolesChanged: (userId: string) => Promise<void>,
): AdminPort {
  const { client } = ctx;
  return {
    async listUsers() {
      const { data } = await run(ctx, client.rpc(ADMIN_RPC.listUsers));
      return ((data ?? []) as ListedUser[]).map(
        (u): AdminUser => ({
          id: u.id,
          email: u.email ?? '',
          roles: u.roles ?? [],
          createdAt: new Date(u.created_at).toISOString(),
        }),
      );
    },

    async roleHolders(role) {
      const { data } = await run(ctx, client.rpc(ADMIN_RPC.roleHolders, { p_role: role }));
      return ((data ?? []) as { user_id: string; role: string }[]).map((x) => ({
        userId: x.user_id,
        role: x.role,
      }));
    },

    async setRoles(userId, roles) {
      const known = [...ctx.model.roles.keys()];
      const unknown = roles.filter((r) => !known.includes(r));
      if (unknown.length) throw new BackendError('INVALID_INPUT', { field: 'roles', unknown });
      if (!UUID.test(userId)) throw new BackendError('NOT_FOUND', { entity: 'user', id: userId });
      // One call, one transaction: set_roles checks the caller is an admin and replaces the roles whole.
      const atomic = await client.rpc(ADMIN_RPC.setRoles, { p_user_id: userId, p_roles: [...roles] });
      if (atomic.error?.code !== 'PGRST202') {
        await run(ctx, Promise.resolve(atomic));
        await ownRolesChanged(userId);
        return;
      }
      // PGRST202: the project's migration predates set_roles.
      const { data } = await run(ctx, client.rpc(ROLES_RPC, { p_user_id: userId }));
      const current = Array.isArray(data) ? data.filter((r): r is string => typeof r === 'string') : [];
      // One call per change: grant_role/revoke_role each check the caller is an admin. Not atomic
      // (PostgREST runs each RPC in its own transaction); a failure leaves the earlier changes.
      for (const r of roles.filter((x) => !current.includes(x))) {
        await run(ctx, client.rpc(ADMIN_RPC.grant, { p_user_id: userId, p_role: r }));
      }
      for (const r of current.filter((x) => !roles.includes(x))) {
        await run(ctx, client.rpc(ADMIN_RPC.revoke, { p_user_id: userId, p_role: r }));
      }
      await ownRolesChanged(userId);
    },
  };
}
