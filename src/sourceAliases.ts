import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The package condition that points each export at its TypeScript source (see docs/decisions.md). */
export const SOURCE_CONDITION = 'ninefold-source';

/**
 * The package's own exports mapped to their TypeScript sources: `ninefold` → `…/src/index.ts`,
 * `ninefold/react` → `…/src/react/index.ts`, … Read from package.json, so the exports table is the
 * one place that lists them. The app build (Vite), the tests (Vitest) and the specification loader
 * (jiti) resolve `ninefold` through these, so a specification and the app it runs in share one
 * copy of every module, from the repository as from `node_modules`.
 *
 * @example
 * sourceAliases()['ninefold/react'] // '/…/node_modules/ninefold/src/react/index.ts'
 */
export function sourceAliases(root: string = ROOT): Record<string, string> {
  const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, string | Record<string, string>>;
  };
  const aliases: Record<string, string> = {};
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const source = typeof target === 'string' ? undefined : target[SOURCE_CONDITION];
    if (source === undefined) continue;
    aliases[subpath === '.' ? pkg.name : `${pkg.name}${subpath.slice(1)}`] = resolve(root, source);
  }
  return aliases;
}

/** Aliases for Vite's `resolve.alias`: exact matches only, so `ninefold` never rewrites `ninefold/react`. */
export function viteAliases(aliases: Record<string, string>): { find: RegExp; replacement: string }[] {
  return Object.entries(aliases).map(([name, file]) => ({
    find: new RegExp(`^${name.replace(/[/.]/g, '\\$&')}$`),
    replacement: file,
  }));
}

/**
 * The aliases wherever Ninefold loads a specification (`ninefold check|sql|doc`, the app build and
 * its snapshot): `ninefold` resolves to its authoring entry (`ninefold/spec`: `defineApp` and the
 * types). A specification is plain data, so that is all it can use. The command line then never
 * loads React, PGlite or supabase-js to read one, and an app build never sees the embedded adapter
 * through the spec: Vite emits PGlite's WebAssembly and worker for every module in the graph, even
 * one tree-shaking later drops, so a hosted build must not reach it at all.
 */
export function specLoaderAliases(root: string = ROOT): Record<string, string> {
  const aliases = sourceAliases(root);
  const authoring = aliases['ninefold/spec'];
  return authoring === undefined ? aliases : { ...aliases, ninefold: authoring };
}
