import type { AppModel } from '../model/appModel.ts';
import { buildPath, type RouteTable } from './routeTable.ts';

/** Where a related list's "add" goes: the entity's create form, its parent filled in. */
export interface RelatedAddLink {
  /** `/tasks/new?project=<id>`: the form prefills the parent from the query (prefill.ts). */
  to: string;
  /** The form's title ("New task"), as list screens and the navigation say it. */
  title: string;
}

/**
 * The link a related list (`task.project` on a project's page) offers to add a row: the create
 * form screen of `entity` with `?<field>=<parent id>`, when there is one and it asks for `field`
 * (a form listing its fields without it could not take the parent). Whether the person may create
 * the row is the caller's question (the same `can` the list screens' "New …" button asks).
 *
 * @example
 * relatedAddLink(model, routes, 'task', 'project', 'p1'); // { to: '/tasks/new?project=p1', title: 'New task' }
 */
export function relatedAddLink(
  model: AppModel,
  routes: RouteTable,
  entity: string,
  field: string,
  parentId: string,
): RelatedAddLink | undefined {
  const form = routes.find('form', entity, 'create');
  if (!form) return undefined;
  const fields = model.screens.get(form.name)?.spec?.fields;
  if (fields !== undefined && !fields.includes(field)) return undefined;
  const query = new URLSearchParams({ [field]: parentId });
  return { to: `${buildPath(form)}?${query.toString()}`, title: form.title };
}
