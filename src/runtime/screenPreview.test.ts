import { describe, expect, it } from 'vitest';
import { onNextScreenDrawn, screenDrawn } from './screenPreview.ts';

describe('onNextScreenDrawn', () => {
  it('calls each listener once, at the next screen drawn, in the order they came', () => {
    const heard: string[] = [];
    onNextScreenDrawn(() => heard.push('a'));
    onNextScreenDrawn(() => heard.push('b'));
    expect(heard).toEqual([]);
    screenDrawn();
    expect(heard).toEqual(['a', 'b']);
    screenDrawn();
    expect(heard).toEqual(['a', 'b']);
    onNextScreenDrawn(() => heard.push('c'));
    screenDrawn();
    expect(heard).toEqual(['a', 'b', 'c']);
  });
});
