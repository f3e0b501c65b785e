import type { Diagnostic } from '../../diagnostics.ts';
import { didYouMean } from '../../spec/didYouMean.ts';
import { own } from '../../spec/specRefs.ts';
import { at } from '../../spec/specShape.ts';
import type { AppSpec } from '../../spec/types.ts';
import { errorUses } from '../errorUses.ts';
import { placeholders } from '../placeholders.ts';

const IMPLICIT = ['id', 'createdAt', 'updatedAt', 'version'];

/**
 * Message placeholders that name no constant, no declared parameter (`params`) and no field. Fields are looked up on the
 * entities the error is about (its `field`, the rules raising it); an error about no entity
 * in particular may name a field of any entity.
 *
 * @example
 * unknownPlaceholders(spec); // [{ code: 'lint/unknown-placeholder', path: 'errors.TITLE_TOO_LONG.message', ... }]
 */
export function unknownPlaceholders(spec: AppSpec): Diagnostic[] {
  const uses = errorUses(spec);
  const out: Diagnostic[] = [];
  for (const [code, e] of Object.entries(spec.errors)) {
    const entities = new Set<string>();
    if (e.field !== undefined) entities.add(e.field.split('.')[0] ?? '');
    for (const u of uses) if (u.code === code && u.entity !== null) entities.add(u.entity);
    const scope = entities.size > 0 ? [...entities] : Object.keys(spec.entities);
    const fields = new Set(IMPLICIT);
    for (const en of scope) for (const f of Object.keys(own(spec.entities, en)?.fields ?? {})) fields.add(f);
    const declared = Object.keys(e.params ?? {});
    const names = [...Object.keys(spec.constants), ...declared, ...fields];
    for (const p of placeholders(e.message)) {
      const head = p.split('.')[0] ?? '';
      if (Object.hasOwn(spec.constants, head) || fields.has(head) || declared.includes(head)) continue;
      const elsewhere = Object.values(spec.entities).some((en) => Object.hasOwn(en.fields, head));
      out.push({
        code: 'lint/unknown-placeholder',
        severity: 'error',
        path: at(at('errors', code), 'message'),
        message: `placeholder {${p}} names no constant, no parameter and no field of ${scope.join(' or ') || 'any entity'}`,
        hint:
          didYouMean(head, names) ??
          (elsewhere
            ? `declare it, e.g. params: { ${head}: 'other.${head}' } for the row the rule's count finds`
            : 'use a constant name, a field name, or declare it under params'),
      });
    }
  }
  return out;
}
