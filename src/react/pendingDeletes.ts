import { useSyncExternalStore } from 'react';

// Rows deleted but not yet sent (their toast still offers Undo): lists leave them out meanwhile.
const pending = new Set<string>();
const listeners = new Set<() => void>();
let version = 0;
const changed = () => {
  version++;
  for (const l of listeners) l();
};

/** Hides a row from lists until `showPending` (its delete waits for its Undo toast to go). */
export function hidePending(id: string): void {
  pending.add(id);
  changed();
}

export function showPending(id: string): void {
  pending.delete(id);
  changed();
}

/** The ids of rows whose delete waits for its Undo toast to go (lists leave them out). */
export function usePendingDeletes(): ReadonlySet<string> {
  useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => version,
  );
  return pending;
}
