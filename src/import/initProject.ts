import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderDoc } from '../doc/renderDoc.ts';
import { loadSpec } from './loadSpec.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const PACKAGE_ROOT = resolve(HERE, '../..');

/** Why `init` made nothing: a code for scripts and tests, a sentence for the author. */
export interface InitRefusal {
  ok: false;
  code: 'INIT_NOT_EMPTY' | 'INIT_INSIDE_TOOLKIT' | 'INIT_TEMPLATE';
  message: string;
}

/** How the new project gets Ninefold: the `dependencies` entry, and a sentence saying where it comes from. */
export interface NinefoldDependency {
  spec: string;
  from: string;
  /** A folder npm links rather than copies: it must stay where it is, with its node_modules installed. */
  linked: boolean;
}

export type Template = 'blank' | 'helpdesk' | 'expenses' | 'tasks';
export const TEMPLATES: readonly Template[] = ['blank', 'helpdesk', 'expenses', 'tasks'];

/**
 * `ninefold init [--from helpdesk|expenses|tasks|blank] <dir>`: a new project whose source of truth is
 * a nine-point document — `doc.md` (blank with guidance, or a reference app's document),
 * a `package.json` depending on `ninefold` (see `ninefoldDependency`), and a README with the commands.
 * Refuses a directory that already has files, so nothing is ever overwritten, and a directory
 * inside the toolkit's own folder unless `insideToolkit` (an app there would be committed with
 * the toolkit and resolve `ninefold` from the toolkit's own node_modules, not its own).
 *
 * @example
 * await initProject('my-app', 'blank'); // my-app/doc.md, package.json, README.md
 */
export async function initProject(
  dir: string,
  from: Template,
  options: { insideToolkit?: boolean } = {},
): Promise<{ ok: true; files: string[]; dependency: NinefoldDependency } | InitRefusal> {
  const root = resolve(dir);
  if (existsSync(root) && readdirSync(root).length > 0) {
    return { ok: false, code: 'INIT_NOT_EMPTY', message: `${dir} is not empty; choose a new folder` };
  }
  const toolkit = realpathSync(PACKAGE_ROOT);
  if (!options.insideToolkit && isInside(realPathOf(root), toolkit)) {
    return {
      ok: false,
      code: 'INIT_INSIDE_TOOLKIT',
      message:
        `${dir} is inside the Ninefold toolkit's own folder (${toolkit}); ` +
        `create the app outside it, e.g. npx ninefold init ~/${basename(root)}, ` +
        'or pass --inside-toolkit to create it there anyway',
    };
  }
  const doc = await documentFor(from);
  if (typeof doc !== 'string') return doc;
  const name = packageName(basename(root));
  const dependency = ninefoldDependency();
  const files: [string, string][] = [
    ['doc.md', doc],
    ['package.json', `${JSON.stringify(packageJson(name, dependency.spec), null, 2)}\n`],
    ['README.md', readme(name)],
    ['.gitignore', 'node_modules\ndist\n.env.local\n'],
  ];
  await mkdir(root, { recursive: true });
  for (const [file, text] of files) await writeFile(join(root, file), text);
  return { ok: true, files: files.map(([f]) => join(dir, f)), dependency };
}

/**
 * The `ninefold` dependency of a new project. Ninefold is not on the npm registry yet, so a
 * version range would not install: a checkout (the README's path) is linked with `file:` — npm
 * makes `node_modules/ninefold` a symbolic link to it, so the app is built from the checkout's
 * sources and its own node_modules (one React; docs/decisions.md, "An author's project links the
 * checkout"). A copy installed in another project (`npm install <tarball or folder>`) passes on
 * what that project depends on; a copy from the registry, its version.
 *
 * @example
 * ninefoldDependency() // { spec: 'file:/home/me/ninefold', from: 'the Ninefold checkout at /home/me/ninefold', linked: true }
 */
export function ninefoldDependency(packageRoot: string = PACKAGE_ROOT): NinefoldDependency {
  const root = realpathSync(packageRoot);
  const installed = root.lastIndexOf(`${sep}node_modules${sep}`);
  if (installed < 0) return { spec: `file:${root}`, from: `the Ninefold checkout at ${root}`, linked: true };
  const project = root.slice(0, installed);
  const used = dependencySpecIn(join(project, 'package.json'));
  if (used?.startsWith('file:')) {
    const target = resolve(project, used.slice('file:'.length));
    return { spec: `file:${target}`, from: `${target}, as ${project} does`, linked: false };
  }
  const version = ninefoldVersion();
  return { spec: `^${version}`, from: `the npm registry (ninefold ${version})`, linked: false };
}

function dependencySpecIn(packageJsonFile: string): string | undefined {
  try {
    const pkg = JSON.parse(readFileSync(packageJsonFile, 'utf8')) as Record<string, unknown>;
    for (const key of ['dependencies', 'devDependencies']) {
      const spec = (pkg[key] as Record<string, unknown> | undefined)?.ninefold;
      if (typeof spec === 'string') return spec;
    }
  } catch {
    // No readable package.json above node_modules: fall back to the version.
  }
  return undefined;
}

/** A path with symbolic links resolved, also when its last parts do not exist yet. */
function realPathOf(path: string): string {
  if (existsSync(path)) return realpathSync(path);
  const parent = dirname(path);
  return parent === path ? path : join(realPathOf(parent), basename(path));
}

function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

async function documentFor(from: Template): Promise<string | InitRefusal> {
  if (from === 'blank') return readFileSync(join(HERE, 'templates', 'blank.md'), 'utf8');
  const loaded = await loadSpec(join(PACKAGE_ROOT, 'examples', from));
  if (!loaded.ok)
    return { ok: false, code: 'INIT_TEMPLATE', message: `the ${from} example could not be loaded` };
  // The generated note says "edit the specification"; in this project the document is the source.
  return renderDoc(loaded.spec).replace(
    /^_The application specification, generated .*_$/m,
    '_The application specification. This document is the source: edit it, then run `npx ninefold build doc.md`._',
  );
}

function packageName(folder: string): string {
  const slug = folder
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug === '' ? 'ninefold-app' : slug;
}

function packageJson(name: string, ninefold: string): Record<string, unknown> {
  return {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: {
      dev: 'ninefold dev doc.md',
      build: 'ninefold build doc.md',
      check: 'ninefold check doc.md',
      preview: 'ninefold preview dist',
    },
    dependencies: { ninefold },
  };
}

function ninefoldVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.1.0';
  } catch {
    return '0.1.0';
  }
}

function readme(name: string): string {
  return `# ${name}

This app is described by one document, [doc.md](doc.md): its nine points (purpose, screens,
entities, states, validation, roles, calls, errors, constants). Ninefold turns it into the app,
with every rule enforced by the database.

Run it while you edit the document (it reloads when you save):

\`\`\`sh
npm install && npx ninefold dev doc.md
\`\`\`

Build the static app into \`dist/\` and serve it (any static web server will do; unknown paths
must serve \`index.html\`):

\`\`\`sh
npx ninefold build doc.md && npx ninefold preview dist
\`\`\`

\`npx ninefold check doc.md\` lists every problem in the document with its line and column;
\`npx ninefold import doc.md -o spec.ts\` turns it into a TypeScript specification if you outgrow
the document.
`;
}
