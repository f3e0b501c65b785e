import { describe, expect, it } from 'vitest';
import { mini } from '../doc/fixtures/mini.ts';
import { checkRule } from '../rules/check.ts';
import { holds } from '../rules/evaluate.ts';
import { ruleSpec } from '../rules/fixtures/ruleSpec.ts';
import type { AppSpec } from '../spec/types.ts';
import { resolve } from './resolve.ts';
import { roleClosureOf } from './roleClosure.ts';

describe('roleClosureOf', () => {
  it('issue 29: maps each role to itself and every role it inherits, transitively, itself first', () => {
    const closure = roleClosureOf(ruleSpec);
    expect(closure.get('admin')).toEqual(['admin', 'agent', 'customer']);
    expect(closure.get('customer')).toEqual(['customer']);
  });

  it('issue 29: tolerates an inheritance cycle and a role named like a built-in property', () => {
    const spec = {
      roles: {
        roles: {
          a: { label: 'A', inherits: ['b'] },
          b: { label: 'B', inherits: ['a'] },
          constructor: { label: 'C' },
        },
      },
    } as unknown as AppSpec;
    const closure = roleClosureOf(spec);
    expect(closure.get('a')).toEqual(['a', 'b']);
    expect(closure.get('constructor')).toEqual(['constructor']);
  });

  it('issue 29: the rule evaluator reads inheritance only from the closure its caller passes (no walk of its own)', () => {
    const rule = checkRule(ruleSpec, 'me is customer', { entity: null });
    if (!rule.ok) throw new Error('does not check');
    const agent = { id: 'u', roles: ['agent'] };
    const base = { row: null, user: agent, now: new Date() };
    expect(holds(rule.typed, { ...base, roleClosure: roleClosureOf(ruleSpec) })).toBe(true);
    // A closure without the inheritance: the agent no longer counts as a customer.
    expect(holds(rule.typed, { ...base, roleClosure: new Map([['agent', ['agent']]]) })).toBe(false);
  });
});

describe('roleClosure (issue 29: one role-inheritance walk, in the model)', () => {
  it('issue 29: each role maps to itself, then what it inherits, nearest first', () => {
    expect(resolve(mini).roleClosure.get('admin')).toEqual(['admin', 'manager', 'employee']);
    expect(resolve(mini).roleClosure.get('employee')).toEqual(['employee']);
  });

  it('issue 29: a cycle or an unknown role name ends the walk instead of looping', () => {
    const roles: AppSpec['roles'] = {
      roles: { a: { label: 'A', inherits: ['b'] }, b: { label: 'B', inherits: ['a', 'ghost'] } },
      permissions: {},
    };
    expect(roleClosureOf({ roles })).toEqual(
      new Map([
        ['a', ['a', 'b', 'ghost']],
        ['b', ['b', 'a', 'ghost']],
      ]),
    );
  });
});
