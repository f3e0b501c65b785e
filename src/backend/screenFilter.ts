import { screenWhereFunctionName } from '../naming.ts';
import type { AppSpec } from '../spec/types.ts';
import { BackendError } from './types.ts';

/**
 * The function (unqualified, in `public`) applying screen `screen`'s `where` rule to rows of
 * `entity`, for a list query that names the screen. A screen without a rule, or of another
 * entity, is `INVALID_INPUT`: the caller asked for a filter the migration does not have.
 *
 * @example
 * screenFilterFunction(spec, 'poll', 'awaitingMyVote'); // 'poll__where_awaiting_my_vote'
 */
export function screenFilterFunction(spec: AppSpec, entity: string, screen: string): string {
  const s = Object.hasOwn(spec.screens, screen) ? spec.screens[screen] : undefined;
  if (!s || s.where === undefined || s.entity !== entity)
    throw new BackendError('INVALID_INPUT', { entity, screen, reason: 'unknown-screen-filter' });
  return screenWhereFunctionName(entity, screen);
}
