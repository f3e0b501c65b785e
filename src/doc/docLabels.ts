import type { AppModel } from '../model/appModel.ts';
import * as plain from './labels.ts';
import { mdText } from './markdown.ts';

/**
 * The labels of src/doc/labels.ts as the document prints them where they name something (lists
 * of names, rule and type words, headings): Markdown characters escaped (`mdText`), so a label
 * such as `Due *date*` is read back by `ninefold import` as written, not as emphasis. Columns
 * that define a label (Label) print it as written; the importer reads those cells raw.
 */

export function entityLabel(model: AppModel, entity: string): string {
  return mdText(plain.entityLabel(model, entity));
}

export function entityPlural(model: AppModel, entity: string): string {
  return mdText(plain.entityPlural(model, entity));
}

export function fieldLabel(model: AppModel, entity: string, field: string): string {
  return mdText(plain.fieldLabel(model, entity, field));
}

export function roleLabel(model: AppModel, role: string): string {
  return mdText(plain.roleLabel(model, role));
}

export function stateLabel(model: AppModel, entity: string, state: string): string {
  return mdText(plain.stateLabel(model, entity, state));
}

export function transitionLabel(model: AppModel, entity: string, transition: string): string {
  return mdText(plain.transitionLabel(model, entity, transition));
}

export function fieldPathLabel(model: AppModel, path: string): string {
  const [entity, field] = path.split('.');
  if (!entity || !field || !model.tables.has(entity)) return path;
  return `${fieldLabel(model, entity, field)} (${entityLabel(model, entity)})`;
}

export { stateNames } from './labels.ts';
