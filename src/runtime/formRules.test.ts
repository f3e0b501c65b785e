import { describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import { resolve } from '../model/resolve.ts';
import { formRules } from './formRules.ts';

describe('issue 29: forms read validation rules from the model', () => {
  it('in spec order, each with the form field its message attaches to', () => {
    const rules = formRules(resolve(expenses), 'line');
    expect(rules.map((r) => r.index)).toEqual(rules.map((_, i) => i));
    const byCode = (code: string) => rules.find((r) => r.rule.error === code);
    // The rule's own field.
    expect(byCode('MILEAGE_DISTANCE_REQUIRED')?.target).toBe('distanceKm');
    // No field on the rule and none of this entity in the catalogue: the form's own message.
    expect(byCode('TOO_MANY_LINES')?.target).toBeUndefined();
  });
});
