import type { Diagnostic } from '../../diagnostics.ts';
import { checkRule } from '../../rules/index.ts';
import { type PayloadKeyFill, payloadFills, templateParts } from '../../spec/callFills.ts';
import { ruleSites } from '../../spec/ruleSites.ts';
import { at } from '../../spec/specShape.ts';
import type { AppSpec } from '../../spec/types.ts';
import { placeholders } from '../placeholders.ts';

/**
 * Constants nothing refers to: no rule (guards, permissions, validation, screen filters,
 * `set` expressions), no validation limit, no message placeholder and no declared call's payload
 * fill (values and `{placeholders}` of templates, over the row of each entity that queues it) names them.
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
  const count = (text: string, entity: string | null, expect: 'boolean' | 'value' = 'value') => {
    const r = checkRule(spec, text, { entity, expect });
    // The checked tree knows which names are constants (a field of the same name wins);
    // a rule that does not check still counts its bare names, so one bad rule does not flood warnings.
    if (r.ok) collectConstants(r.typed, used);
    else for (const m of text.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) used.add(m[0]);
  };
  for (const site of ruleSites(spec)) count(site.text, site.entity, site.expect);
  for (const [entity, call] of callQueuers(spec)) {
    for (const f of payloadFills(spec, entity, call)) countFill(f, entity, count);
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

/** `[entity, call]` for every declared call a transition queues (a call no transition queues: its fill is never run). */
function callQueuers(spec: AppSpec): [string, string][] {
  const out: [string, string][] = [];
  for (const [entity, st] of Object.entries(spec.states))
    for (const t of Object.values(st.transitions))
      for (const call of t.calls ?? [])
        if (!out.some(([e, c]) => e === entity && c === call)) out.push([entity, call]);
  return out;
}

/** Counts the names a payload key's fill uses: a value, a template's placeholders, or each item over the child rows. */
function countFill(
  f: PayloadKeyFill,
  entity: string,
  count: (text: string, entity: string | null) => void,
): void {
  if (!f.declared) return;
  const s = f.source;
  if (s.kind === 'value') count(s.text, entity);
  else if (s.kind === 'template') {
    for (const p of templateParts(s.text)) if (p.kind === 'value') count(p.text, entity);
  } else for (const item of s.items) countFill(item, s.entity, count);
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
