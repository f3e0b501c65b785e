import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { serveDist } from '/work/wt/perf/test/e2e/serveDist.ts';
import { CHROMIUM, CHROMIUM_ARGS } from '/work/wt/perf/test/browser/testPage.ts';
const { url, server } = await serveDist('/work/wt/perf/node_modules/.cache/ninefold-e2e/helpdesk-c5bee1138aa76555');
const profile = await mkdtemp(join(tmpdir(), 'dbg-ret-'));
for (const visit of ['first', 'return']) {
  const ctx = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const p = ctx.pages()[0] ?? (await ctx.newPage());
  p.on('console', (m) => console.log(visit, 'console', m.type(), m.text().slice(0, 300)));
  p.on('pageerror', (e) => console.log(visit, 'pageerror', e.message));
  p.on('request', (r) => { if (/wasm|data|tar/.test(r.url())) console.log(visit, 'req', r.url().split('/').pop()); });
  const t0 = Date.now();
  await p.goto(`${url}/tickets?bench`);
  const ok = await p.waitForFunction(() => performance.getEntriesByName('ninefold:backend-ready').length > 0, null, { timeout: 200000 }).then(() => 'ready', (e) => 'TIMEOUT ' + e.message.slice(0, 100));
  console.log(visit, ok, Date.now() - t0, 'ms', await p.locator('#boot-detail').textContent().catch(() => ''));
  await ctx.close();
}
server.close();
