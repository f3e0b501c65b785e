import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { RemoveScroll } from 'react-remove-scroll';
import { describe, expect, it } from 'vitest';
import * as mantineUseId from '../react/mantineUseId.ts';
import * as mergeRefs from '../react/mergeRefs.ts';
import * as removeScroll from '../react/removeScrollClassNames.ts';
import { FIRST_SCREEN_SHIMS, ninefoldFirstScreenShimsPlugin } from './firstScreenShimsPlugin.ts';

// The plugin swaps a few imports of a few Mantine modules; these say it hits those and no other,
// and that each copy still provides everything its importer takes from the package.
const require = createRequire(import.meta.url);
// The package's entry sits one folder down (cjs/ or esm/): its folder's parent is the package.
const mantine = (path: string) =>
  join(dirname(dirname(require.resolve('@mantine/core'))), 'esm/components', path);
const mantineHooks = join(dirname(dirname(require.resolve('@mantine/hooks'))), 'esm/index.mjs');
const resolveId = (source: string, importer: string | undefined) =>
  (ninefoldFirstScreenShimsPlugin().resolveId as (s: string, i: string | undefined) => unknown)(
    source,
    importer,
  );

const CASES = [
  { importer: mantine('ScrollArea/ScrollArea.mjs'), source: '@floating-ui/react', copy: mergeRefs },
  {
    importer: mantine('AppShell/AppShellHeader/AppShellHeader.mjs'),
    source: 'react-remove-scroll',
    copy: removeScroll,
  },
  {
    importer: mantine('AppShell/AppShellFooter/AppShellFooter.mjs'),
    source: 'react-remove-scroll',
    copy: removeScroll,
  },
  {
    importer: mantine('AppShell/AppShellAside/AppShellAside.mjs'),
    source: 'react-remove-scroll',
    copy: removeScroll,
  },
  { importer: mantineHooks, source: './use-id/use-id.mjs', copy: mantineUseId },
];

/** The names a module imports from `source` (`import { a, b as c } from "source"`). */
function importedNames(file: string, source: string): string[] {
  const text = readFileSync(file, 'utf8');
  const from = source.replace(/[/-]/g, (c) => `\\${c}`);
  return [...text.matchAll(new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*["']${from}["']`, 'g'))]
    .flatMap((m) => (m[1] ?? '').split(','))
    .map((n) => n.trim().split(/\s+as\s+/)[0] ?? '')
    .filter(Boolean);
}

describe('ninefoldFirstScreenShimsPlugin', () => {
  it.each(CASES)('gives $importer its copy of $source, with every name it imports', (c) => {
    const shim = FIRST_SCREEN_SHIMS.find((s) => s.source === c.source)?.shim;
    expect(resolveId(c.source, c.importer)).toBe(shim);
    const names = importedNames(c.importer, c.source);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(c.copy, name).toHaveProperty(name);
  });

  it('leaves every other importer, and every other import of those modules, alone', () => {
    expect(resolveId('@floating-ui/react', mantine('Tooltip/use-tooltip.mjs'))).toBeNull();
    expect(resolveId('react-remove-scroll', mantine('ModalBase/ModalBase.mjs'))).toBeNull();
    expect(resolveId('@floating-ui/react', undefined)).toBeNull();
    expect(resolveId('react', mantine('ScrollArea/ScrollArea.mjs'))).toBeNull();
    expect(resolveId('./use-id/use-id.mjs', mantine('Checkbox/Checkbox.mjs'))).toBeNull();
    expect(resolveId('./use-idle/use-idle.mjs', mantineHooks)).toBeNull();
  });

  it("the class names are react-remove-scroll's own (Modal's scroll lock offsets elements by them)", () => {
    expect(removeScroll.RemoveScroll.classNames).toEqual(RemoveScroll.classNames);
  });
});
