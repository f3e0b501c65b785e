import { type Ref, type RefCallback, useCallback, useMemo, useRef } from 'react';

// floating-ui's `useMergeRefs` (@floating-ui/react 0.27, MIT), the only thing Mantine's ScrollArea
// takes from that package: the build gives ScrollArea this copy (src/cli/firstScreenShimsPlugin.ts)
// so that Mantine's Table, which imports ScrollArea, does not put floating-ui (the whole module,
// about 15 KB gzip, shared with Tooltip and Popover) on the list's first-screen path.

/** Merges an array of refs into a single memoized callback ref, or `null` when all are empty. */
export function useMergeRefs<T>(refs: ReadonlyArray<Ref<T> | undefined>): RefCallback<T> | null {
  const cleanupRef = useRef<(() => void) | undefined>(undefined);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the refs themselves are the deps, as in floating-ui
  const refEffect = useCallback(
    (instance: T) => {
      const cleanups = refs.map((ref) => {
        if (ref == null) return undefined;
        if (typeof ref === 'function') {
          const cleanup = ref(instance);
          return typeof cleanup === 'function' ? cleanup : () => ref(null);
        }
        (ref as { current: T | null }).current = instance;
        return () => {
          (ref as { current: T | null }).current = null;
        };
      });
      return () => {
        for (const c of cleanups) c?.();
      };
    },
    [...refs],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: the refs themselves are the deps, as in floating-ui
  return useMemo(() => {
    if (refs.every((ref) => ref == null)) return null;
    return (value: T | null) => {
      if (cleanupRef.current) {
        cleanupRef.current();
        cleanupRef.current = undefined;
      }
      if (value != null) cleanupRef.current = refEffect(value);
    };
  }, [...refs]);
}
