import type { Diagnostic } from '../../diagnostics.ts';
import { checkRule } from '../../rules/index.ts';
import { ruleSites } from '../../spec/ruleSites.ts';
import { at } from '../../spec/specShape.ts';
import type { AppSpec } from '../../spec/types.ts';
import { placeholders } from '../placeholders.ts';

/**
 * Constants nothing refers to: no rule (guards, permissions, validation, screen filters,
 * `set` expressions), no validation limit and no message placeholder names them.
 *
 * @example
 * unusedConstants(spec); // [{ code: 'lint/unused-constant', path: 'constants.maxFiles', ... }]
 */
export function unusedConstants(spec: AppSpec): Diagnostic[] {
  const used = constantsUsed(spec);
  return (
    Object.keys(spec.constants)
      // The time zone is the app's setting, read by every wall-clock function without being named.
      .filter((c) => !used.has(c) && spec.constants[c]?.type !== 'timezone')
      .map((c) => ({
        code: 'lint/unused-constant',
        severity: 'warning',
        path: at('constants', c),
        message: `constant "${c}" is never used`,
        hint: 'refer to it in a rule, a validation limit or a message placeholder, or remove it',
      }))
  );
}

function constantsUsed(spec: AppSpec): Set<string> {
  const used = new Set<string>();
  for (const site of ruleSites(spec)) {
    const r = checkRule(spec, site.text, { entity: site.entity, expect: site.expect });
    // The checked tree knows which names are constants (a field of the same name wins);
    // a rule that does not check still counts its bare names, so one bad rule does not flood warnings.
    if (r.ok) collectConstants(r.typed, used);
    else for (const m of site.text.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) used.add(m[0]);
  }
  for (const rules of Object.values(spec.validation)) {
    for (const r of rules) {
      if (r.kind !== 'field') continue;
      for (const v of [r.minLength, r.maxLength, r.min, r.max]) if (typeof v === 'string') used.add(v);
    }
  }
  for (const e of Object.values(spec.errors))
    for (const p of placeholders(e.message)) used.add(p.split('.')[0]!);
  return used;
}

function collectConstants(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) {
    for (const n of node) collectConstants(n, into);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const rec = node as Record<string, unknown>;
  if (rec.kind === 'const' && typeof rec.name === 'string') into.add(rec.name);
  for (const [k, v] of Object.entries(rec)) if (k !== 'type' && k !== 'span') collectConstants(v, into);
}
