/**
 * RFC 4180 CSV: a header row and one line per row, every cell quoted when it needs to be.
 * Cells starting with `=`, `+`, `-` or `@` are prefixed with `'` so spreadsheets do not run
 * them as formulas (CSV injection).
 *
 * @example
 * toCsv(['Title'], [['Printer, 2nd floor']]) // 'Title\r\n"Printer, 2nd floor"\r\n'
 */
export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return `${[header, ...rows].map((r) => r.map(cell).join(',')).join('\r\n')}\r\n`;
}

function cell(raw: string): string {
  const v = /^[=+\-@]/.test(raw) ? `'${raw}` : raw;
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}
