import type { EntityPermissions, Permission } from './types.ts';

type Action = 'read' | 'create' | 'update' | 'delete';

/**
 * When a role's permission for `action` is granted, as a plain permission: the `when` of an update
 * or of a create with `becomes`, the value itself otherwise; undefined when not declared.
 *
 * @example
 * grantWhen({ create: { when: 'me is orgAdmin', becomes: 'role != owner' } }, 'create') // 'me is orgAdmin'
 */
export function grantWhen(perms: EntityPermissions | undefined, action: Action): Permission | undefined {
  if (!perms) return undefined;
  if (action === 'update')
    return perms.update === undefined ? undefined : perms.update ? perms.update.when : false;
  const p = perms[action];
  return typeof p === 'object' ? p.when : p;
}

/**
 * The rule over the row as it will be that a granted update or create must also satisfy, with the
 * catalogue code it raises when declared; undefined for a permission without one.
 */
export function grantBecomes(
  perms: EntityPermissions | undefined,
  action: Action,
): { becomes: string; error?: string } | undefined {
  const p = action === 'update' ? perms?.update : action === 'create' ? perms?.create : undefined;
  if (typeof p !== 'object' || !p || p.becomes === undefined) return undefined;
  return { becomes: p.becomes, ...(p.error !== undefined ? { error: p.error } : {}) };
}
