import type { Heading, Nodes, Root, RootContent, Table, TableCell } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { didYouMean } from '../spec/didYouMean.ts';

/**
 * The Markdown side of `ninefold import`: the document parsed by micromark/mdast (CommonMark +
 * GFM tables), and small readers over the tree. Every value read keeps the position of the node
 * it came from, so a problem can be reported at its line and column.
 */

/** 1-based line and column in the Markdown source. */
export interface Pos {
  line: number;
  column: number;
}

export const START: Pos = { line: 1, column: 1 };

export function parseMarkdown(source: string): Root {
  const chunks = chunksOf(source);
  if (chunks.length === 1) return parseChunk(source);
  const seen = new Map<string, Root>();
  const root: Root = { type: 'root', children: [] };
  let line = 0;
  let offset = 0;
  for (const chunk of chunks) {
    const tree = parsedChunks.get(chunk) ?? seen.get(chunk) ?? parseChunk(chunk);
    seen.set(chunk, tree);
    for (const child of tree.children) root.children.push(shifted(child, line, offset));
    line += lineCount(chunk);
    offset += chunk.length;
  }
  // Only the last document's sections are kept: an edit re-parses the section it touched.
  parsedChunks = seen;
  root.position = {
    start: { line: 1, column: 1, offset: 0 },
    end: endOf(source),
  };
  return root;
}

