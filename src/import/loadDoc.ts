import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Diagnostic } from '../diagnostics.ts';
import type { AppSpec } from '../spec/types.ts';
import { importDoc } from './importDoc.ts';

/** Files ending in this are read as nine-point documents wherever a specification is accepted. */
export function isDocPath(path: string): boolean {
  return /\.(md|markdown)$/i.test(path);
}

/**
 * Reads a nine-point document from disk and imports it in memory: the specification, or the
 * positioned problems (`at` holds line and column in the Markdown).
 *
 * @example
 * const r = await loadDoc('doc.md'); if (r.spec) await build(r.spec);
 */
export async function loadDoc(
  file: string,
): Promise<{ spec: AppSpec | null; diagnostics: Diagnostic[]; failed?: Diagnostic }> {
  let text: string;
  try {
    text = await readFile(resolve(file), 'utf8');
  } catch (e) {
    const failed: Diagnostic = {
      code: 'load/not-found',
      severity: 'error',
      path: file,
      message: `could not read the document: ${e instanceof Error ? (e.message.split('\n')[0] ?? '') : String(e)}`,
    };
    return { spec: null, diagnostics: [failed], failed };
  }
  const { spec, diagnostics } = importDoc(text);
  return { spec, diagnostics };
}

/** Like `loadDoc`, but throws one readable error (for build tooling that expects a module). */
export async function specFromDoc(file: string): Promise<AppSpec> {
  const { spec, diagnostics } = await loadDoc(file);
  if (spec) return spec;
  const lines = diagnostics
    .filter((d) => d.severity === 'error')
    .map(
      (d) => `${file}:${d.at?.line ?? 1}:${d.at?.column ?? 1}: ${d.message}${d.hint ? ` — ${d.hint}` : ''}`,
    );
  throw new Error(`${file} has errors:\n${lines.join('\n')}`);
}
