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
  let computed: { value: V } | undefined;
  Object.defineProperty(target, key, {
    configurable: true,
    enumerable: true,
    get() {
      if (!computed) {
        computed = { value: compute() };
        try {
          // From now on a plain value (a frozen target keeps the getter, which answers the same).
          Object.defineProperty(target, key, { value: computed.value, enumerable: true, writable: false });
        } catch {
          // Frozen meanwhile: the getter keeps answering.
        }
      }
      return computed.value;
    },
  });
}
