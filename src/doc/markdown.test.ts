import { describe, expect, it } from 'vitest';
import { andList, cell, code, table } from './markdown.ts';

describe('markdown helpers', () => {
  it('escapes pipes and line breaks in table cells', () => {
    expect(cell('a | b')).toBe('a \\| b');
    expect(cell('one\ntwo\r\nthree')).toBe('one<br>two<br>three');
    expect(cell('`x | y`')).toBe('`x \\| y`');
  });

  it('builds a table whose rows keep their column count', () => {
    const t = table(['Name', 'Help'], [['title', 'Use | to split\nlines']]);
    expect(t).toBe('| Name | Help |\n| --- | --- |\n| title | Use \\| to split<br>lines |');
    expect(table(['A'], [])).toBe('');
    expect(table(['A', 'B'], [['', 'x']])).toBe('| A | B |\n| --- | --- |\n|   | x |');
  });

  it('fences inline code around backticks', () => {
    expect(code('a = b')).toBe('`a = b`');
    expect(code('say `hi`')).toBe('`` say `hi` ``');
  });

  it('joins lists in prose', () => {
    expect(andList([])).toBe('');
    expect(andList(['A'])).toBe('A');
    expect(andList(['A', 'B', 'C'])).toBe('A, B and C');
  });
});
