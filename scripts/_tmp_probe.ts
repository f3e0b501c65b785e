import { createRequire } from 'node:module';
import { viteConfig, resolveSpecFile } from '../src/cli/devServer.ts';
import { serveDist } from '../test/e2e/serveDist.ts';
const { chromium } = createRequire(import.meta.url)('playwright-core');
const vite = await import('vite');
if (!process.argv.includes('--nobuild')) {
  const c = await viteConfig(resolveSpecFile('examples/helpdesk'), '/tmp/nfb-dist');
  await vite.build({ ...c, logLevel: 'error', build: { ...c.build, minify: false } });
}
const { url, server } = await serveDist('/tmp/nfb-dist');
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless','--no-sandbox','--disable-gpu'] });
const p = await b.newPage({ viewport: { width: 1280, height: 860 } });
p.on('pageerror', (e: any) => console.log('pageerror', e.message));
await p.goto(url + '/?bench');
await p.waitForFunction(() => (window as any).__ninefold, null, { timeout: 90000 });
await p.evaluate(() => (window as any).__ninefold.backend.auth.signIn({ email: 'agent@demo.test', password: 'demo-agent' }));
await p.waitForTimeout(1500); await p.goto(url + '/tickets?bench');
await p.waitForSelector('main table tbody tr a', { timeout: 60000 }).catch(async (e: any) => { console.log(await p.evaluate(() => document.body.innerText.slice(0, 500))); await p.screenshot({ path: '/tmp/probe.png' }); throw e; });
await p.waitForTimeout(3000);
const cdp = await p.context().newCDPSession(p);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
await p.evaluate(() => new PerformanceObserver((l) => { for (const e of l.getEntries()) ((window as any).__lt ??= []).push(Math.round(e.duration)); }).observe({ type: 'longtask' }));
await cdp.send('Profiler.start');
await p.evaluate(async () => {
  const v = document.querySelector<HTMLElement>('main .mantine-ScrollArea-viewport')!;
  for (let k = 0; k < 3; k++) { v.scrollTop = 0; while (v.scrollTop + v.clientHeight < v.scrollHeight - 1) { v.scrollTop += 60; await new Promise((r) => requestAnimationFrame(r)); } }
});
const { profile } = await cdp.send('Profiler.stop');
console.log('longtasks', await p.evaluate(() => (window as any).__lt));
const self = new Map<string, number>();
const dt = profile.timeDeltas as number[];
const byId = new Map(profile.nodes.map((n: any) => [n.id, n]));
profile.samples.forEach((id: number, i: number) => { const n: any = byId.get(id); const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) ?? 0) + (dt[i] ?? 0)); });
console.log([...self].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${(v / 1000).toFixed(0)}ms ${k}`).join('\n'));
await b.close(); server.close();
