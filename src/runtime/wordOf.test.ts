import { describe, expect, it } from 'vitest';
import { wordOf } from './wordOf.ts';

describe('wordOf', () => {
  it('takes the first word of four letters or more from the first row, field by field', () => {
    expect(wordOf([{ id: '1', title: 'A 3D printer on fire' }], ['title'])).toBe('printer');
    expect(wordOf([{ id: '1', title: 'ok', body: 'Überweisung fehlt' }], ['title', 'body'])).toBe(
      'Überweisung',
    );
    expect(wordOf([{ id: '1', title: 'Internationalisation' }], ['title'])).toBe('Internationa');
  });

  it('has none when the first row has no such word, or there is no row', () => {
    expect(
      wordOf(
        [
          { id: '1', title: 'ab 1234', n: 5 },
          { id: '2', title: 'Second row' },
        ],
        ['title', 'n'],
      ),
    ).toBe(undefined);
    expect(wordOf([], ['title'])).toBe(undefined);
    expect(wordOf([{ id: '1', title: null }], ['title'])).toBe(undefined);
  });
});
