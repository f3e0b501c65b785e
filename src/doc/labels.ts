import type { AppModel } from '../model/appModel.ts';
import { humanize } from '../model/humanize.ts';
import type { FieldSpec } from '../spec/types.ts';

/**
 * Words for names: the specification's own labels where it has them (resolved in the model),
 * otherwise the name spelled out (`createdAt` → `Created at`), so the document never shows a bare
 * identifier where a person expects a word.
 */

export { humanize };

export function entityLabel(model: AppModel, entity: string): string {
  return model.tables.get(entity)?.label ?? humanize(entity);
}

export function entityPlural(model: AppModel, entity: string): string {
  return model.tables.get(entity)?.plural ?? `${humanize(entity)}s`;
}

/** A declared field (file fields included: they are fields, not columns). */
export function fieldSpec(model: AppModel, entity: string, field: string): FieldSpec | undefined {
  const fields = model.tables.get(entity)?.spec.fields;
  return fields && Object.hasOwn(fields, field) ? fields[field] : undefined;
}

const IMPLICIT: Record<string, string> = {
  id: 'Id',
  createdAt: 'Created at',
  updatedAt: 'Updated at',
  version: 'Version',
};

export function fieldLabel(model: AppModel, entity: string, field: string): string {
  return fieldSpec(model, entity, field)?.label ?? IMPLICIT[field] ?? humanize(field);
}

export function roleLabel(model: AppModel, role: string): string {
  return model.roles.get(role)?.label ?? humanize(role);
}

/** A state's label: the status column's values carry the states' labels (src/model/columnValues.ts). */
export function stateLabel(model: AppModel, entity: string, state: string): string {
  const t = model.tables.get(entity);
  const values = t?.statusField === undefined ? undefined : t.byField.get(t.statusField)?.values;
  return values?.find((v) => v.value === state)?.label ?? humanize(state);
}

export function transitionLabel(model: AppModel, entity: string, transition: string): string {
  return (
    model.transitions.find((t) => t.entity === entity && t.name === transition)?.label ?? humanize(transition)
  );
}

/** The states of an entity with a lifecycle (the values of its status column), else undefined. */
export function stateNames(model: AppModel, entity: string): string[] | undefined {
  const t = model.tables.get(entity);
  if (t?.statusField === undefined) return undefined;
  return (t.byField.get(t.statusField)?.values ?? []).map((v) => v.value);
}

/** `ticket.title` → `Title (Ticket)`; unknown paths are shown as written. */
export function fieldPathLabel(model: AppModel, path: string): string {
  const [entity, field] = path.split('.');
  if (!entity || !field || !model.tables.has(entity)) return path;
  return `${fieldLabel(model, entity, field)} (${entityLabel(model, entity)})`;
}
