/**
 * Checks the layer rules of .dependency-cruiser.cjs against src/, app/ and studio/ (`npm run layers`;
 * in `npm test` through test/package/layers.test.ts). Prints every violation and exits 1 on any.
 *
 * dependency-cruiser 18 cannot read TypeScript 7 sources (it needs TypeScript 5's compiler API),
 * so this script reads each file's imports with oxc (Vite's `parseSync`, the parser the build
 * uses), writes them as an import-only mirror of the tree (same paths, same specifiers) and runs
 * dependency-cruiser's API on the mirror. Type-only imports count like the others: a type is a
 * dependency too.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';
import { parseSync } from 'vite';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs'));
const SCANNED = ['src', 'app', 'studio'];
const SOURCE = /\.(ts|tsx)$/;

function sourceFiles(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (SOURCE.test(name)) out.push(path);
  }
  return out;
}

/** Every relative module a file imports: static imports, re-exports and literal dynamic imports. */
export function importsOf(file, text = readFileSync(file, 'utf8')) {
  const { module, errors } = parseSync(file, text);
  if (errors.length > 0) throw new Error(`${file}: ${errors[0].message}`);
  const specs = [
    ...module.staticImports.map((i) => i.moduleRequest.value),
    ...module.staticExports.flatMap((e) =>
      e.entries.flatMap((en) => (en.moduleRequest ? [en.moduleRequest.value] : [])),
    ),
    ...module.dynamicImports.flatMap((d) => {
      const literal = /^(['"`])([^'"`$]*)\1$/.exec(text.slice(d.moduleRequest.start, d.moduleRequest.end));
      return literal ? [literal[2]] : [];
    }),
  ];
  return [...new Set(specs.filter((s) => s.startsWith('.')))];
}

/** Every scanned source file (tests, fixtures and golden files left out) → the modules it imports. */
export function sourceGraph() {
  const exclude = new RegExp(config.options.exclude.path);
  const files = SCANNED.flatMap((top) => sourceFiles(join(ROOT, top)))
    .map((file) => relative(ROOT, file))
    .filter((file) => !exclude.test(file));
  return new Map(files.map((file) => [file, importsOf(join(ROOT, file))]));
}

/**
 * The graph as an import-only mirror in a fresh temporary directory (same paths, same
 * specifiers). Its files are named one by one to dependency-cruiser, which collects `.ts` files
 * from a folder only when TypeScript's compiler API is there, but reads any file it is given.
 */
function writeMirror(graph) {
  const mirror = mkdtempSync(join(tmpdir(), 'ninefold-layers-'));
  for (const [file, specs] of graph) {
    const target = join(mirror, file);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, specs.map((s) => `import ${JSON.stringify(s)};\n`).join(''));
  }
  return mirror;
}

const edgeKey = (from, to) => `${from} → ${to}`;

/**
 * The violations of a graph (by default the repository's): `{ rule, from, to, cycle? }` each, the temporarily allowed ones left out, and
 * `stale`: allow-list entries that no longer occur (remove them from the config).
 */
export async function checkLayers(graph = sourceGraph()) {
  const mirror = writeMirror(graph);
  try {
    const result = await cruise([...graph.keys()], {
      ...config.options,
      baseDir: mirror,
      validate: true,
      ruleSet: { forbidden: config.forbidden },
    });
    const all = result.output.summary.violations.map((v) => ({
      rule: v.rule.name,
      from: v.from,
      to: v.to,
      ...(v.cycle ? { cycle: v.cycle.map((c) => c.name) } : {}),
    }));
    const allowed = new Set(config.temporarilyAllowed.map((a) => edgeKey(a.from, a.to)));
    const seen = new Set(all.map((v) => edgeKey(v.from, v.to)));
    return {
      modules: graph.size,
      violations: all.filter((v) => !allowed.has(edgeKey(v.from, v.to))),
      stale: [...allowed].filter((k) => !seen.has(k)),
    };
  } finally {
    rmSync(mirror, { recursive: true, force: true });
  }
}

/** One line per violation, for people. */
export function describeViolation(v) {
  return v.cycle ? `${v.rule}: ${[v.from, ...v.cycle].join(' → ')}` : `${v.rule}: ${v.from} → ${v.to}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { modules, violations, stale } = await checkLayers();
  for (const v of violations) console.log(describeViolation(v));
  for (const s of stale) console.log(`stale allow-list entry (remove it from .dependency-cruiser.cjs): ${s}`);
  console.log(
    `${modules} modules, ${violations.length} violations, ${config.temporarilyAllowed.length} temporarily allowed`,
  );
  process.exitCode = violations.length + stale.length > 0 ? 1 : 0;
}
