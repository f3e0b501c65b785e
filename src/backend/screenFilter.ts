import type { AppModel } from '../model/appModel.ts';
import { screenWhereFunctionName } from '../naming.ts';
import { BackendError } from './types.ts';

/**
 * The function (unqualified, in `public`) applying screen `screen`'s `where` rule to rows of
 * `entity`, for a list query that names the screen. A screen without a rule, or of another
 * entity, is `INVALID_INPUT`: the caller asked for a filter the migration does not have.
 *
 * @example
 * screenFilterFunction(model, 'poll', 'awaitingMyVote'); // 'poll__where_awaiting_my_vote'
 */
export function screenFilterFunction(model: AppModel, entity: string, screen: string): string {
  const s = model.screens.get(screen);
  if (!s || s.spec.where === undefined || s.entity !== entity)
    throw new BackendError('INVALID_INPUT', { entity, screen, reason: 'unknown-screen-filter' });
  return screenWhereFunctionName(entity, screen);
}
