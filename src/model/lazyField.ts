/**
 * Makes `target[key]` computed on its first read and kept from then on (an own, enumerable,
 * read-only data property), so that a part of the model nobody reads costs nothing. The tab
 * resolves the model while the first screen waits for it; the parts only the compiler, the
 * outbox or a form read (a table's indexes, the checked rules, the outbox's payloads) wait for
 * their first reader instead (docs/performance.md, "Where a return visit's time goes").
 *
 * @example
 * const node = { table: 'ticket' };
 * lazyField(node, 'indexes', () => ['a']);
 * node.indexes; // ['a'], computed now (and typed: the call asserts the field is there)
 */
export function lazyField<T extends object, K extends string, V>(
  target: T,
  key: K,
  compute: () => V,
): asserts target is T & Record<K, V> {
  Object.defineProperty(target, key, {
    configurable: true,
    enumerable: true,
    get() {
      const value = compute();
      Object.defineProperty(target, key, { value, enumerable: true, configurable: false, writable: false });
      return value;
    },
  });
}
