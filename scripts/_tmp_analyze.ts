import { build } from 'vite';
import { viteConfig, resolveSpecFile } from '/work/main/src/cli/devServer.ts';
const cfg = await viteConfig(resolveSpecFile('examples/helpdesk'), '/tmp/bench-dist-an');
const out: any = await build({ ...cfg, logLevel: 'error' });
const outputs = (Array.isArray(out) ? out : [out]).flatMap((o: any) => o.output);
for (const c of outputs) {
  if (c.type !== 'chunk') continue;
  const groups = new Map<string, number>();
  for (const [id, m] of Object.entries<any>(c.modules)) {
    const k = id.includes('node_modules') ? id.replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, '$1') : id.replace(/.*\/work\/main\//, '').replace(/\/[^/]+$/, '');
    groups.set(k, (groups.get(k) ?? 0) + m.renderedLength);
  }
  console.log(`\n${c.fileName} ${c.code.length} isEntry=${c.isEntry} dyn=${c.isDynamicEntry} imports=${c.imports.join(',')} dynImports=${c.dynamicImports.join(',')}`);
  for (const [k, v] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${k} ${v}`);
}
