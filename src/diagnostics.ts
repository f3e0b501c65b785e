/**
 * Problems found in a specification, as data. Every diagnostic names the path in the
 * specification (`states.ticket.transitions.solve.guard`), what is wrong, and how to fix it.
 */

export type DiagnosticCode =
  // loading and shape
  | 'load/not-found'
  | 'load/failed'
  | 'spec/missing'
  | 'spec/type'
  | 'spec/unknown-key'
  | 'spec/unknown-name'
  | 'spec/invalid-name'
  | 'spec/invalid-value'
  // reading a nine-point document (`ninefold import`)
  | 'doc/missing'
  | 'doc/unknown-name'
  | 'doc/invalid-value'
  | 'doc/duplicate'
  // rule language
  | 'rule/syntax'
  | 'rule/unknown-name'
  | 'rule/type'
  | 'rule/scope'
  // lints
  | 'lint/undefined-state'
  | 'lint/unreachable-state'
  | 'lint/dead-end-state'
  | 'lint/dead-transition'
  | 'lint/idle-role'
  | 'lint/call-role-gap'
  | 'lint/route-param'
  | 'lint/entity-not-shown'
  | 'lint/undefined-error'
  | 'lint/unused-error'
  | 'lint/unused-constant'
  | 'lint/audited-without-history'
  | 'lint/unknown-placeholder'
  | 'lint/update-without-read'
  | 'lint/unique-on-hidden-rows'
  | 'lint/guard-counts-hidden-rows'
  | 'lint/unknown-translation'
  | 'lint/missing-translation'
  | 'lint/translation-placeholder';

export interface Diagnostic {
  code: DiagnosticCode;
  severity: 'error' | 'warning';
  /** Dotted path into the specification. */
  path: string;
  /** What is wrong. */
  message: string;
  /** What would be right (e.g. `did you mean "assignee"?`). */
  hint?: string;
  /** For rule errors: the offending range of the rule text. */
  span?: { start: number; end: number };
  /** For problems found in a nine-point document: where in the Markdown (1-based). */
  at?: { line: number; column: number };
}

/** One line: `path: message — hint`. */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.path}: ${d.message}${d.hint ? ` — ${d.hint}` : ''}`;
}

/** Thrown only at the IO edge (loader, CLI); the core returns diagnostics as data. */
export class SpecError extends Error {
  readonly diagnostics: readonly Diagnostic[];
  constructor(diagnostics: readonly Diagnostic[]) {
    super(diagnostics.map(formatDiagnostic).join('\n'));
    this.name = 'SpecError';
    this.diagnostics = diagnostics;
  }
}
