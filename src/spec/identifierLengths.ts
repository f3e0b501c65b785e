import type { Diagnostic } from '../diagnostics.ts';
import { columnName, screenWhereFunctionName, tableName, transitionFunctionName } from '../naming.ts';
import { at, report } from './specShape.ts';
import type { AppSpec } from './types.ts';

/** Postgres truncates identifiers to 63 bytes (NAMEDATALEN - 1), silently. */
export const MAX_IDENTIFIER_BYTES = 63;

const ACTIONS = ['read', 'create', 'update', 'delete'] as const;

/**
 * Every identifier the SQL compiler derives from the names of a specification, with the spec path
 * whose names make it. Two long names can make identifiers Postgres would truncate — and two
 * truncated policies, functions or constraints would merge into one, or one be skipped — so the
 * validator refuses them instead (docs/security.md, "Identifiers").
 */
export function generatedIdentifiers(spec: AppSpec): { id: string; path: string }[] {
  const out: { id: string; path: string }[] = [];
  const add = (id: string, path: string) => out.push({ id, path });
  for (const [entity, e] of Object.entries(spec.entities)) {
    const t = tableName(entity);
    const p = at('entities', entity);
    for (const suffix of [
      '__on_insert',
      '__on_update',
      '__validate',
      '__revalidate_dependents',
      '__lock_groups',
      '__recheck_permission',
    ])
      add(`${t}${suffix}`, p);
    if (spec.states[entity]) add(`${t}_history__append_only`, p);
    if (e.files) {
      add(`${t}__storage_path__own_folder`, p);
      add(`${t}__storage_path__values`, p);
      add(`${t}__mime_type__values`, p);
      add(`${t}__size_bytes__matches_content`, p);
      add(`ninefold__${t}__delete`, p);
      add(`ninefold__${t}__create`, p);
    }
    for (const field of Object.keys(e.fields)) {
      const c = columnName(field);
      const fp = at(at(p, 'fields'), field);
      for (const suffix of ['__fk', '__unique', '__values', '__idx']) add(`${t}__${c}${suffix}`, fp);
    }
    (spec.validation[entity] ?? []).forEach((r, i) => {
      add(`${t}__${r.error.toLowerCase()}__${i + 1}`, at(at('validation', entity), i));
    });
  }
  for (const [role, perms] of Object.entries(spec.roles.permissions))
    for (const entity of Object.keys(perms))
      for (const action of ACTIONS)
        add(`${tableName(entity)}__${role}__${action}`, at(at('roles.permissions', role), entity));
  for (const [entity, st] of Object.entries(spec.states))
    for (const name of Object.keys(st.transitions))
      add(transitionFunctionName(entity, name), at(at(at('states', entity), 'transitions'), name));
  for (const [name, s] of Object.entries(spec.screens))
    if (s.where !== undefined && s.entity !== undefined)
      add(screenWhereFunctionName(s.entity, name), at(at('screens', name), 'where'));
  return out;
}

/**
 * Reports every generated identifier longer than Postgres keeps, and every identifier two names
 * make alike (`sendBack` and `send_back`, or `fooBar` and `fooBAR`, snake to the same).
 */
export function checkIdentifierLengths(spec: AppSpec, out: Diagnostic[]): void {
  const seen = new Set<string>();
  const madeBy = new Map<string, string>();
  for (const { id, path } of generatedIdentifiers(spec)) {
    const first = madeBy.get(id);
    if (first === undefined) madeBy.set(id, path);
    else if (first !== path && !seen.has(id)) {
      seen.add(id);
      report(
        out,
        'spec/invalid-name',
        path,
        `the generated SQL name "${id}" is made by both ${first} and ${path}`,
        'rename one of them: SQL names are the snake_case of the names',
      );
    }
    const bytes = new TextEncoder().encode(id).length;
    if (bytes <= MAX_IDENTIFIER_BYTES || seen.has(id)) continue;
    seen.add(id);
    report(
      out,
      'spec/invalid-name',
      path,
      `the generated SQL name "${id}" is ${bytes} bytes; Postgres keeps 63 bytes and would merge or drop it`,
      'shorten the entity, field, role, transition or error code names that make it',
    );
  }
}
