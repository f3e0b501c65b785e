import { useMemo, useState } from 'react';

const key = (screen: string) => `ninefold-columns:${screen}`;

/**
 * The columns a person chose to see on a list screen (the screen's columns, in the spec's order,
 * without those they hid), kept per screen in this browser (localStorage). At least one stays.
 */
export function useChosenColumns(screen: string, columns: readonly string[]) {
  const [hidden, setHidden] = useState<string[]>(() => {
    try {
      const saved = JSON.parse(localStorage.getItem(key(screen)) ?? '[]');
      return Array.isArray(saved) ? saved.filter((c): c is string => typeof c === 'string') : [];
    } catch {
      return [];
    }
  });
  // The same object while nothing changes: the list's rows and column chooser are memoised on it.
  const columnsKey = columns.join('\u0000');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `columnsKey` stands for `columns`' contents
  return useMemo(() => {
    const shown = columns.filter((c) => !hidden.includes(c));
    const toggle = (column: string) => {
      const next = hidden.includes(column) ? hidden.filter((c) => c !== column) : [...hidden, column];
      if (columns.every((c) => next.includes(c))) return;
      setHidden(next);
      try {
        localStorage.setItem(key(screen), JSON.stringify(next));
      } catch {
        // Storage blocked: the choice lasts for this visit.
      }
    };
    return { shown: shown.length > 0 ? shown : [...columns], hidden, toggle };
  }, [screen, columnsKey, hidden]);
}
