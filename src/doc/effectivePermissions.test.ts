import { describe, expect, it } from 'vitest';
import { resolve } from '../model/resolve.ts';
import type { AppSpec } from '../spec/types.ts';
import { effectiveGrants } from './effectivePermissions.ts';
import { mini } from './fixtures/mini.ts';
import { ancestors, holders } from './roleGraph.ts';

describe('role inheritance', () => {
  it('walks ancestors nearest first and survives cycles', () => {
    expect(ancestors(resolve(mini), 'admin')).toEqual(['manager', 'employee']);
    expect(holders(resolve(mini), ['manager'])).toEqual(['manager', 'admin']);
    const cyclic: AppSpec = {
      ...mini,
      roles: {
        ...mini.roles,
        roles: { a: { label: 'A', inherits: ['b'] }, b: { label: 'B', inherits: ['a'] } },
      },
    };
    expect(ancestors(resolve(cyclic), 'a')).toEqual(['b']);
  });
});

describe('effectiveGrants', () => {
  it('gives a role its parents’ permissions, marked with where they come from', () => {
    expect(effectiveGrants(resolve(mini), 'admin', 'loan', 'create')).toEqual([
      { when: true, from: 'employee' },
    ]);
    expect(effectiveGrants(resolve(mini), 'manager', 'device', 'delete')).toEqual([]);
  });

  it('drops grants another grant already covers', () => {
    // manager reads every loan; the inherited "borrower = me" adds nothing
    expect(effectiveGrants(resolve(mini), 'manager', 'loan', 'read')).toEqual([
      { when: true, from: 'manager' },
    ]);
    // admin updates every person's name and manager; employee's "own name" is covered
    expect(effectiveGrants(resolve(mini), 'admin', 'person', 'update')).toEqual([
      { when: true, fields: ['name', 'manager'], from: 'admin' },
    ]);
  });

  it('keeps conditional grants that allow other fields', () => {
    expect(effectiveGrants(resolve(mini), 'admin', 'loan', 'update')).toEqual([
      { when: 'borrower = me and status = requested', fields: ['reason', 'returnBy'], from: 'employee' },
    ]);
    const spec: AppSpec = {
      ...mini,
      roles: {
        ...mini.roles,
        permissions: {
          ...mini.roles.permissions,
          manager: { loan: { read: true, update: { when: true, fields: ['reason'] } } },
        },
      },
    };
    expect(effectiveGrants(resolve(spec), 'manager', 'loan', 'update')).toEqual([
      { when: true, fields: ['reason'], from: 'manager' },
      { when: 'borrower = me and status = requested', fields: ['reason', 'returnBy'], from: 'employee' },
    ]);
  });

  it('drops an inherited rule that is one of the own rule’s "or" alternatives', () => {
    const spec: AppSpec = {
      ...mini,
      roles: {
        ...mini.roles,
        permissions: {
          ...mini.roles.permissions,
          manager: { loan: { read: 'borrower = me or (borrower.manager = me and status != requested)' } },
        },
      },
    };
    expect(effectiveGrants(resolve(spec), 'manager', 'loan', 'read')).toEqual([
      { when: 'borrower = me or (borrower.manager = me and status != requested)', from: 'manager' },
    ]);
    const narrower: AppSpec = {
      ...spec,
      roles: {
        ...spec.roles,
        permissions: { ...spec.roles.permissions, manager: { loan: { read: 'borrower != me' } } },
      },
    };
    expect(effectiveGrants(resolve(narrower), 'manager', 'loan', 'read')).toHaveLength(2);
  });
});
