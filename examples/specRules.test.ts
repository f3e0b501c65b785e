import { describe, expect, it } from 'vitest';
import { validateSpec } from '../src/check/validateSpec.ts';
import { checkRule, comparable, fieldRuleType, typeName } from '../src/rules/index.ts';
import { ruleSites } from '../src/spec/ruleSites.ts';
import type { AppSpec } from '../src/spec/types.ts';
import expenses from './expenses/spec.ts';
import helpdesk from './helpdesk/spec.ts';
import tasks from './tasks/spec.ts';

const apps: readonly (readonly [string, AppSpec])[] = [
  ['helpdesk', helpdesk],
  ['expenses', expenses],
  ['tasks', tasks],
];

/** Paths that must be among the rule sites, so a site enumeration that misses a kind fails here. */
const EXPECTED_SITES: Record<string, readonly string[]> = {
  helpdesk: [
    'screens.myQueue.where',
    'states.ticket.transitions.reopen.guard',
    'states.ticket.transitions.solve.set.solvedAt',
    'validation.attachment[1].rule',
    'validation.ticket[8].when',
    'roles.permissions.customer.comment.read',
    'roles.permissions.agent.ticket.update.when',
  ],
  expenses: [
    'screens.approvals.where',
    'states.claim.transitions.approve.guard',
    'states.claim.transitions.submit.set.total',
    'validation.line[9].when',
    'roles.permissions.manager.claim.read',
    'roles.permissions.employee.line.update.when',
  ],
  tasks: [
    'screens.timeApprovals.where',
    'states.task.transitions.finish.guard',
    'entities.timeEntry.fields.billableAmount.computed',
    'states.timeEntry.states.logged.waitingOn',
    'validation.task[5].when',
    'validation.timeEntry[5].rule',
    'roles.permissions.member.task.read',
    'roles.permissions.member.timeEntry.update.when',
  ],
};

function failures(spec: AppSpec) {
  return ruleSites(spec).flatMap((site) => {
    const r = checkRule(spec, site.text, { entity: site.entity, expect: site.expect });
    return r.ok ? [] : [{ path: site.path, text: site.text, errors: r.errors.map((e) => e.message) }];
  });
}

describe.each(apps)('%s specification rules', (name, spec) => {
  it('enumerates rules of every kind', () => {
    const paths = ruleSites(spec).map((s) => s.path);
    expect(paths).toEqual(expect.arrayContaining([...(EXPECTED_SITES[name] ?? [])]));
    expect(paths.length).toBeGreaterThan(40);
  });

  it('every rule parses and type-checks against the specification', () => {
    expect(failures(spec)).toEqual([]);
  });

  it('every transition `set` value fits the field it is written to', () => {
    const misfits: string[] = [];
    for (const [entity, st] of Object.entries(spec.states)) {
      for (const [tn, t] of Object.entries(st.transitions)) {
        for (const [field, text] of Object.entries(t.set ?? {})) {
          const r = checkRule(spec, text, { entity, expect: 'value' });
          const target = fieldRuleType(spec, entity, field);
          if (!r.ok || !target) {
            misfits.push(`${tn}.${field}: ${r.ok ? 'no such field' : 'does not check'}`);
            continue;
          }
          if (r.typed.type.kind !== 'null' && !comparable(r.typed.type, target)) {
            misfits.push(`${tn}.${field}: ${typeName(r.typed.type)} into ${typeName(target)}`);
          }
        }
      }
    }
    expect(misfits).toEqual([]);
  });

  it('passes the runtime validator with no diagnostics', () => {
    expect(validateSpec(spec).diagnostics).toEqual([]);
  });
});
