import { describe, expect, it } from 'vitest';
import { mergeLatest } from './useSchemaForm.ts';

describe('issue 29: one "reload latest" merge for every form that saves a row', () => {
  it('keeps what was typed (touched fields) and shows the stored row for the rest', () => {
    const typed = { title: 'Mine', body: 'as loaded', priority: 'high' };
    const latest = { title: 'Theirs', body: 'changed meanwhile', priority: 'low', extra: 'not a form field' };
    expect(mergeLatest(typed, latest, (k) => k === 'title' || k === 'priority')).toEqual({
      title: 'Mine',
      body: 'changed meanwhile',
      priority: 'high',
    });
  });

  it('a field the stored row no longer has reads as empty (null), not as what was loaded', () => {
    expect(mergeLatest({ note: 'old' }, {}, () => false)).toEqual({ note: null });
  });
});
