import { lintSpec } from '../src/check/lintSpec.ts';
import type { Diagnostic } from '../src/diagnostics.ts';
import { importDoc, locate } from '../src/import/importDoc.ts';
import type { AppSpec } from '../src/spec/types.ts';

/** A replacement that applies a diagnostic's suggestion (`did you mean "assignee"?`). */
export interface QuickFix {
  label: string;
  from: number;
  to: number;
  insert: string;
}

/** A diagnostic placed in the document: offsets into the text, as the editor marks them. */
export interface PlacedDiagnostic {
  from: number;
  to: number;
  line: number;
  column: number;
  severity: 'error' | 'warning';
  code: string;
  message: string;
  fix?: QuickFix;
}

/** What the studio knows about one version of the document. */
export interface Diagnosis {
  /** The specification, or null while the document has errors. */
  spec: AppSpec | null;
  diagnostics: PlacedDiagnostic[];
}

/**
 * `ninefold check` on a document's text, in the browser: the import's problems, the validation's
 * and the lints, each at its offset in the text. A rule's problem is narrowed to the words its
 * span names when the rule's text is found where the document wrote it, so a misspelt name is
 * marked by itself and its "did you mean" becomes a replacement of just that name.
 *
 * @example
 * diagnose(text).diagnostics[0]; // { line: 63, from: 2711, to: 2718, fix: { insert: 'assignee', … } }
 */
export function diagnose(text: string): Diagnosis {
  const result = importDoc(text);
  const found: Diagnostic[] = [...result.diagnostics];
  if (result.spec) found.push(...lintSpec(result.spec).map((d) => locate(d, result.positions)));
  const lines = lineStarts(text);
  const diagnostics = found.map((d) => place(d, text, lines, result.draft));
  return { spec: result.spec, diagnostics };
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function place(d: Diagnostic, text: string, lines: number[], draft: AppSpec | null): PlacedDiagnostic {
  const line = Math.min(Math.max(d.at?.line ?? 1, 1), lines.length);
  const lineStart = lines[line - 1] ?? 0;
  const lineEnd = lines[line] !== undefined ? (lines[line] as number) - 1 : text.length;
  const at = Math.min(lineStart + Math.max((d.at?.column ?? 1) - 1, 0), lineEnd);
  const message = d.hint ? `${d.message} — ${d.hint}` : d.message;
  const range = ruleRange(d, text, at, draft) ?? nameRange(d, text, at, lineEnd) ?? { from: at, to: lineEnd };
  const placed: PlacedDiagnostic = {
    from: range.from,
    to: Math.max(range.to, range.from),
    line: lineOf(lines, range.from),
    column: range.from - (lines[lineOf(lines, range.from) - 1] ?? 0) + 1,
    severity: d.severity,
    code: d.code,
    message,
  };
  const fix = quickFix(d, text, range);
  return fix ? { ...placed, fix } : placed;
}

function lineOf(lines: number[], offset: number): number {
  let lo = 0;
  let hi = lines.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((lines[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** The rule's text as the specification holds it at the diagnostic's path (a string), if any. */
function ruleText(d: Diagnostic, draft: AppSpec | null): string | undefined {
  const fromMessage = /rule "(.+)"$/.exec(d.message)?.[1];
  if (fromMessage) return fromMessage;
  let value: unknown = draft;
  for (const key of d.path.replace(/\[(\d+)\]/g, '.$1').split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { when?: unknown }).when === 'string')
    return (value as { when: string }).when;
  return undefined;
}

/** Where a rule's span is in the document: the rule's text searched for from the diagnostic's place. */
function ruleRange(
  d: Diagnostic,
  text: string,
  at: number,
  draft: AppSpec | null,
): { from: number; to: number } | undefined {
  if (!d.span) return undefined;
  const rule = ruleText(d, draft);
  if (!rule) return undefined;
  // Tables escape a rule's `|` as `\|`; the search allows both.
  const start = findNear(text, rule, at) ?? findNear(text, rule.replaceAll('|', '\\|'), at);
  if (start === undefined) return undefined;
  return { from: start + d.span.start, to: start + d.span.end };
}

/** A rule is written on the diagnostic's line or within the few lines after it (a section's list). */
function findNear(text: string, needle: string, at: number): number | undefined {
  const i = text.indexOf(needle, at);
  return i >= 0 && i - at < 4000 ? i : undefined;
}

/** A quoted wrong name (`unknown field "titel"`) found on the diagnostic's line. */
function nameRange(
  d: Diagnostic,
  text: string,
  at: number,
  lineEnd: number,
): { from: number; to: number } | undefined {
  const name = /"([^"]+)"/.exec(d.message)?.[1];
  if (!name) return undefined;
  const i = text.slice(at, lineEnd).indexOf(name);
  return i >= 0 ? { from: at + i, to: at + i + name.length } : undefined;
}

/** The hint's suggestion in place of the marked name, when what is marked is that name. */
function quickFix(d: Diagnostic, text: string, range: { from: number; to: number }): QuickFix | undefined {
  const suggestion = /did you mean ["']([^"']+)["']\?/.exec(d.hint ?? '')?.[1];
  if (!suggestion || range.to <= range.from) return undefined;
  const marked = text.slice(range.from, range.to);
  if (marked.includes('\n') || marked === suggestion) return undefined;
  return { label: `Replace with ${suggestion}`, from: range.from, to: range.to, insert: suggestion };
}
