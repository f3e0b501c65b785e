import { humanize } from '../model/humanize.ts';
import type { AppSpec, FieldSpec } from '../spec/types.ts';

/**
 * Words for names: the specification's own labels where it has them, otherwise the name
 * spelled out (`createdAt` → `Created at`), so the document never shows a bare identifier
 * where a person expects a word.
 */

export { humanize };

export function entityLabel(spec: AppSpec, entity: string): string {
  return spec.entities[entity]?.label ?? humanize(entity);
}

export function entityPlural(spec: AppSpec, entity: string): string {
  const e = spec.entities[entity];
  return e?.plural ?? `${entityLabel(spec, entity)}s`;
}

export function fieldSpec(spec: AppSpec, entity: string, field: string): FieldSpec | undefined {
  return spec.entities[entity]?.fields[field];
}

const IMPLICIT: Record<string, string> = {
  id: 'Id',
  createdAt: 'Created at',
  updatedAt: 'Updated at',
  version: 'Version',
};

export function fieldLabel(spec: AppSpec, entity: string, field: string): string {
  return fieldSpec(spec, entity, field)?.label ?? IMPLICIT[field] ?? humanize(field);
}

export function roleLabel(spec: AppSpec, role: string): string {
  return spec.roles.roles[role]?.label ?? humanize(role);
}

export function stateLabel(spec: AppSpec, entity: string, state: string): string {
  return spec.states[entity]?.states[state]?.label ?? humanize(state);
}

export function transitionLabel(spec: AppSpec, entity: string, transition: string): string {
  return spec.states[entity]?.transitions[transition]?.label ?? humanize(transition);
}

/** `ticket.title` → `Title (Ticket)`; unknown paths are shown as written. */
export function fieldPathLabel(spec: AppSpec, path: string): string {
  const [entity, field] = path.split('.');
  if (!entity || !field || !spec.entities[entity]) return path;
  return `${fieldLabel(spec, entity, field)} (${entityLabel(spec, entity)})`;
}
