import type { AppModel } from '../model/appModel.ts';
import { type ACTIONS, effectiveGrants } from './effectivePermissions.ts';

/**
 * Fields a creating role may send. Everything except what the system fills in: owner fields
 * (the creating user), the status field (the initial state), computed fields (the server's) and fields that only transitions
 * write (named in a transition's `set` or `input` and in no role's update fields).
 *
 * @example
 * createFields(model, 'loan'); // ['device', 'reason', 'returnBy']
 */
export function createFields(model: AppModel, entity: string): string[] {
  const e = model.tables.get(entity)?.spec;
  if (!e) return [];
  const statusField = model.tables.get(entity)?.statusField;
  const byTransition = new Set(
    model.transitions
      .filter((t) => t.entity === entity)
      .flatMap((t) => [...Object.keys(t.set), ...t.input, ...t.optionalInput]),
  );
  const editable = new Set(updateFields(model, entity));
  return Object.entries(e.fields)
    .filter(([name, f]) => {
      if (f.owner || f.computed !== undefined) return false;
      if (name === statusField) return false;
      return !byTransition.has(name) || editable.has(name);
    })
    .map(([name]) => name);
}

/** Fields some role may change with an update, in the entity's field order. */
export function updateFields(model: AppModel, entity: string): string[] {
  const e = model.tables.get(entity)?.spec;
  if (!e) return [];
  const any = new Set(
    [...model.roles.keys()].flatMap((role) =>
      effectiveGrants(model, role, entity, 'update').flatMap((g) => g.fields ?? []),
    ),
  );
  return Object.keys(e.fields).filter((f) => any.has(f));
}

/** Roles with any effective permission for each action on an entity, in the spec's role order. */
export function rolesAllowed(model: AppModel, entity: string): Record<(typeof ACTIONS)[number], string[]> {
  const roles = [...model.roles.keys()];
  const of = (action: (typeof ACTIONS)[number]) =>
    roles.filter((r) => effectiveGrants(model, r, entity, action).length > 0);
  return { read: of('read'), create: of('create'), update: of('update'), delete: of('delete') };
}
