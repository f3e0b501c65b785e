import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { validateSpec } from '../check/validateSpec.ts';
import type { Diagnostic } from '../diagnostics.ts';
import { importSpecExport } from '../spec/importSpecModule.ts';
import type { AppSpec } from '../spec/types.ts';

/**
 * A loaded specification, or why there is none: `load` when the file is missing, unreadable
 * or throws while loading (CLI exit 2), `invalid` when it loaded but has errors (exit 1).
 */
export type LoadResult =
  | { ok: true; spec: AppSpec; path: string; diagnostics: Diagnostic[] }
  | { ok: false; kind: 'load' | 'invalid'; diagnostics: Diagnostic[] };

/** Files a directory resolves to, in order of preference. */
export const SPEC_FILES = ['spec.ts', 'spec.json'] as const;

/**
 * Loads and validates a specification from a `.ts` file (its default export, or a named
 * `spec`/`app` export), a `.json` file, or a directory holding `spec.ts` or `spec.json`.
 *
 * @example
 * const r = await loadSpec('examples/helpdesk');
 * if (r.ok) compileMigration(r.spec); else r.diagnostics.forEach((d) => console.error(formatDiagnostic(d)));
 */
export async function loadSpec(pathOrDir: string): Promise<LoadResult> {
  const file = await resolveSpecFile(pathOrDir);
  if (typeof file !== 'string') return { ok: false, kind: 'load', diagnostics: [file] };
  if (isDocPath(file)) {
    // A nine-point document: imported in memory (`ninefold import`), problems at line and column.
    const { loadDoc } = await import('./loadDoc.ts');
    const doc = await loadDoc(file);
    if (doc.failed) return { ok: false, kind: 'load', diagnostics: doc.diagnostics };
    return doc.spec
      ? { ok: true, spec: doc.spec, path: file, diagnostics: doc.diagnostics }
      : { ok: false, kind: 'invalid', diagnostics: doc.diagnostics };
  }
  let data: unknown;
  try {
    const abs = resolve(file);
    data = file.endsWith('.json') ? JSON.parse(await readFile(abs, 'utf8')) : await importSpecExport(abs);
  } catch (e) {
    return { ok: false, kind: 'load', diagnostics: [loadFailed(file, e)] };
  }
  const { spec, diagnostics } = validateSpec(data);
  return spec ? { ok: true, spec, path: file, diagnostics } : { ok: false, kind: 'invalid', diagnostics };
}

/** The file to load, as the user wrote it (so messages show their path), or why there is none. */
async function resolveSpecFile(path: string): Promise<string | Diagnostic> {
  const kind = await stat(resolve(path)).then(
    (s) => (s.isDirectory() ? 'dir' : 'file'),
    () => 'missing' as const,
  );
  if (kind === 'file') {
    if (/\.(json|[cm]?[jt]s)$/.test(path) || isDocPath(path)) return path;
    return {
      code: 'load/failed',
      severity: 'error',
      path,
      message: 'a specification is a .ts, .js or .json file, or a nine-point document (.md)',
      hint: `or a directory holding ${SPEC_FILES.join(' or ')}`,
    };
  }
  if (kind === 'dir') {
    for (const name of SPEC_FILES) {
      const candidate = join(path, name);
      if (
        await stat(candidate).then(
          (s) => s.isFile(),
          () => false,
        )
      )
        return candidate;
    }
    return {
      code: 'load/not-found',
      severity: 'error',
      path,
      message: `no ${SPEC_FILES.join(' or ')} in this directory`,
    };
  }
  return { code: 'load/not-found', severity: 'error', path, message: 'no such file or directory' };
}

/** A nine-point document (Markdown), read by `ninefold import`. */
function isDocPath(path: string): boolean {
  return /\.(md|markdown)$/i.test(path);
}

function loadFailed(file: string, e: unknown): Diagnostic {
  const reason = e instanceof Error ? e.message.split('\n')[0] : String(e);
  return {
    code: 'load/failed',
    severity: 'error',
    path: file,
    message: `could not load the specification: ${reason}`,
    hint: file.endsWith('.json')
      ? 'check the JSON syntax'
      : 'run it through `npx tsc --noEmit` to see the error',
  };
}
