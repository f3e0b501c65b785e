import type { AppModel } from '../model/appModel.ts';
import { humanize } from '../runtime/availableTransitions.ts';
import { ui } from '../runtime/uiText.ts';

const IMPLICIT = {
  createdAt: 'fieldCreatedAt',
  updatedAt: 'fieldUpdatedAt',
  size: 'fieldSize',
  name: 'fieldName',
} as const;

/** A field's label from the specification, else its name made readable. */
export function fieldLabel(model: AppModel, entity: string, field: string): string {
  const own = model.tables.get(entity)?.spec.fields[field]?.label;
  if (own) return own;
  return Object.hasOwn(IMPLICIT, field) ? ui(IMPLICIT[field as keyof typeof IMPLICIT]) : humanize(field);
}
