import { createJiti } from 'jiti';
import { specLoaderAliases } from '../sourceAliases.ts';

/**
 * A TypeScript (or JavaScript) file of the user's, imported as Ninefold reads specs: through
 * jiti, with `ninefold` resolved to the authoring sources (src/sourceAliases.ts), and with no
 * module cache, so a dev server reading the spec again after an edit sees the new file.
 *
 * @example
 * const demo = await importSpecModule('examples/helpdesk/demo.ts'); // { default: { … } }
 */
export async function importSpecModule(file: string): Promise<Record<string, unknown>> {
  const jiti = createJiti(import.meta.url, { moduleCache: false, alias: specLoaderAliases() });
  const mod: unknown = await jiti.import(file);
  return typeof mod === 'object' && mod !== null ? (mod as Record<string, unknown>) : { default: mod };
}

/**
 * The specification a file exports: its default export (`export default defineApp({...})`, the
 * convention), else a named `spec` or `app`. Throws when there is none.
 *
 * @example
 * const spec = await importSpecExport('/…/examples/helpdesk/spec.ts');
 */
export async function importSpecExport(file: string): Promise<unknown> {
  const exports = await importSpecModule(file);
  for (const key of ['default', 'spec', 'app']) {
    if (exports[key] !== undefined) return exports[key];
  }
  throw new Error('the file has no default export (write `export default defineApp({...})`)');
}
