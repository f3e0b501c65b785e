import { describe, expect, it } from 'vitest';
import { lazyField } from './lazyField.ts';

describe('lazyField', () => {
  it('computes on the first read only, then is a plain enumerable value', () => {
    let runs = 0;
    const node = { table: 'ticket' };
    lazyField(node, 'indexes', () => {
      runs++;
      return ['a'];
    });
    expect(runs).toBe(0);
    expect(node.indexes).toEqual(['a']);
    expect(node.indexes).toBe(node.indexes);
    expect(runs).toBe(1);
    expect(Object.getOwnPropertyDescriptor(node, 'indexes')).toMatchObject({
      value: ['a'],
      enumerable: true,
    });
    expect(JSON.parse(JSON.stringify(node))).toEqual({ table: 'ticket', indexes: ['a'] });
  });

  it('shows in copies and equality as if it were computed at once', () => {
    const node = { table: 'ticket' };
    lazyField(node, 'rules', () => [1, 2]);
    expect({ ...node }).toEqual({ table: 'ticket', rules: [1, 2] });
  });

  it('still answers, once, on an object frozen before the first read', () => {
    let runs = 0;
    const node = { table: 'ticket' };
    lazyField(node, 'outbox', () => {
      runs++;
      return { entities: [] };
    });
    Object.freeze(node);
    expect(node.outbox).toBe(node.outbox);
    expect(runs).toBe(1);
  });
});
