import { describe, expect, it } from 'vitest';
import tasksApp from '../../examples/tasks/spec.ts';
import { billing } from '../../test/enforcement/support/billing.ts';
import { computedCycle, computedHops, recomputedEntities } from './computedDependents.ts';
import { resolve } from './resolve.ts';

describe('computed fields reading referenced rows', () => {
  it('lists each reference read, the fields read through it and the fields computed from them', () => {
    expect(computedHops(resolve(billing))).toEqual([
      {
        entity: 'project',
        reference: 'organisation',
        target: 'organisation',
        fields: ['currency'],
        computed: ['currency'],
      },
      {
        entity: 'timeEntry',
        reference: 'project',
        target: 'project',
        fields: ['currency', 'rate'],
        computed: ['currency', 'amount'],
      },
    ]);
  });

  it('follows chains to every entity a write may recompute', () => {
    const model = resolve(billing);
    expect(recomputedEntities(model, 'organisation')).toEqual(['project', 'timeEntry']);
    expect(recomputedEntities(model, 'project')).toEqual(['timeEntry']);
    expect(recomputedEntities(model, 'timeEntry')).toEqual([]);
    expect(computedCycle(model)).toBeUndefined();
  });

  it('finds none where computed fields read only their own row', () => {
    const model = resolve(tasksApp);
    for (const h of computedHops(model)) expect(h.target).not.toBe(h.entity);
  });
});
