import { describe, expect, it } from 'vitest';
import { checkSpec } from '../check/checkSpec.ts';
import { miniSpec } from '../check/fixtures/miniSpec.ts';

/** `waitingOn` (whose turn a state is) is a rule like any other: checked where it is written. */
describe('states.*.states.*.waitingOn', () => {
  const withTurn = (waitingOn: unknown) => {
    const s = miniSpec();
    (s.states.ticket?.states as Record<string, Record<string, unknown>>).open = { waitingOn };
    return checkSpec(s).diagnostics.filter((d) => d.severity === 'error');
  };

  it('accepts a rule about the row and me', () => {
    expect(withTurn('assignee = me')).toEqual([]);
  });

  it('refuses a rule that names no field, with its path', () => {
    const found = withTurn('asignee = me');
    expect(found.length).toBeGreaterThan(0);
    expect(found.map((d) => d.path).join()).toContain('waitingOn');
  });

  it('refuses a value that is not text', () => {
    expect(withTurn(42).length).toBeGreaterThan(0);
  });
});
