import { describe, expect, it } from 'vitest';
import { mini } from '../doc/fixtures/mini.ts';
import type { AppSpec } from '../spec/types.ts';
import { resolve } from './resolve.ts';
import { roleClosureOf } from './roleClosure.ts';

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
