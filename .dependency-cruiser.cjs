/**
 * The layers of the code and the rules between them (docs/architecture.md, "The layers").
 *
 * A module may import its own layer and the layers below it, never one above. Within a layer
 * marked `siblings`, one folder never imports another (each output reads the model, not another
 * output), and the two backend adapters never import each other. No file cycles.
 *
 * Checked in `npm test` by test/package/layers.test.ts through `npm run layers`
 * (scripts/check-layers.mjs). dependency-cruiser 18 reads TypeScript only through TypeScript 5's
 * compiler API (TypeScript 7 has none) and its command line wants Node 22, so the script extracts
 * each file's imports with the build's own parser (oxc, through Vite) and lets dependency-cruiser's
 * API judge them against the rules below.
 */

/**
 * Bottom first. `members`: folders (ending in `/`) and files, from the repository root; a file
 * named in a higher layer belongs there, not to its folder's layer (`src/backend/types.ts`,
 * `src/spec/index.ts`). docs/architecture.md lists the same table (test/docs/architecture.test.ts).
 */
const LAYERS = [
  {
    name: 'base',
    about:
      'leaves every layer may use: diagnostics, SQL names and quoting, the self-contained outbox deliverer',
    members: ['src/diagnostics.ts', 'src/naming.ts', 'src/sourceAliases.ts', 'src/outbox/'],
  },
  {
    name: 'spec',
    about: 'the nine sections: types, defineApp, shape, names and references',
    members: ['src/spec/'],
  },
  {
    name: 'rules',
    about: 'the rule language: parse, check against the spec, evaluate',
    members: ['src/rules/'],
  },
  { name: 'model', about: 'resolve(spec) → AppModel', members: ['src/model/'] },
  {
    name: 'port',
    about: 'the backend port: the types every backend implements and the runtime speaks',
    members: ['src/backend/types.ts'],
  },
  {
    name: 'outputs',
    about: 'what the model is printed or run as: SQL, document, printers, runtime core',
    members: ['src/sql/', 'src/doc/', 'src/printers/', 'src/runtime/'],
    siblings: true,
  },
  {
    name: 'check',
    about: 'validateSpec and the linter (may ask an output what it supports)',
    members: ['src/check/'],
  },
  {
    name: 'tools',
    about: 'migrations between models; reading a nine-point document and loading a spec file',
    members: ['src/migrate/', 'src/import/'],
    siblings: true,
  },
  { name: 'backend', about: 'error mapping, the adapters and backend assembly', members: ['src/backend/'] },
  { name: 'react', about: 'screens and hooks', members: ['src/react/'] },
  {
    name: 'entry',
    about:
      'entry points: the CLI, the shipped app, the package entries ninefold, ninefold/compiler, ninefold/spec',
    members: ['src/cli/', 'app/', 'studio/', 'src/compiler.ts', 'src/index.ts', 'src/spec/index.ts'],
  },
];

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const FILES = LAYERS.flatMap((l) => l.members.filter((m) => !m.endsWith('/')));
/** A member as a path pattern: a folder minus the files other layers claim, or one file. */
function pattern(member) {
  if (!member.endsWith('/')) return `^${escapeRegExp(member)}$`;
  const claimed = FILES.filter((f) => f.startsWith(member)).map(
    (f) => `${escapeRegExp(f.slice(member.length))}$`,
  );
  return `^${escapeRegExp(member)}${claimed.length > 0 ? `(?!${claimed.join('|')})` : ''}`;
}
for (const layer of LAYERS) layer.paths = layer.members.map(pattern);

/** Folders of one layer that never import each other. */
const ADAPTERS = ['^src/backend/embedded/', '^src/backend/supabase/'];

/**
 * Imports that break the rules today and sit in files other branches of issue 29 are rewriting;
 * the lead removes each entry after merging (the check fails on an entry that no longer occurs,
 * so the list only shrinks). Nothing else may be added here.
 */
const TEMPORARILY_ALLOWED = [
  {
    from: 'src/printers/printPgTap.ts',
    to: 'src/sql/quote.ts',
    fix: 'quoting below the outputs (naming.ts) or printers reading the model',
  },
];

const any = (patterns) => patterns.map((p) => `(${p})`).join('|');

const layerRules = LAYERS.map((layer, i) =>
  i < LAYERS.length - 1
    ? {
        name: `layer-${layer.name}`,
        severity: 'error',
        comment: `${layer.name} (${layer.about}) imports only itself and the layers below it`,
        from: { path: any(layer.paths) },
        to: { path: any(LAYERS.slice(i + 1).flatMap((l) => l.paths)) },
      }
    : {
        name: `layer-${layer.name}`,
        severity: 'error',
        comment: `${layer.name} (${layer.about}): nothing below imports an entry point`,
        from: { pathNot: any(layer.paths) },
        to: { path: any(layer.paths) },
      },
);

const siblingRules = [...LAYERS.filter((l) => l.siblings).flatMap((l) => l.paths), ...ADAPTERS].map(
  (folder, _, all) => {
    const group = LAYERS.find((l) => l.siblings && l.paths.includes(folder))?.paths ?? ADAPTERS;
    return {
      name: `siblings-${folder
        .replace(/[\^$\\]/g, '')
        .replace(/\/$/, '')
        .replaceAll('/', '-')}`,
      severity: 'error',
      comment: `${folder} never imports another folder of its group (${group.join(', ')})`,
      from: { path: folder },
      to: { path: any(group.filter((g) => g !== folder && all.includes(g))) },
    };
  },
);

module.exports = {
  forbidden: [
    ...layerRules,
    ...siblingRules,
    { name: 'no-circular', severity: 'error', comment: 'no file cycles', from: {}, to: { circular: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Tests, fixtures and golden files are not part of the shipped graph.
    exclude: { path: '\\.test\\.tsx?$|\\.test-d\\.ts$|/fixtures/|/testing/|/__golden__/|\\.d\\.ts$' },
  },
};
// Not enumerable: dependency-cruiser's own config schema allows only its keys.
Object.defineProperty(module.exports, 'layers', { value: LAYERS });
Object.defineProperty(module.exports, 'temporarilyAllowed', { value: TEMPORARILY_ALLOWED });
