import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const shim = (file: string) => fileURLToPath(new URL(`../react/${file}`, import.meta.url));

/**
 * Imports of a Mantine module that get a small local copy of the one thing they use. Most because
 * the package they name would otherwise sit on the list's first-screen path whole (a module goes
 * into one chunk entire; the parts the tab does not need are used fully by chunks loaded later):
 *
 * - ScrollArea (imported by Table) takes only `useMergeRefs` from `@floating-ui/react` (about
 *   15 KB gzip, which Tooltip, Popover and Menu use fully): src/react/mergeRefs.ts.
 * - AppShell's header, footer and aside take only `RemoveScroll.classNames` from
 *   `react-remove-scroll` (about 4 KB gzip, which Modal uses fully): src/react/removeScrollClassNames.ts.
 *
 * And one because of what it does at mount: @mantine/hooks' `useId` sets a random id in a layout
 * effect, a second synchronous render of every component that has an id before the first screen
 * can paint: src/react/mantineUseId.ts.
 */
export const FIRST_SCREEN_SHIMS: readonly { importer: RegExp; source: string; shim: string }[] = [
  {
    importer: /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]ScrollArea[\\/]ScrollArea\.mjs$/,
    source: '@floating-ui/react',
    shim: shim('mergeRefs.ts'),
  },
  {
    importer:
      /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]AppShell[\\/]AppShell(Header|Footer|Aside)[\\/]AppShell\1\.mjs$/,
    source: 'react-remove-scroll',
    shim: shim('removeScrollClassNames.ts'),
  },
  {
    importer: /[\\/]@mantine[\\/]hooks[\\/]esm[\\/]index\.mjs$/,
    source: './use-id/use-id.mjs',
    shim: shim('mantineUseId.ts'),
  },
];

/**
 * Vite plugin: resolves the imports listed in FIRST_SCREEN_SHIMS to their copies; every other
 * importer still gets the package itself. Should a later Mantine import more from one of them,
 * the build fails on the missing export instead of shipping something wrong.
 *
 * @example
 * plugins: [react(), ninefoldFirstScreenShimsPlugin()]
 */
export function ninefoldFirstScreenShimsPlugin(): Plugin {
  return {
    name: 'ninefold-first-screen-shims',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer) return null;
      return FIRST_SCREEN_SHIMS.find((s) => s.source === source && s.importer.test(importer))?.shim ?? null;
    },
  };
}
