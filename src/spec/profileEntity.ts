import type { AppSpec } from './types.ts';

/**
 * The entity marked `profile: true` (the app's users), if any: the one lookup of it below the
 * model (`AppModel.profile` above it).
 *
 * @example
 * profileEntity(helpdesk); // 'person'
 */
export function profileEntity(spec: Pick<AppSpec, 'entities'>): string | undefined {
  for (const [name, e] of Object.entries(spec.entities)) if (e.profile) return name;
  return undefined;
}
