import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderDoc } from '../doc/renderDoc.ts';
import { loadSpec } from '../spec/loadSpec.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const PACKAGE_ROOT = resolve(HERE, '../..');

export type Template = 'blank' | 'helpdesk' | 'expenses';
export const TEMPLATES: readonly Template[] = ['blank', 'helpdesk', 'expenses'];

/**
 * `ninefold init [--from helpdesk|expenses|blank] <dir>`: a new project whose source of truth is
 * a nine-point document — `doc.md` (blank with guidance, or a reference app's document),
 * a `package.json` depending on `ninefold`, and a README with the two commands.
 * Refuses a directory that already has files, so nothing is ever overwritten.
 *
 * @example
 * await initProject('my-app', 'blank'); // my-app/doc.md, package.json, README.md
 */
export async function initProject(
  dir: string,
  from: Template,
): Promise<{ ok: true; files: string[] } | { ok: false; message: string }> {
  const root = resolve(dir);
  if (existsSync(root) && readdirSync(root).length > 0) {
    return { ok: false, message: `${dir} is not empty; choose a new folder` };
  }
  const doc = await documentFor(from);
  if (typeof doc !== 'string') return doc;
  const name = packageName(basename(root));
  const files: [string, string][] = [
    ['doc.md', doc],
    ['package.json', `${JSON.stringify(packageJson(name), null, 2)}\n`],
    ['README.md', readme(name)],
    ['.gitignore', 'node_modules\ndist\n.env.local\n'],
  ];
  await mkdir(root, { recursive: true });
  for (const [file, text] of files) await writeFile(join(root, file), text);
  return { ok: true, files: files.map(([f]) => join(dir, f)) };
}

async function documentFor(from: Template): Promise<string | { ok: false; message: string }> {
  if (from === 'blank') return readFileSync(join(HERE, 'templates', 'blank.md'), 'utf8');
  const loaded = await loadSpec(join(PACKAGE_ROOT, 'examples', from));
  if (!loaded.ok) return { ok: false, message: `the ${from} example could not be loaded` };
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

function packageJson(name: string): Record<string, unknown> {
  return {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: {
      dev: 'ninefold dev doc.md',
      build: 'ninefold build doc.md',
      check: 'ninefold check doc.md',
    },
    dependencies: { ninefold: `^${ninefoldVersion()}` },
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

Build the static app into \`dist/\`:

\`\`\`sh
npx ninefold build doc.md
\`\`\`

\`npx ninefold check doc.md\` lists every problem in the document with its line and column;
\`npx ninefold import doc.md -o spec.ts\` turns it into a TypeScript specification if you outgrow
the document.
`;
}
