/**
 * A screen's `sort` text read as field + direction. Accepts `-field`, `field desc`,
 * `field.desc`, `field:desc` (and `asc` forms); plain `field` sorts ascending.
 *
 * @example
 * parseSort('-createdAt'); // { field: 'createdAt', descending: true }
 */
export function parseSort(sort: string): { field: string; descending: boolean } {
  const s = sort.trim();
  if (s.startsWith('-')) return { field: s.slice(1).trim(), descending: true };
  const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:\s+|[.:])(asc|desc)$/i.exec(s);
  if (m?.[1] && m[2]) return { field: m[1], descending: m[2].toLowerCase() === 'desc' };
  return { field: s.replace(/^\+/, ''), descending: false };
}

/** `Return by, latest first` / `Name, A to Z`-style words for a sort. */
export function sortWords(sort: string, label: (field: string) => string): string {
  const { field, descending } = parseSort(sort);
  return `${label(field)}, ${descending ? 'descending' : 'ascending'}`;
}
