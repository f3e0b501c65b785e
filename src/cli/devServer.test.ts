import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ninefoldSpecPlugin, resolveSpecFile, viteConfig } from './devServer.ts';

describe('devServer', () => {
  it('finds spec.ts in a folder and refuses what is missing', () => {
    expect(resolveSpecFile('examples/helpdesk')).toBe(resolve('examples/helpdesk/spec.ts'));
    expect(() => resolveSpecFile('examples/nope')).toThrow(/no such file/);
    expect(() => resolveSpecFile('src')).toThrow(/no spec.ts/);
  });
  it('serves the chosen spec as virtual:ninefold-spec', async () => {
    const p = ninefoldSpecPlugin('/x/spec.ts');
    const resolveId = p.resolveId as (id: string) => string | undefined;
    const load = p.load as (this: unknown, id: string) => Promise<string | undefined>;
    expect(resolveId('virtual:ninefold-spec')).toBe('\0virtual:ninefold-spec');
    expect(resolveId('react')).toBeUndefined();
    expect(await load.call({}, '\0virtual:ninefold-spec')).toBe(
      'export { default } from "/x/spec.ts";\nexport const demoLoaded = Promise.resolve();\n',
    );
  });
  it('registers the demo beside the spec only where the backend is embedded', async () => {
    const spec = resolve('examples/helpdesk/spec.ts');
    const load = (demo: boolean) =>
      (ninefoldSpecPlugin(spec, { demo }).load as (this: unknown, id: string) => Promise<string>).call(
        {},
        '\0virtual:ninefold-spec',
      );
    expect(await load(true)).toContain('registerDemo');
    // A chunk of its own (a dynamic import), not a static import that lands in the entry chunk.
    expect(await load(true)).toContain(`import(${JSON.stringify(resolve('examples/helpdesk/demo.ts'))})`);
    expect(await load(true)).not.toMatch(/^import demo /m);
    expect(await load(false)).not.toContain('demo.ts');
    expect(await load(false)).toContain('export const demoLoaded = Promise.resolve();');
  });
  it('keeps PGlite out of pre-bundling and builds ES workers', async () => {
    const c = await viteConfig('/x/spec.ts', 'out');
    expect(c.optimizeDeps?.exclude).toContain('@electric-sql/pglite');
    expect(c.worker?.format).toBe('es');
    expect(c.build?.outDir).toBe(resolve('out'));
  });
});
