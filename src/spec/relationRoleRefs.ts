import type { Diagnostic } from '../diagnostics.ts';
import { didYouMean } from './didYouMean.ts';
import { enumValueNames } from './enumValueNames.ts';
import { relationPath } from './relationRoles.ts';
import { at, report } from './specShape.ts';
import type { AppSpec, FieldSpec, RoleThroughSpec } from './types.ts';

const own = <T>(rec: Readonly<Record<string, T>> | undefined, key: string): T | undefined =>
  rec && Object.hasOwn(rec, key) ? rec[key] : undefined;

/**
 * Checks the roles held through a relationship (`through`): the entity and fields they name, that
 * they neither inherit nor are inherited nor given at sign-up, and that every entity they are given
 * permissions on reaches their scope by exactly one reference (docs/rule-language.md, "Roles held
 * through a relationship").
 */
export function checkRelationRoles(spec: AppSpec, out: Diagnostic[]): void {
  checkRoleUses(spec, out);
  for (const [rn, role] of Object.entries(spec.roles.roles)) {
    const base = at('roles.roles', rn);
    if (!role.through) {
      role.inherits?.forEach((r, i) => {
        if (own(spec.roles.roles, r)?.through)
          report(
            out,
            'spec/invalid-value',
            at(at(base, 'inherits'), i),
            `"${r}" is held through a relationship, on rows; a role granted to people cannot inherit it`,
            'give this role the permissions it needs itself',
          );
      });
      continue;
    }
    if (!checkThrough(spec, role.through, at(base, 'through'), out)) continue;
    if (role.inherits && role.inherits.length > 0)
      report(
        out,
        'spec/invalid-value',
        at(base, 'inherits'),
        'a role held through a relationship inherits nothing',
        'list the membership values it covers in through.values instead',
      );
    if (role.signup === true)
      report(
        out,
        'spec/invalid-value',
        at(base, 'signup'),
        'a role held through a relationship is never granted',
      );
    for (const entity of Object.keys(spec.roles.permissions[rn] ?? {})) {
      if (!own(spec.entities, entity)) continue;
      const path = relationPath(spec, rn, entity);
      if (!path.ok)
        report(out, 'spec/invalid-value', at(at('roles.permissions', rn), entity), path.message, path.hint);
    }
  }
}

/** Transitions run on a row, so a relationship role may run one where it reaches the row; a call has no row. */
function checkRoleUses(spec: AppSpec, out: Diagnostic[]): void {
  const through = (r: string) => own(spec.roles.roles, r)?.through !== undefined;
  for (const [entity, st] of Object.entries(spec.states)) {
    for (const [tn, t] of Object.entries(st.transitions)) {
      t.roles.forEach((r, i) => {
        if (!through(r)) return;
        const path = relationPath(spec, r, entity);
        if (!path.ok)
          report(
            out,
            'spec/invalid-value',
            at(at(at(at(at('states', entity), 'transitions'), tn), 'roles'), i),
            path.message,
            path.hint,
          );
      });
    }
  }
  for (const [cn, call] of Object.entries(spec.calls.declared)) {
    call.roles.forEach((r, i) => {
      if (through(r))
        report(
          out,
          'spec/invalid-value',
          at(at(at('calls.declared', cn), 'roles'), i),
          `"${r}" is held through a relationship, on rows; a call has no row to hold it on`,
          'name a role granted to people',
        );
    });
  }
}

function fieldOf(
  spec: AppSpec,
  entity: string,
  field: string,
  path: string,
  out: Diagnostic[],
  want: (f: FieldSpec) => boolean,
  what: string,
): FieldSpec | undefined {
  const fields = own(spec.entities, entity)?.fields ?? {};
  const f = own(fields, field);
  const fitting = Object.keys(fields).filter((n) => want(fields[n] as FieldSpec));
  if (f && want(f)) return f;
  report(
    out,
    f ? 'spec/invalid-value' : 'spec/unknown-name',
    path,
    f ? `${entity}.${field} is not ${what}` : `entity "${entity}" has no field ${JSON.stringify(field)}`,
    fitting.length > 0
      ? `${what}s of ${entity}: ${fitting.join(', ')}`
      : didYouMean(field, Object.keys(fields)),
  );
  return undefined;
}

function checkThrough(spec: AppSpec, t: RoleThroughSpec, base: string, out: Diagnostic[]): boolean {
  if (!own(spec.entities, t.entity))
    return report(
      out,
      'spec/unknown-name',
      at(base, 'entity'),
      `unknown entity ${JSON.stringify(t.entity)}`,
      didYouMean(t.entity, Object.keys(spec.entities)),
    );
  const isUser = (f: FieldSpec) => f.type === 'user';
  if (t.field !== undefined) {
    const extra = (['user', 'scope', 'role', 'values'] as const).filter((k) => t[k] !== undefined);
    if (extra.length > 0)
      return report(
        out,
        'spec/invalid-value',
        base,
        `through names either a person field (field) or a membership (user, scope, role, values), not both`,
        `drop ${extra.join(', ')}`,
      );
    return fieldOf(spec, t.entity, t.field, at(base, 'field'), out, isUser, 'a user field') !== undefined;
  }
  if (t.user === undefined || t.scope === undefined)
    return report(
      out,
      'spec/missing',
      base,
      'through needs field (a person field of the entity), or user and scope (a membership)',
      "{ entity: 'project', field: 'lead' } or { entity: 'membership', user: 'person', scope: 'team' }",
    );
  const user = fieldOf(spec, t.entity, t.user, at(base, 'user'), out, isUser, 'a user field');
  const isRef = (f: FieldSpec) => f.type === 'ref';
  const scope = fieldOf(spec, t.entity, t.scope, at(base, 'scope'), out, isRef, 'a reference field');
  if (!user || !scope) return false;
  if ((t.role === undefined) !== (t.values === undefined))
    return report(
      out,
      'spec/missing',
      base,
      'through.role and through.values go together: the field holding the role and the values that count',
    );
  if (t.role === undefined || t.values === undefined) return true;
  const isEnum = (f: FieldSpec) => f.type === 'enum';
  const role = fieldOf(spec, t.entity, t.role, at(base, 'role'), out, isEnum, 'an enum field');
  if (!role) return false;
  const values = enumValueNames(role) ?? [];
  let ok = t.values.length > 0 || report(out, 'spec/missing', at(base, 'values'), 'list at least one value');
  t.values.forEach((v, i) => {
    if (!values.includes(v))
      ok = report(
        out,
        'spec/unknown-name',
        at(at(base, 'values'), i),
        `${t.entity}.${t.role} has no value ${JSON.stringify(v)}`,
        didYouMean(v, values) ?? `values: ${values.join(', ')}`,
      );
  });
  return ok;
}
