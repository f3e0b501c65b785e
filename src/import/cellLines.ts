import type { Nodes, PhrasingContent, TableCell } from 'mdast';

/** One line of a table cell (cells separate lines with `<br>`): its text and code spans. */
export interface CellLine {
  /** Text with code spans kept in backticks' place as `\uE000n\uE000` markers. */
  marked: string;
  codes: string[];
}

/**
 * A cell split into lines at `<br>`, each line's code spans replaced by numbered markers, so
 * the words around a rule or a code can be read without mistaking a rule's content for words.
 */
export function cellLines(cell: TableCell | undefined): CellLine[] {
  const lines: CellLine[] = [{ marked: '', codes: [] }];
  const walk = (nodes: readonly Nodes[]) => {
    for (const n of nodes) {
      const line = lines[lines.length - 1] as CellLine;
      if (n.type === 'inlineCode') {
        line.marked += `\uE000${line.codes.length}\uE000`;
        line.codes.push(n.value);
      } else if (n.type === 'break' || (n.type === 'html' && /^<br\s*\/?>$/i.test(n.value))) {
        lines.push({ marked: '', codes: [] });
      } else if (n.type === 'text') {
        line.marked += n.value;
      } else if (n.type === 'html') {
        line.marked += n.value;
      } else if ('children' in n) {
        walk(n.children as PhrasingContent[]);
      }
    }
  };
  if (cell) walk(cell.children);
  return lines.map((l) => ({ marked: l.marked.trim(), codes: l.codes })).filter((l) => l.marked !== '');
}

/** The marked text with the code spans put back as plain text (no backticks). */
export function unmark(line: CellLine, marked = line.marked): string {
  return marked.replace(/\uE000(\d+)\uE000/g, (_, i: string) => line.codes[Number(i)] ?? '').trim();
}

/** The index of the last code marker in `marked`, or -1. */
export function lastCode(marked: string): { index: number; end: number } | undefined {
  let found: { index: number; end: number } | undefined;
  const re = /\uE000(\d+)\uE000/g;
  for (let m = re.exec(marked); m !== null; m = re.exec(marked)) {
    found = { index: Number(m[1]), end: m.index + m[0].length };
  }
  return found;
}
