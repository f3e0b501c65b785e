import { grantBecomes } from '../spec/grantParts.ts';
import { at } from '../spec/specShape.ts';
import { transitionGuards } from '../spec/transitionGuards.ts';
import type { AppSpec } from '../spec/types.ts';

/** One place a specification raises an error code, and the entity it is about (if any). */
export interface ErrorUse {
  code: string;
  path: string;
  entity: string | null;
}

/**
 * Every use of an error code: transition guards, validation rules, unique keys, declared calls and
 * update permissions' `becomes`.
 *
 * @example
 * errorUses(spec)[0]; // { code: 'NOT_ASSIGNEE', path: 'states.ticket.transitions.solve.guardError', entity: 'ticket' }
 */
export function errorUses(spec: AppSpec): ErrorUse[] {
  const uses: ErrorUse[] = [];
  for (const [en, st] of Object.entries(spec.states)) {
    for (const [tn, t] of Object.entries(st.transitions)) {
      for (const g of transitionGuards(t)) {
        if (g.error === undefined) continue;
        uses.push({
          code: g.error,
          path: `${at(at(at('states', en), 'transitions'), tn)}.${g.errorPath}`,
          entity: en,
        });
      }
    }
  }
  for (const [en, rules] of Object.entries(spec.validation)) {
    rules.forEach((r, i) => {
      uses.push({ code: r.error, path: at(at(at('validation', en), i), 'error'), entity: en });
    });
  }
  for (const [en, e] of Object.entries(spec.entities)) {
    (e.unique ?? []).forEach((key, i) => {
      uses.push({ code: key.error, path: at(at(at(at('entities', en), 'unique'), i), 'error'), entity: en });
    });
  }
  for (const [cn, c] of Object.entries(spec.calls.declared)) {
    uses.push({ code: c.error, path: at(at('calls.declared', cn), 'error'), entity: null });
  }
  for (const [rn, perms] of Object.entries(spec.roles.permissions))
    for (const [en, p] of Object.entries(perms))
      for (const action of ['create', 'update'] as const) {
        const error = grantBecomes(p, action)?.error;
        if (error !== undefined)
          uses.push({
            code: error,
            path: at(at(at(at('roles.permissions', rn), en), action), 'error'),
            entity: en,
          });
      }
  return uses;
}
