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
        rewritten: ['currency'],
        rerounded: [],
      },
      {
        entity: 'timeEntry',
        reference: 'project',
        target: 'project',
        fields: ['currency', 'rate'],
        computed: ['currency', 'amount'],
        rewritten: ['currency', 'amount'],
        rerounded: [],
      },
    ]);
  });

  it('rewrites the fields read through the hop and those of the row computed from them, not the rest', () => {
    const model = resolve(tasksApp);
    const entry = computedHops(model).find((h) => h.entity === 'timeEntry' && h.reference === 'organisation');
    // `currency` reads the organisation; `billableAmount` is rounded in it; `rate` (a sum over
    // rate rows) is what the entry was written with and stays.
    expect(entry?.computed).toContain('currency');
    expect(entry?.rewritten).toContain('billableAmount');
    expect(entry?.rewritten).not.toContain('rate');
    expect(entry?.rerounded).toEqual(['rate']);
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
