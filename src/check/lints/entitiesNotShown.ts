import type { Diagnostic } from '../../diagnostics.ts';
import { at } from '../../spec/specShape.ts';
import type { AppSpec } from '../../spec/types.ts';

/**
 * Entities no screen shows, directly or as a related list. The profile entity counts as
 * shown when there is an admin screen (user administration).
 *
 * @example
 * entitiesNotShown(spec); // [{ code: 'lint/entity-not-shown', path: 'entities.tag', ... }]
 */
export function entitiesNotShown(spec: AppSpec): Diagnostic[] {
  const shown = new Set<string>();
  const screens = Object.values(spec.screens);
  for (const s of screens) {
    if (s.entity !== undefined) shown.add(s.entity);
    for (const r of s.related ?? []) shown.add(r.split('.')[0] ?? '');
  }
  const admin = screens.some((s) => s.kind === 'admin');
  const out: Diagnostic[] = [];
  for (const [en, e] of Object.entries(spec.entities)) {
    if (shown.has(en) || (admin && e.profile === true)) continue;
    out.push({
      code: 'lint/entity-not-shown',
      severity: 'warning',
      path: at('entities', en),
      message: `no screen shows ${en} rows`,
      hint: `add a screen with entity: "${en}", or a related list "${en}.<field>" on a detail screen`,
    });
  }
  return out;
}
