/**
 * A word (four letters or more, at most its first 12) of the first row's text in `fields`, if
 * any: what a list's search box warms the search path with (useListAddress's `warmSearch`).
 *
 * @example
 * wordOf([{ id: '1', title: 'Printer on fire' }], ['title']) // 'Printer'
 */
export function wordOf(
  rows: readonly Readonly<Record<string, unknown>>[],
  fields: readonly string[],
): string | undefined {
  for (const row of rows.slice(0, 1))
    for (const f of fields) {
      const value = row[f];
      const word = typeof value === 'string' ? value.match(/\p{L}{4,}/u)?.[0] : undefined;
      if (word) return word.slice(0, 12);
    }
  return undefined;
}