function parseChunk(source: string): Root {
  return fromMarkdown(source, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

/** The sections of the last document parsed, by their text (the studio parses on each keystroke). */
let parsedChunks = new Map<string, Root>();

/**
 * The document cut before each heading (`#` to `######`) that follows a blank line, outside fenced
 * code and raw HTML that runs past blank lines (comments, `<pre>`, `<script>`, `<style>`,
 * `<textarea>`): such a heading ends whatever block came before it, so each piece parses on its own
 * into exactly the nodes the whole would have given (link reference definitions aside, which the
 * nine-point format does not use).
 */
function chunksOf(source: string): string[] {
  const chunks: string[] = [];
  let start = 0;
  /** What ends the fenced code or raw HTML we are in (null: in neither). */
  let until: string | RegExp | null = null;
  let blankBefore = true;
  let at = 0;
  while (at < source.length) {
    const nl = source.indexOf('\n', at);
    const end = nl < 0 ? source.length : nl + 1;
    const line = source.slice(at, end);
    if (until !== null) {
      if (typeof until === 'string' ? line.trimStart().startsWith(until) : until.test(line)) until = null;
    } else if (/^#{1,6}[ \t\r\n]/.test(line) && blankBefore && at > start) {
      chunks.push(source.slice(start, at));
      start = at;
    } else until = opens(line);
    blankBefore = line.trim() === '';
    at = end;
  }
  chunks.push(source.slice(start));
  return chunks;
}

/** What closes the fenced code or raw HTML block this line opens and does not close, if any. */
function opens(line: string): string | RegExp | null {
  const fence = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
  if (fence) return fence;
  const comment = line.lastIndexOf('<!--');
  if (comment >= 0 && !line.slice(comment).includes('-->')) return /-->/;
  const raw = /^ {0,3}<(pre|script|style|textarea)[\s>]/i.exec(line)?.[1];
  if (raw && !new RegExp(`</${raw}>`, 'i').test(line)) return new RegExp(`</${raw}>`, 'i');
  return null;
}

function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function endOf(source: string): { line: number; column: number; offset: number } {
  const line = lineCount(source) + 1;
  return { line, column: source.length - source.lastIndexOf('\n'), offset: source.length };
}

/** A copy of a parsed section's node, its positions moved to where the section is in the document. */
function shifted<T extends Nodes>(node: T, lines: number, offset: number): T {
  const copy = { ...node } as T & { children?: Nodes[] };
  if (node.position)
    copy.position = {
      start: {
        ...node.position.start,
        line: node.position.start.line + lines,
        offset: (node.position.start.offset ?? 0) + offset,
      },
      end: {
        ...node.position.end,
        line: node.position.end.line + lines,
        offset: (node.position.end.offset ?? 0) + offset,
      },
    };
  const children = (node as { children?: Nodes[] }).children;
  if (children) copy.children = children.map((c) => shifted(c, lines, offset));
  return copy;
}

export function posOf(node: Nodes | undefined, fallback: Pos = START): Pos {
  const p = node?.position?.start;
  return p ? { line: p.line, column: p.column } : fallback;
}

/** The node's text with Markdown formatting removed (code spans keep their content). */
export function textOf(node: Nodes | undefined): string {
  return node ? nodeText(node).trim() : '';
}

function nodeText(n: Nodes): string {
  if ('value' in n && n.type !== 'html') return n.value;
  if (n.type === 'break' || (n.type === 'html' && /^<br\s*\/?>$/i.test(n.value))) return '\n';
  return 'children' in n ? (n.children as Nodes[]).map(nodeText).join('') : '';
}

/**
 * The node's text exactly as written in the source, with the table-cell escapes `ninefold doc`
 * applies undone (`\|` → `|`, `<br>` → line break). Free text (labels, help, messages) is read
 * this way so `*`, `_` or backticks in it come back unchanged.
 */
export function rawOf(node: Nodes | undefined, source: string, inTable = false): string {
  // A table cell's own range includes its pipes: take its content's range instead.
  const inner = node?.type === 'tableCell' ? node.children : undefined;
  if (inner && inner.length === 0) return '';
  const start = (inner ? inner[0] : node)?.position?.start.offset;
  const end = (inner ? inner[inner.length - 1] : node)?.position?.end.offset;
  if (start === undefined || end === undefined) return textOf(node);
  const raw = source.slice(start, end);
  // The inverse of `cell` in src/doc/markdown.ts: `\|` → `|`, `\\\|` → `\|`, `<br>` → line break.
  const unescaped = inTable
    ? raw
        .replace(/(\\+)\|/g, (_, bs: string) => `${'\\'.repeat((bs.length - 1) / 2)}|`)
        .replace(/<br\s*\/?>/gi, '\n')
    : raw;
  return unescaped.trim();
}

/** The raw text of a range of sibling nodes (e.g. the paragraphs of a summary). */
export function rawRange(nodes: readonly Nodes[], source: string): string {
  const first = nodes[0]?.position?.start.offset;
  const last = nodes[nodes.length - 1]?.position?.end.offset;
  if (first === undefined || last === undefined) return '';
  return source.slice(first, last).trim();
}

/** The content of inline code spans in a node, in order. */
export function codesOf(node: Nodes | undefined): string[] {
  const out: string[] = [];
  const walk = (n: Nodes) => {
    if (n.type === 'inlineCode') out.push(n.value);
    if ('children' in n) for (const c of n.children as Nodes[]) walk(c);
  };
  if (node) walk(node);
  return out;
}

/** A block of the document under one heading, down to the next heading of the same or higher rank. */
export interface Section {
  heading: Heading;
  /** The heading's text. */
  title: string;
  /** Everything after the heading, up to the next heading of depth ≤ this one's. */
  body: RootContent[];
}

/** Splits `nodes` at every heading of exactly `depth` (content before the first one is dropped). */
export function sectionsAt(nodes: readonly RootContent[], depth: number): Section[] {
  const out: Section[] = [];
  let current: Section | undefined;
  for (const n of nodes) {
    if (n.type === 'heading' && n.depth <= depth) {
      current = n.depth === depth ? { heading: n, title: textOf(n), body: [] } : undefined;
      if (current) out.push(current);
    } else if (current) {
      current.body.push(n);
    }
  }
  return out;
}

/** One cell read from a table: formatted text, raw text, code spans and position. */
export interface Cell {
  node: TableCell | undefined;
  text: string;
  raw: string;
  codes: string[];
  pos: Pos;
}

/** Where `readTable` reports a column header it does not know but that looks like a known one. */
export interface HeaderReporter {
  problem(code: 'doc/unknown-name', pos: Pos, path: string, message: string, hint?: string): void;
}

/** One table row with its cells looked up by column key. */
export interface Row {
  pos: Pos;
  cell: (key: string) => Cell;
  has: (key: string) => boolean;
}

/**
 * Reads a GFM table, finding columns by their header words rather than their position, so
 * columns may come in any order and extra columns are ignored. `columns` maps a key to the
 * header words that name it (compared in lower case, without punctuation).
 */
export function readTable(
  table: Table,
  source: string,
  columns: Record<string, readonly string[]>,
  reporter?: HeaderReporter,
): Row[] {
  const [head, ...body] = table.children;
  const index = new Map<string, number>();
  const known = Object.values(columns).flatMap((names) => names.map(headerWords));
  (head?.children ?? []).forEach((c, i) => {
    const words = headerWords(textOf(c));
    let matched = false;
    for (const [key, names] of Object.entries(columns)) {
      if (names.some((n) => headerWords(n) === words)) {
        matched = true;
        if (!index.has(key)) index.set(key, i);
      }
    }
    // Extra columns are ignored, but one spelled almost like a known column is a typo, not a note:
    // its cells would be dropped (a misspelt "Requird" would make every field optional).
    const hint = matched || words === '' ? undefined : didYouMean(words, known);
    if (hint && reporter)
      reporter.problem('doc/unknown-name', posOf(c), 'columns', `unknown column "${textOf(c)}"`, hint);
  });
  return body.map((row) => {
    const rowPos = posOf(row);
    const cellAt = (key: string): Cell => {
      const i = index.get(key);
      const node = i === undefined ? undefined : row.children[i];
      return {
        node,
        text: textOf(node),
        raw: rawOf(node, source, true),
        codes: codesOf(node),
        pos: posOf(node, rowPos),
      };
    };
    return { pos: rowPos, cell: cellAt, has: (key) => index.has(key) };
  });
}

/** The headers of a table in lower-case words, to recognise which table is which. */
export function tableHeaders(table: Table): string[] {
  return (table.children[0]?.children ?? []).map((c) => headerWords(textOf(c)));
}

export function headerWords(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Top-level tables of a block. */
export function tablesIn(nodes: readonly RootContent[]): Table[] {
  return nodes.filter((n): n is Table => n.type === 'table');
}

/**
 * Undoes Markdown backslash escapes (`\*` → `*`), for text read raw where `ninefold doc` escapes
 * labels (`mdText` in src/doc/markdown.ts), such as the Type column's `reference to <entity>`.
 */
export function unescapeMarkdown(text: string): string {
  return text.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}
