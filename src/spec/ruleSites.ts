import { at } from './specShape.ts';
import { transitionGuards } from './transitionGuards.ts';
import type { AppSpec } from './types.ts';

/** One place a specification holds rule text, with the row the rule is about. */
export interface RuleSite {
  path: string;
  text: string;
  entity: string | null;
  expect: 'boolean' | 'value';
}

/**
 * Every rule string in a specification: screen filters, guards, `set` expressions,
 * row validation rules and permission rules.
 *
 * @example
 * ruleSites(spec)[0]; // { path: 'states.ticket.transitions.solve.guard', text: 'assignee = me', entity: 'ticket', expect: 'boolean' }
 */
export function ruleSites(spec: AppSpec): RuleSite[] {
  const sites: RuleSite[] = [];
  for (const [sn, s] of Object.entries(spec.screens)) {
    if (s.where !== undefined) {
      sites.push({
        path: at(at('screens', sn), 'where'),
        text: s.where,
        entity: s.entity ?? null,
        expect: 'boolean',
      });
    }
  }
  for (const [en, e] of Object.entries(spec.entities))
    for (const [fn, f] of Object.entries(e.fields)) {
      if (f.computed !== undefined)
        sites.push({
          path: at(at(at(at('entities', en), 'fields'), fn), 'computed'),
          text: f.computed,
          entity: en,
          expect: 'value',
        });
      if (f.read !== undefined)
        sites.push({
          path: at(at(at(at('entities', en), 'fields'), fn), 'read'),
          text: f.read,
          entity: en,
          expect: 'boolean',
        });
    }
  for (const [en, st] of Object.entries(spec.states)) {
    for (const [sn, s] of Object.entries(st.states)) {
      if (s.waitingOn !== undefined)
        sites.push({
          path: at(at(at(at('states', en), 'states'), sn), 'waitingOn'),
          text: s.waitingOn,
          entity: en,
          expect: 'boolean',
        });
    }
    (st.initialWhen ?? []).forEach((r, i) => {
      sites.push({
        path: at(at(at(at('states', en), 'initialWhen'), i), 'when'),
        text: r.when,
        entity: en,
        expect: 'boolean',
      });
    });
    for (const [tn, t] of Object.entries(st.transitions)) {
      const p = at(at(at('states', en), 'transitions'), tn);
      for (const g of transitionGuards(t))
        sites.push({ path: `${p}.${g.path}`, text: g.rule, entity: en, expect: 'boolean' });
      if (t.after !== undefined)
        sites.push({ path: at(p, 'after'), text: t.after, entity: en, expect: 'value' });
      for (const [fn, text] of Object.entries(t.set ?? {})) {
        sites.push({ path: at(at(p, 'set'), fn), text, entity: en, expect: 'value' });
      }
    }
  }
  for (const [en, rules] of Object.entries(spec.validation)) {
    rules.forEach((r, i) => {
      if (r.kind !== 'row') return;
      const p = at(at('validation', en), i);
      sites.push({ path: at(p, 'rule'), text: r.rule, entity: en, expect: 'boolean' });
      if (r.when !== undefined)
        sites.push({ path: at(p, 'when'), text: r.when, entity: en, expect: 'boolean' });
    });
  }
  for (const [rn, perms] of Object.entries(spec.roles.permissions)) {
    for (const [en, p] of Object.entries(perms)) {
      const base = at(at('roles.permissions', rn), en);
      for (const key of ['read', 'create', 'delete'] as const) {
        const v = p[key];
        if (typeof v === 'string')
          sites.push({ path: at(base, key), text: v, entity: en, expect: 'boolean' });
      }
      if (typeof p.create === 'object') {
        if (typeof p.create.when === 'string')
          sites.push({
            path: at(at(base, 'create'), 'when'),
            text: p.create.when,
            entity: en,
            expect: 'boolean',
          });
        sites.push({
          path: at(at(base, 'create'), 'becomes'),
          text: p.create.becomes,
          entity: en,
          expect: 'boolean',
        });
      }
      if (p.update && typeof p.update.when === 'string') {
        sites.push({
          path: at(at(base, 'update'), 'when'),
          text: p.update.when,
          entity: en,
          expect: 'boolean',
        });
      }
      if (p.update && p.update.becomes !== undefined)
        sites.push({
          path: at(at(base, 'update'), 'becomes'),
          text: p.update.becomes,
          entity: en,
          expect: 'boolean',
        });
    }
  }
  return sites;
}
