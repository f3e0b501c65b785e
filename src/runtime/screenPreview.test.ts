import { describe, expect, it } from 'vitest';
import { onNextScreenDrawn, screenComing, screenDrawn, screenOnItsWay } from './screenPreview.ts';

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

describe('screenComing', () => {
  it('is on its way until the promise it was given settles, however it settles', async () => {
    let drawn: (v?: unknown) => void = () => undefined;
    let failed: (e: unknown) => void = () => undefined;
    screenComing(new Promise((r) => (drawn = r)));
    const first = screenOnItsWay();
    expect(first).not.toBeNull();
    drawn();
    await first;
    await Promise.resolve();
    expect(screenOnItsWay()).toBeNull();
    screenComing(new Promise((_, f) => (failed = f)));
    const second = screenOnItsWay();
    failed(new Error('no screen'));
    await second;
    await Promise.resolve();
    expect(screenOnItsWay()).toBeNull();
  });
});
