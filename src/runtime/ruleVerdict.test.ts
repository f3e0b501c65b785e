import { describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import { readsMissingField, rowFieldsRead } from './ruleVerdict.ts';
import { modelWithRules } from './testing/modelWithRules.ts';

describe('rowFieldsRead', () => {
  it('lists the fields of the rule’s own row, from the checked rule', () => {
    expect(
      rowFieldsRead(
        modelWithRules(expenses, 'person', 'manager is empty or manager != id'),
        'person',
        'manager is empty or manager != id',
      ),
    ).toEqual(['manager']);
    // A path reads this row's first hop only; `submitter` here is the claim's, not the line's.
    expect(
      rowFieldsRead(modelWithRules(expenses, 'line', 'claim.submitter = me'), 'line', 'claim.submitter = me'),
    ).toEqual(['claim']);
  });

  it('ignores names that only occur inside text, constants or other entities', () => {
    // `submitter` is a field of the line too, but the rule reads only `claim` (then the claim's submitter).
    expect(
      rowFieldsRead(
        modelWithRules(expenses, 'line', "claim.submitter = me and description != 'submitter'"),
        'line',
        "claim.submitter = me and description != 'submitter'",
      ),
    ).toEqual(['claim', 'description']);
    expect(
      rowFieldsRead(
        modelWithRules(expenses, 'claim', 'count(line where claim = this) > 0'),
        'claim',
        'count(line where claim = this) > 0',
      ),
    ).toEqual([]);
  });

  it('is null for a rule that does not check', () => {
    expect(
      rowFieldsRead(modelWithRules(expenses, 'claim', 'nosuchfield = 1'), 'claim', 'nosuchfield = 1'),
    ).toBeNull();
  });
});

describe('readsMissingField', () => {
  it('is true only for a read field absent from the row', () => {
    const rule = 'claim.submitter = me';
    expect(readsMissingField(modelWithRules(expenses, 'line', rule), 'line', rule, { submitter: 'u1' })).toBe(
      true,
    );
    expect(readsMissingField(modelWithRules(expenses, 'line', rule), 'line', rule, { claim: 'c1' })).toBe(
      false,
    );
    expect(readsMissingField(modelWithRules(expenses, 'line', rule), 'line', rule, { claim: null })).toBe(
      false,
    );
  });
});
