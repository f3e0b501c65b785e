import type { AppSpec } from '../spec/types.ts';
import type { AppModel } from './appModel.ts';
import { resolve } from './resolve.ts';

/**
 * What a public entry accepts: the app's specification, resolved at the door (once: `resolve` is
 * cached per spec object), or a model already resolved. Nothing past the door reads the spec.
 */
export type SpecOrModel = AppSpec | AppModel;

/** Whether `app` is a resolved model (its tables are a map; a specification has `entities`). */
export function isModel(app: SpecOrModel): app is AppModel {
  return 'tables' in app && app.tables instanceof Map;
}

/**
 * The model of what a public entry was given.
 *
 * @example
 * modelOf(helpdesk) === resolve(helpdesk); // true
 * modelOf(resolve(helpdesk)) === resolve(helpdesk); // true
 */
export function modelOf(app: SpecOrModel): AppModel {
  return isModel(app) ? app : resolve(app);
}
