import type { AppSpec, EntitySpec } from '../spec/types.ts';
import { textCeiling } from '../spec/valueLimits.ts';

/** The default length ceiling of each field of an entity that has one (src/spec/valueLimits.ts). */
export function textCeilingsOf(spec: AppSpec, entity: string, e: EntitySpec): Map<string, number> {
  const out = new Map<string, number>();
  for (const [field, f] of Object.entries(e.fields)) {
    const max = textCeiling(spec, entity, field, f);
    if (max !== undefined) out.set(field, max);
  }
  return out;
}
