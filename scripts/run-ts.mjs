#!/usr/bin/env node
// Runs a TypeScript script of this repository (`node scripts/run-ts.mjs scripts/bench-sql.ts`) through
// jiti, with `ninefold` resolved to the authoring sources as where Ninefold loads a specification (src/sourceAliases.ts): the scripts
// import the reference apps, which import `ninefold` by name, and no dist/ build is needed.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createJiti } from 'jiti';

const [script, ...args] = process.argv.slice(2);
if (!script) {
  process.stderr.write('usage: node scripts/run-ts.mjs <script.ts> [args…]\n');
  process.exit(2);
}
const { specLoaderAliases } = await createJiti(import.meta.url).import('../src/sourceAliases.ts');
process.argv = [process.argv[0], resolve(script), ...args];
await createJiti(import.meta.url, { alias: specLoaderAliases() }).import(pathToFileURL(resolve(script)).href);
