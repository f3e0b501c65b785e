import { humanize } from '../doc/labels.ts';
import { parseSort } from '../doc/sortOrder.ts';
import type { AppSpec } from '../spec/types.ts';

/**
 * A specification with what the app model treats alike made alike: labels equal to their
 * humanized default dropped, `false` flags and empty lists dropped, sorts as `-field`/`field`,
 * permissions that grant nothing dropped, a transition's `guards` without `guard` as `guard` and the rest. Two specifications describe the same app when their
 * normal forms are deeply equal; the round-trip tests of `ninefold import` compare these.
 *
 * @example
 * expect(normalizeSpec(importDoc(renderDoc(spec)).spec)).toEqual(normalizeSpec(spec));
 */
export function normalizeSpec(spec: AppSpec): unknown {
  const copy = JSON.parse(JSON.stringify(spec)) as AppSpec;
  // Translations are not part of the nine-point document (they change no rule, only texts; see
  // docs/i18n.md), so a document round trip cannot carry them: compare the app without them.
  delete copy.translations;
  for (const e of Object.values(copy.entities)) {
    for (const [name, f] of Object.entries(e.fields)) {
      if (f.label === humanize(name)) delete f.label;
      // `{ value: 'x' }` is the same as `'x'`.
      if (f.values)
        f.values = f.values.map((v) =>
          typeof v === 'object' && v.label === undefined && v.color === undefined ? v.value : v,
        );
    }
  }
  for (const s of Object.values(copy.screens)) {
    if (s.sort) {
      const { field, descending } = parseSort(s.sort);
      s.sort = descending ? `-${field}` : field;
    }
  }
  for (const st of Object.values(copy.states)) {
    for (const [name, s] of Object.entries(st.states)) if (s.label === humanize(name)) delete s.label;
    for (const [name, t] of Object.entries(st.transitions)) {
      if (t.label === humanize(name)) delete t.label;
      // `guards` alone is the same as its first guard in `guard`/`guardError` and the rest after it.
      const [first, ...rest] = t.guards ?? [];
      if (t.guard === undefined && first) {
        t.guard = first.rule;
        t.guardError = first.error;
        t.guards = rest;
      }
    }
  }
  for (const [entity, rules] of Object.entries(copy.validation)) {
    if (rules.length === 0) delete copy.validation[entity];
  }
  for (const [role, byEntity] of Object.entries(copy.roles.permissions)) {
    for (const [entity, p] of Object.entries(byEntity)) {
      for (const action of ['read', 'create', 'delete'] as const) if (p[action] === false) delete p[action];
      if (typeof p.create === 'object' && p.create.when === false) delete p.create;
      if (
        p.update !== undefined &&
        (p.update === false || p.update.when === false || p.update.fields.length === 0)
      )
        delete p.update;
      if (Object.keys(p).length === 0) delete byEntity[entity];
    }
    if (Object.keys(byEntity).length === 0) delete copy.roles.permissions[role];
  }
  return prune(copy);
}

/** Drops `false`, `undefined` and empty arrays/objects inside records (not whole sections). */
function prune(value: unknown, depth = 0): unknown {
  if (Array.isArray(value)) return value.map((v) => prune(v, depth + 1));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const p = prune(v, depth + 1);
    if (depth >= 2 && (p === false || p === undefined || (Array.isArray(p) && p.length === 0))) continue;
    out[k] = p;
  }
  return out;
}
