/**
 * Boot time of the embedded backend, median of 5 runs each:
 * - Node, in-process PGlite: first visit (fresh database: migration applied) and return visit
 *   (existing data directory: version found, nothing applied).
 * - Chromium (when /usr/bin/chromium exists): the test page's worker + IndexedDB backend, first
 *   visit in a fresh browser profile, return visit after a reload.
 *
 * Run: npm run bench:boot
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import helpdesk from '../examples/helpdesk/spec.ts';
import { createEmbeddedBackend } from '../src/backend/embedded/createEmbeddedBackend.ts';
import { buildTestPage, CHROMIUM, CHROMIUM_ARGS, serveStatic } from '../test/browser/testPage.ts';

const RUNS = 5;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

const line = (label: string, first: number[], again: number[]) =>
  console.log(
    `${label.padEnd(28)} first visit ${Math.round(median(first))} ms   return visit ${Math.round(median(again))} ms   (median of ${RUNS})`,
  );

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function benchNode(): Promise<void> {
  const first: number[] = [];
  const again: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const dir = await mkdtemp(join(tmpdir(), 'ninefold-bench-'));
    try {
      first.push(
        await timed(async () => (await createEmbeddedBackend({ spec: helpdesk, dataDir: dir })).close()),
      );
      again.push(
        await timed(async () => (await createEmbeddedBackend({ spec: helpdesk, dataDir: dir })).close()),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  line('node (PGlite, file dataDir)', first, again);
}

async function benchChromium(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    console.log(`chromium: skipped, ${CHROMIUM} not found`);
    return;
  }
  // Plain require: the TypeScript loader's interop breaks playwright-core's own CommonJS imports.
  const { chromium } = createRequire(import.meta.url)('playwright-core') as typeof import('playwright-core');
  const dir = await buildTestPage();
  const server = await serveStatic(dir);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const first: number[] = [];
  const again: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const bootMs = () =>
        page.evaluate(
          async () =>
            (await (window as unknown as { nf: { ready: Promise<{ bootMs: number }> } }).nf.ready).bootMs,
        );
      await page.goto(`${server.url}?db=idb://bench`);
      first.push(await bootMs());
      await page.reload();
      again.push(await bootMs());
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
  line('chromium (worker + idb)', first, again);
}

await benchNode();
await benchChromium();
