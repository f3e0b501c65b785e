import type { Diagnostic } from '../diagnostics.ts';
import { resolve } from '../model/resolve.ts';
import { checkRule, ruleReferences } from '../rules/index.ts';
import { grantBecomes, grantWhen } from '../spec/grantParts.ts';
import { at, report } from '../spec/specShape.ts';
import type { AppSpec } from '../spec/types.ts';
import { emitPolicies } from '../sql/emitPolicies.ts';

/** `entity.field` of every field with a `read` rule. */
export function readRestrictedFields(spec: AppSpec): Set<string> {
  const out = new Set<string>();
  for (const [en, e] of Object.entries(spec.entities))
    for (const [fn, f] of Object.entries(e.fields)) if (f.read !== undefined) out.add(`${en}.${fn}`);
  return out;
}

/** Why field `fn` of `en` cannot have a `read` rule, if it cannot. */
function whyNotHidden(spec: AppSpec, en: string, fn: string, inUniqueKey: Set<string>): string | undefined {
  const e = spec.entities[en];
  const f = e?.fields[fn];
  if (!e || !f) return undefined;
  const reasons: [boolean, string][] = [
    [e.profile === true, "the profile entity's rows are read whole (sign-in, user administration)"],
    [e.title === fn, "it is the entity's title (shown wherever a row is referenced)"],
    [spec.states[en]?.field === fn, 'it is the status field'],
    [f.owner === true, 'it is an owner field'],
    [f.unique !== undefined && f.unique !== false, 'it is unique (a duplicate error would tell its value)'],
    [inUniqueKey.has(fn), 'it is part of a unique key (a duplicate error would tell its value)'],
    [f.type === 'file' || f.type === 'status', `fields of type "${f.type}" are read with their row`],
    [f.audited === true, 'it is audited (the history is read by whoever reads the row)'],
    [e.files === true, 'the rows of a files entity are read whole'],
    [f.search === true, 'it is marked `search: true` (a hidden field is never searched)'],
  ];
  return reasons.find(([c]) => c)?.[1];
}

/**
 * Per-field reads (`read: '<rule>'` on a field): only where the server can keep the value hidden
 * on every path. A row's title, status, owner, unique key or file is shown or enforced where the
 * row is (references' titles, the state machine, duplicate errors), so none may be hidden; search
 * never covers a hidden field. A rule deciding who sees a row or a field must not read a hidden
 * field itself: the row appearing, or the value, would tell one bit of it.
 */
export function checkFieldReads(spec: AppSpec, out: Diagnostic[]): void {
  const hidden = readRestrictedFields(spec);
  if (hidden.size === 0) return;
  for (const [en, e] of Object.entries(spec.entities)) {
    const inUniqueKey = new Set((e.unique ?? []).flatMap((u) => u.fields));
    for (const [fn, f] of Object.entries(e.fields)) {
      if (f.read === undefined) continue;
      const p = at(at(at(at('entities', en), 'fields'), fn), 'read');
      const why = whyNotHidden(spec, en, fn, inUniqueKey);
      if (why !== undefined)
        report(
          out,
          'spec/invalid-value',
          p,
          `"${fn}" cannot be hidden per row: ${why}`,
          `remove "read" here`,
        );
    }
  }
  const why = 'decide who reads a row or a field from fields everyone who reads the row may see';
  const sites: { path: string; text: string; entity: string; expect?: 'value'; hint: string }[] = [];
  for (const [en, e] of Object.entries(spec.entities))
    for (const [fn, f] of Object.entries(e.fields))
      if (f.read !== undefined)
        sites.push({
          path: at(at(at(at('entities', en), 'fields'), fn), 'read'),
          text: f.read,
          entity: en,
          hint: why,
        });
  // A computed value shown to more people than the fields it is computed from would tell them.
  for (const [en, e] of Object.entries(spec.entities))
    for (const [fn, f] of Object.entries(e.fields))
      if (f.computed !== undefined && f.read === undefined)
        sites.push({
          path: at(at(at(at('entities', en), 'fields'), fn), 'computed'),
          text: f.computed,
          entity: en,
          expect: 'value',
          hint: `give "${fn}" a "read" rule no weaker than theirs`,
        });
  sites.push(...permissionSites(spec, why));
  for (const s of sites) {
    const r = checkRule(spec, s.text, { entity: s.entity, expect: s.expect ?? 'boolean' });
    if (!r.ok) continue;
    const read = ruleReferences(r.typed).fields.filter((f) => hidden.has(f));
    if (read.length > 0)
      report(
        out,
        'spec/invalid-value',
        s.path,
        `the rule reads ${read.map((f) => `"${f}"`).join(', ')}, which not everyone may read: its result would tell`,
        s.hint,
      );
  }
  if (!out.some((d) => d.severity === 'error')) checkPolicyHelpers(spec, out);
}

/**
 * The permission rules of every role: read, and create, update and delete too. Each is a policy
 * the client's query runs under, so a hidden field it reads (a `sum(poll.amount ...)` in an update
 * rule) would fail every such write with "permission denied" (the client holds no privilege on the
 * column), and whether a write is allowed would tell the value.
 */
function permissionSites(spec: AppSpec, why: string) {
  const write = 'decide who may write from fields everyone who reads the row may see';
  return Object.entries(spec.roles.permissions).flatMap(([role, perms]) =>
    Object.entries(perms).flatMap(([en, p]) => {
      const base = at(at('roles.permissions', role), en);
      const nested = (op: 'create' | 'update', key: string) =>
        typeof p[op] === 'object' ? at(at(base, op), key) : at(base, op);
      const rules: [string, unknown, string][] = [
        [at(base, 'read'), p.read, why],
        [nested('create', 'when'), grantWhen(p, 'create'), write],
        [nested('create', 'becomes'), grantBecomes(p, 'create')?.becomes, write],
        [nested('update', 'when'), grantWhen(p, 'update'), write],
        [nested('update', 'becomes'), grantBecomes(p, 'update')?.becomes, write],
        [at(base, 'delete'), p.delete, write],
      ];
      return rules.flatMap(([path, text, hint]) =>
        typeof text === 'string' ? [{ path, text, entity: en, hint }] : [],
      );
    }),
  );
}

/**
 * A table whose policies count or read its own rows (or rows whose policies read back into it)
 * calls helper functions with its whole row (src/sql/emitPolicies.ts), and a client holds no
 * privilege on a whole row with a read-restricted column: such policies would fail. Refused until
 * the helpers take the row's id.
 */
function checkPolicyHelpers(spec: AppSpec, out: Diagnostic[]): void {
  const model = resolve(spec);
  for (const t of model.tables.values()) {
    const first = t.readRestricted[0];
    if (first === undefined || !/__(self|policy)_read_\d/.test(emitPolicies(model, t.entity))) continue;
    report(
      out,
      'spec/invalid-value',
      at(at(at(at('entities', t.entity), 'fields'), first.field), 'read'),
      `per-field reads are not supported on "${t.entity}": its permissions count or read its own rows, through functions given the whole row`,
      'put the field in an entity of its own, or write those permissions without reading their own entity',
    );
  }
}
