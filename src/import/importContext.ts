import type { Diagnostic, DiagnosticCode } from '../diagnostics.ts';
import { didYouMean } from '../spec/didYouMean.ts';
import type { Pos } from './markdownTree.ts';

/** A name the document may refer to by its key (`submittedAt`) or by its label (`Submitted`). */
export interface Named {
  key: string;
  label?: string | undefined;
  /** Other words that name it (an entity's plural). */
  also?: readonly (string | undefined)[];
}

/**
 * What the readers share while they walk the document: the source, the problems found so far,
 * and where each part of the specification came from (spec path → Markdown position), so the
 * checks that run on the imported specification can point back into the Markdown.
 */
export class ImportContext {
  readonly diagnostics: Diagnostic[] = [];
  readonly positions = new Map<string, Pos>();

  constructor(readonly source: string) {}

  /** Remembers where a spec path was written (the first position wins). */
  at(path: string, pos: Pos): void {
    if (!this.positions.has(path)) this.positions.set(path, pos);
  }

  problem(
    code: DiagnosticCode,
    pos: Pos,
    path: string,
    message: string,
    hint?: string,
    severity: 'error' | 'warning' = 'error',
  ): void {
    this.diagnostics.push({
      code,
      severity,
      path,
      message,
      ...(hint ? { hint } : {}),
      at: { line: pos.line, column: pos.column },
    });
  }

  /**
   * Finds what a word names among `candidates`: by key, then by label, then by other names,
   * each exactly and then ignoring case and backticks. Reports an unknown name with a
   * "did you mean" and returns undefined.
   */
  resolve(
    candidates: readonly Named[],
    text: string,
    what: string,
    pos: Pos,
    path: string,
  ): string | undefined {
    const found = findNamed(candidates, text);
    if (found !== undefined) return found;
    const words = candidates.flatMap((c) => [c.label ?? c.key]);
    const hint =
      didYouMean(clean(text), [...words, ...candidates.map((c) => c.key)]) ??
      (words.length > 0 && words.length <= 12 ? `one of: ${words.join(', ')}` : undefined);
    this.problem('doc/unknown-name', pos, path, `unknown ${what} "${clean(text)}"`, hint);
    return undefined;
  }
}

function clean(text: string): string {
  return text.replace(/`/g, '').trim();
}

/** The key `text` names, or undefined. */
export function findNamed(candidates: readonly Named[], text: string): string | undefined {
  const t = clean(text);
  if (t === '') return undefined;
  // A label may hold backticks, which the reader drops from the text (`clean`): compare both ways.
  const exact = (s: string | undefined) => s !== undefined && (s === t || clean(s) === t);
  const loose = (s: string | undefined) =>
    s !== undefined && (s.toLowerCase() === t.toLowerCase() || clean(s).toLowerCase() === t.toLowerCase());
  for (const match of [exact, loose]) {
    const byKey = candidates.find((c) => match(c.key));
    if (byKey) return byKey.key;
    const byLabel = candidates.find((c) => match(c.label));
    if (byLabel) return byLabel.key;
    const byOther = candidates.find((c) => (c.also ?? []).some(match));
    if (byOther) return byOther.key;
  }
  return undefined;
}

/** Splits a comma-separated list of names, dropping empty items and a trailing period. */
export function splitList(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if (ch === ',' && depth === 0) {
      out.push(current);
      current = '';
    } else current += ch;
  }
  out.push(current);
  return out.map((s) => s.trim().replace(/\.$/, '').trim()).filter((s) => s !== '');
}

/** `yes`, `✓`, `x`, `true` → true; `no`, `✗`, `-`, `false` → false; blank → undefined. */
export function flag(text: string): boolean | undefined {
  const t = text.trim().toLowerCase();
  if (t === '') return undefined;
  const first = t.split(/[\s:;,(]/)[0] ?? '';
  if (['yes', 'y', 'true', '✓', '✔', '✅', 'x', '[x]', '☑', 'always'].includes(first)) return true;
  if (['no', 'n', 'false', '✗', '✘', '❌', '-', '—', '–', '[ ]', 'never'].includes(first)) return false;
  return undefined;
}

/**
 * A yes/no cell: `flag` of its text, and an error at the cell when it says something else
 * (a misspelt `yse` must not read as "no").
 */
export function flagCell(
  ctx: ImportContext,
  cell: { text: string; pos: Pos },
  path: string,
): boolean | undefined {
  const b = flag(cell.text);
  if (b === undefined && cell.text.trim() !== '')
    ctx.problem(
      'doc/invalid-value',
      cell.pos,
      path,
      `cannot read "${cell.text.trim()}" as yes or no`,
      'write yes (or ✓, x, true) or no (or ✗, -, false), or leave the cell empty',
    );
  return b;
}

/**
 * Tables and lists under a heading beyond the ones a reader takes (`expected` tables,
 * `expectedLists` lists): each is reported, so a second table of fields or a stray list is not
 * dropped silently.
 */
export function extraBlocks(
  ctx: ImportContext,
  body: readonly { type: string; position?: { start: Pos } | undefined }[],
  expected: number,
  path: string,
  what: string,
  expectedLists = 0,
): void {
  let tables = 0;
  let lists = 0;
  for (const n of body) {
    if (n.type === 'table') tables += 1;
    if (n.type === 'list') lists += 1;
    if ((n.type === 'table' && tables > expected) || (n.type === 'list' && lists > expectedLists)) {
      const pos = n.position?.start ?? { line: 1, column: 1 };
      ctx.problem(
        'doc/invalid-value',
        { line: pos.line, column: pos.column },
        path,
        `a ${n.type} the importer does not read here`,
        `${what}; put notes in an HTML comment`,
      );
    }
  }
}

/** `dueAt` from `Due at`; a label turned into a name when the document gives no key. */
export function keyFromLabel(label: string): string {
  const words = label
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((w) => w !== '');
  const key = words
    .map((w, i) => (i === 0 ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()))
    .join('');
  return /^[0-9]/.test(key) ? `_${key}` : key || 'unnamed';
}
