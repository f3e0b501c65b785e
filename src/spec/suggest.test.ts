import { describe, expect, it } from 'vitest';
import { levenshtein, suggest } from './suggest.ts';

describe('suggest', () => {
  it('measures edits, swaps of neighbours and ignores case', () => {
    expect(levenshtein('kitten', 'sitting')).toBe(3);
    expect(levenshtein('opne', 'open')).toBe(1);
    expect(levenshtein('Status', 'status')).toBe(0);
    expect(levenshtein('', 'abc')).toBe(3);
  });
  it('picks the closest close-enough candidate', () => {
    expect(suggest('requestr', ['assignee', 'requester'])).toBe('requester');
    expect(suggest('Status', ['status'])).toBe('status');
    expect(suggest('xyz', ['requester'])).toBeUndefined();
    expect(suggest('ab', ['ac', 'ab'])).toBe('ac');
    expect(suggest('a', [])).toBeUndefined();
  });
});
