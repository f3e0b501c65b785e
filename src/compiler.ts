/**
 * The compilers and the specification loader, for build tools and scripts (Node): load and lint a
 * specification, print its migration and its nine-point document. Import from `ninefold/compiler`.
 *
 * @example
 * import { compileMigration, loadSpec } from 'ninefold/compiler';
 * const loaded = await loadSpec('spec.ts');
 * if (loaded.ok) console.log(compileMigration(loaded.spec, { target: 'supabase' }));
 */
export { lintSpec } from './check/lintSpec.ts';
export type { Diagnostic } from './diagnostics.ts';
export { renderDoc } from './doc/renderDoc.ts';
export { type LoadResult, loadSpec } from './import/loadSpec.ts';
export { openApiDocument, printOpenApi } from './printers/printOpenApi.ts';
export { printPgTap } from './printers/printPgTap.ts';
export { printTypes } from './printers/printTypes.ts';
export { compileMigration, type MigrationOptions } from './sql/compileMigration.ts';
