import { readFile } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lintSpec } from '../check/lintSpec.ts';
import type { Diagnostic } from '../diagnostics.ts';
import { importDoc, locate } from './importDoc.ts';
import { printSpecTs } from './printSpecTs.ts';

/** The repository (or installed package) root: `src/import/` is two levels down. */
const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** What `ninefold import` produced: the exit code and the file text (TypeScript or JSON). */
export interface ImportOutcome {
  code: 0 | 1 | 2;
  text?: string;
  /** One line per problem, `error doc.md:12:5 path: message — hint`. */
  lines: string[];
}

/**
 * `ninefold import <doc.md>`: reads the document, reports every problem at its line and column,
 * runs `check` (validation and lints) on the result and returns the `defineApp(...)` module
 * (or the JSON). Exit codes as `check`: 0 clean or warnings, 1 errors, 2 unreadable.
 *
 * @example
 * const r = await runImport('doc.md', { output: 'spec.ts' });
 */
export async function runImport(
  docPath: string,
  options: { output?: string; json?: boolean; cwd?: string } = {},
): Promise<ImportOutcome> {
  const cwd = options.cwd ?? process.cwd();
  let markdown: string;
  try {
    markdown = await readFile(resolve(cwd, docPath), 'utf8');
  } catch {
    return { code: 2, lines: [`error ${docPath}: no such file, or it cannot be read`] };
  }
  const result = importDoc(markdown);
  const diagnostics: Diagnostic[] = [...result.diagnostics];
  if (result.spec) diagnostics.push(...lintSpec(result.spec).map((d) => locate(d, result.positions)));
  const lines = diagnostics.map((d) => formatDocLine(docPath, d));
  if (!result.spec) return { code: 1, lines };
  const text = options.json
    ? `${JSON.stringify(result.spec, null, 2)}\n`
    : printSpecTs(result.spec, {
        importFrom: importSpecifier(options.output ? resolve(cwd, options.output) : undefined),
        comments: result.comments,
        header: `Imported from ${relative(
          options.output ? dirname(resolve(cwd, options.output)) : cwd,
          resolve(cwd, docPath),
        )
          .split(sep)
          .join('/')} by \`ninefold import\`.`,
      });
  const errors = diagnostics.some((d) => d.severity === 'error');
  return { code: errors ? 1 : 0, text, lines };
}

/**
 * `defineApp` comes from the `ninefold` package in a project; a file written inside this
 * repository (its examples, its tests) imports the source directly, as the reference apps do.
 */
function importSpecifier(outputFile: string | undefined): string {
  if (!outputFile) return 'ninefold';
  const rel = relative(PACKAGE_ROOT, outputFile);
  if (rel.startsWith('..') || rel.startsWith(sep) || rel.includes('node_modules')) return 'ninefold';
  const spec = relative(dirname(outputFile), resolve(PACKAGE_ROOT, 'src/spec/defineApp.ts'))
    .split(sep)
    .join('/');
  return spec.startsWith('.') ? spec : `./${spec}`;
}

/** `error doc.md:12:5 states.ticket.transitions.solve.guard: unknown name "asignee" — did you mean "assignee"?` */
export function formatDocLine(file: string, d: Diagnostic): string {
  const where = d.at ? `${file}:${d.at.line}:${d.at.column}` : file;
  return `${d.severity} ${where}${d.path ? ` ${d.path}` : ''}: ${d.message}${d.hint ? ` — ${d.hint}` : ''}`;
}
