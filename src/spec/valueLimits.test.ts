import { describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { budgetSpec } from '../../test/enforcement/support/budgetSpec.ts';
import { resolve } from '../model/resolve.ts';
import { formSchema } from '../runtime/formSchema.ts';
import type { AppSpec } from './types.ts';
import { DEFAULT_LONGTEXT_MAX_LENGTH, DEFAULT_TEXT_MAX_LENGTH, textCeiling } from './valueLimits.ts';

const budgets = budgetSpec as unknown as AppSpec;
const user = { id: 'u1', roles: ['member'] };

describe('value limits, in the browser as in the database (findings 5 and 10)', () => {
  it('finding 10: free text without a maxLength rule gets the default ceiling; a rule or a constant wins', () => {
    const name = budgets.entities.budget?.fields.name;
    if (!name) throw new Error('no budget.name');
    expect(textCeiling(budgets, 'budget', 'name', name)).toBe(DEFAULT_TEXT_MAX_LENGTH);
    expect(textCeiling(budgets, 'budget', 'name', { type: 'longtext' })).toBe(DEFAULT_LONGTEXT_MAX_LENGTH);
    expect(
      textCeiling(
        { ...budgets, constants: { textMaxLength: { value: 50, label: 'x' } } } as AppSpec,
        'budget',
        'name',
        name,
      ),
    ).toBe(50);
    // helpdesk's ticket title has its own maxLength rule: no default.
    const title = (helpdesk as AppSpec).entities.ticket?.fields.title;
    if (title) expect(textCeiling(helpdesk as AppSpec, 'ticket', 'title', title)).toBeUndefined();
    const form = formSchema(resolve(budgets), 'budget', 'create', ['member']);
    expect(form.fields.find((f) => f.name === 'name')?.limits.maxLength).toBe(DEFAULT_TEXT_MAX_LENGTH);
    expect(form.validate({ name: 'x'.repeat(10_000), cap: 1 }, user).name).toBeUndefined();
    expect(form.validate({ name: 'x'.repeat(10_001), cap: 1 }, user).name).toMatch(/at most 10000/);
  });

  it('finding 5: NaN and ±Infinity in numbers, ±infinity in dates are refused by the form', () => {
    const form = formSchema(resolve(budgets), 'budget', 'create', ['member']);
    for (const cap of ['NaN', 'Infinity', '-Infinity', Number.NaN, Number.POSITIVE_INFINITY])
      expect(form.validate({ name: 'B', cap }, user).cap, String(cap)).toBeDefined();
    const line = formSchema(resolve(expenses as AppSpec), 'line', 'create', ['employee']);
    for (const date of ['infinity', '-infinity'])
      expect(
        line.validate(
          { date, amount: 1, category: 'meals', description: 'x' },
          { id: 'u', roles: ['employee'] },
        ).date,
      ).toBeDefined();
  });
});
