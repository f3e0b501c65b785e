import type { Diagnostic } from '../../diagnostics.ts';
import { at } from '../../spec/specShape.ts';
import type { AppSpec } from '../../spec/types.ts';

/**
 * Fields marked `audited` that no history can record: the entity has no states (so no history),
 * and the field is not a reference to a parent that has one.
 *
 * @example
 * auditedWithoutHistory(spec); // [{ code: 'lint/audited-without-history', path: 'entities.tag.fields.name.audited', ... }]
 */
export function auditedWithoutHistory(spec: AppSpec): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const [entity, e] of Object.entries(spec.entities))
    for (const [name, f] of Object.entries(e.fields)) {
      if (!f.audited || spec.states[entity]) continue;
      if (f.type === 'ref' && f.ref && spec.states[f.ref]) continue;
      out.push({
        code: 'lint/audited-without-history',
        severity: 'warning',
        path: at(at(at(at('entities', entity), 'fields'), name), 'audited'),
        message: `"${entity}.${name}" is audited but "${entity}" has no states, so no history`,
        hint: 'give the entity states, or mark a reference to a parent that has states',
      });
    }
  return out;
}
