import { describe, expect, it } from 'vitest';
import { loanSpec } from '../../test/enforcement/support/loanSpec.ts';
import type { AppSpec, TransitionSpec } from '../spec/types.ts';
import { lintSpec } from './lintSpec.ts';
import { validateSpec } from './validateSpec.ts';

function withOverdue(change: Partial<TransitionSpec>): AppSpec {
  const st = loanSpec.states.loan!;
  return {
    ...loanSpec,
    states: {
      loan: { ...st, transitions: { ...st.transitions, overdue: { ...st.transitions.overdue!, ...change } } },
    },
  };
}

const errorsOf = (spec: AppSpec) =>
  validateSpec(spec)
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => [d.code, d.path]);

describe('check: transitions that happen by time', () => {
  it('accepts the loan spec with no finding at all', () => {
    expect(validateSpec(loanSpec).diagnostics).toEqual([]);
    expect(lintSpec(loanSpec)).toEqual([]);
  });

  it('refuses an "after" that is not an instant, or that reads the user or the clock', () => {
    expect(errorsOf(withOverdue({ after: 'length(title)' }))).toEqual([
      ['rule/type', 'states.loan.transitions.overdue.after'],
    ]);
    for (const after of [
      'now + days(1)',
      'startOfDay(today)',
      'dueDate + days(count(loan where borrower = me))',
    ]) {
      const d = validateSpec(withOverdue({ after })).diagnostics;
      expect(
        d.map((x) => [x.code, x.path]),
        after,
      ).toEqual([['rule/type', 'states.loan.transitions.overdue.after']]);
      expect(d[0]?.message).toMatch(/cannot read "(now|today|me)"/);
    }
    expect(errorsOf(withOverdue({ after: 'dueDat' }))).toEqual([
      ['rule/unknown-name', 'states.loan.transitions.overdue.after'],
    ]);
  });

  it('refuses input on a transition nobody runs, and no roles without "after"', () => {
    expect(errorsOf(withOverdue({ input: ['title'] }))).toEqual([
      ['spec/invalid-value', 'states.loan.transitions.overdue.input'],
    ]);
    const { after: _after, ...manual } = loanSpec.states.loan!.transitions.overdue!;
    const spec: AppSpec = {
      ...loanSpec,
      states: {
        loan: {
          ...loanSpec.states.loan!,
          transitions: { ...loanSpec.states.loan!.transitions, overdue: manual },
        },
      },
    };
    expect(errorsOf(spec)).toEqual([['spec/invalid-value', 'states.loan.transitions.overdue.roles']]);
  });
});
