import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonModuleValue } from '../../test/support/jsonModule.ts';
import { ninefoldBuiltRulesPlugin, ninefoldSpecPlugin, resolveSpecFile, viteConfig } from './devServer.ts';

describe('devServer', () => {
  it("a build's runtime reads its rules from the build's table, and only the runtime does", async () => {
    const p = ninefoldBuiltRulesPlugin();
    expect([p.apply, p.enforce]).toEqual(['build', 'pre']);
    const resolveId = p.resolveId as (id: string, importer?: string) => string | undefined;
    expect(resolveId('./ruleChecker.ts', resolve('src/runtime/ruleVerdict.ts'))).toBe(
      resolve('src/runtime/builtRuleChecker.ts'),
    );
    // The table itself is made with the real checker, at build time.
    expect(resolveId('./ruleChecker.ts', resolve('src/rules/other.ts'))).toBeUndefined();
    expect(resolveId('./check.ts', resolve('src/runtime/ruleVerdict.ts'))).toBeUndefined();
    const spec = ninefoldSpecPlugin(resolve('examples/helpdesk/spec.ts'), { inline: true });
    const load = spec.load as (this: unknown, id: string) => Promise<string>;
    expect((spec.resolveId as (id: string) => string | undefined)('virtual:ninefold-rules')).toBe(
      '\0virtual:ninefold-rules',
    );
    expect(await load.call({}, '\0virtual:ninefold-rules')).toMatch(/^export default JSON\.parse\(".*ticket/);
  });

  it("a build's model reads its rule checks from the build's table, and only the model does", async () => {
    const resolveId = ninefoldBuiltRulesPlugin().resolveId as (
      id: string,
      importer?: string,
    ) => string | undefined;
    for (const importer of ['src/model/resolve.ts', 'src/model/checkedRule.ts'])
      expect(resolveId('./modelRuleCheck.ts', resolve(importer))).toBe(
        resolve('src/model/builtModelRuleCheck.ts'),
      );
    expect(resolveId('./modelRuleCheck.ts', resolve('src/runtime/ruleVerdict.ts'))).toBeUndefined();
    const spec = ninefoldSpecPlugin(resolve('examples/helpdesk/spec.ts'), { inline: true });
    expect((spec.resolveId as (id: string) => string | undefined)('virtual:ninefold-model-rules')).toBe(
      '\0virtual:ninefold-model-rules',
    );
    const code = await (spec.load as (this: unknown, id: string) => Promise<string>).call(
      {},
      '\0virtual:ninefold-model-rules',
    );
    const table = jsonModuleValue(code) as Record<string, unknown>;
    expect(table['["ticket","boolean","requester = me"]']).toMatchObject({
      ok: true,
      typed: { kind: 'binary' },
    });
  });

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
      'export { default } from "/x/spec.ts";\nexport const translationsLoaded = () => Promise.resolve();\n' +
        'export const demoLoaded = Promise.resolve();\n',
    );
  });
  it("builds the spec in as data, each language's texts a chunk loaded for that language only", async () => {
    const file = resolve('examples/helpdesk/spec.ts');
    const p = ninefoldSpecPlugin(file, { demo: true, inline: true });
    const resolveId = p.resolveId as (id: string) => string | undefined;
    const load = p.load as (this: unknown, id: string) => Promise<string>;
    const code = await load.call({}, '\0virtual:ninefold-spec');
    // No import of the spec's file (it would bring every language's texts into the entry chunk).
    expect(code).not.toContain(JSON.stringify(file));
    expect(code).toContain('import("virtual:ninefold-translations:de")');
    expect(code).toContain('registerDemo');
    expect(resolveId('virtual:ninefold-translations:de')).toBe('\0virtual:ninefold-translations:de');
    const { default: helpdesk } = await import('../../examples/helpdesk/spec.ts');
    const table = await load.call({}, '\0virtual:ninefold-translations:de');
    expect(table).toMatch(/^export default JSON\.parse\(/);
    const german = jsonModuleValue(table) as Record<string, string>;
    expect(german).toEqual(helpdesk.translations?.de);
    expect(Object.keys(german).length).toBeGreaterThan(10);
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
