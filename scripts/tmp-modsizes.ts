import { resolveSpecFile, viteConfig } from '../src/cli/devServer.ts';
import { firstScreenModules } from '../src/cli/firstScreenChunkPlugin.ts';

const vite = await import('vite');
const specFile = resolveSpecFile('examples/helpdesk');
const config = await viteConfig(specFile, '/tmp/x');
const trial = await vite.build({
  ...config,
  build: { ...config.build, write: false, minify: false },
  logLevel: 'silent',
});
const chunks = (Array.isArray(trial) ? trial : [trial]).flatMap((o: any) => ('output' in o ? o.output : []));
const fs = firstScreenModules(chunks);
const c2 = await viteConfig(specFile, '/tmp/x', 'production', fs);
const built = await vite.build({
  ...c2,
  build: { ...c2.build, write: false, minify: false },
  logLevel: 'silent',
});
const out = (Array.isArray(built) ? built : [built]).flatMap((o: any) => ('output' in o ? o.output : []));
for (const c of out) {
  if (c.type !== 'chunk' || !(c.fileName.includes('firstScreen') || c.isEntry)) continue;
  const byPkg = new Map<string, number>();
  for (const [id, m] of Object.entries<any>(c.modules)) {
    const k = id.includes('node_modules')
      ? id.replace(/.*node_modules\/((@[^/]+\/)?[^/]+)\/(.*)/, '$1')
      : id.replace(/.*\/work\/main\//, '').replace(/\/[^/]+$/, '/');
    byPkg.set(k, (byPkg.get(k) ?? 0) + m.renderedLength);
  }
  console.log(c.fileName, c.code.length);
  for (const [k, v] of [...byPkg].sort((a, b) => b[1] - a[1]).slice(0, 30))
    console.log('  ', String(v).padStart(8), k);
  if (c.fileName.includes('firstScreen')) {
    const mods = Object.entries<any>(c.modules)
      .filter(([id]) => id.includes('@mantine'))
      .sort((a, b) => b[1].renderedLength - a[1].renderedLength);
    console.log('mantine modules', mods.length);
    for (const [id, m] of mods.slice(0, 60))
      console.log('     ', String(m.renderedLength).padStart(7), id.replace(/.*@mantine\//, ''));
  }
}
