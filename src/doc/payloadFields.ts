import type { AppSpec } from '../spec/types.ts';
import { type ACTIONS, effectiveGrants } from './effectivePermissions.ts';

/**
 * Fields a creating role may send. Everything except what the system fills in: owner fields
 * (the creating user), the status field (the initial state) and fields that only transitions
 * write (named in a transition's `set` or `input` and in no role's update fields).
 *
 * @example
 * createFields(spec, 'loan'); // ['device', 'reason', 'returnBy']
 */
export function createFields(spec: AppSpec, entity: string): string[] {
  const e = spec.entities[entity];
  if (!e) return [];
  const states = spec.states[entity];
  const byTransition = new Set(
    Object.values(states?.transitions ?? {}).flatMap((t) => [
      ...Object.keys(t.set ?? {}),
      ...(t.input ?? []),
    ]),
  );
  const editable = new Set(updateFields(spec, entity));
  return Object.entries(e.fields)
    .filter(([name, f]) => {
      if (f.owner) return false;
      if (states && name === states.field) return false;
      return !byTransition.has(name) || editable.has(name);
    })
    .map(([name]) => name);
}

/** Fields some role may change with an update, in the entity's field order. */
export function updateFields(spec: AppSpec, entity: string): string[] {
  const e = spec.entities[entity];
  if (!e) return [];
  const any = new Set(
    Object.keys(spec.roles.roles).flatMap((role) =>
      effectiveGrants(spec, role, entity, 'update').flatMap((g) => g.fields ?? []),
    ),
  );
  return Object.keys(e.fields).filter((f) => any.has(f));
}

/** Roles with any effective permission for each action on an entity, in the spec's role order. */
export function rolesAllowed(spec: AppSpec, entity: string): Record<(typeof ACTIONS)[number], string[]> {
  const roles = Object.keys(spec.roles.roles);
  const of = (action: (typeof ACTIONS)[number]) =>
    roles.filter((r) => effectiveGrants(spec, r, entity, action).length > 0);
  return { read: of('read'), create: of('create'), update: of('update'), delete: of('delete') };
}
