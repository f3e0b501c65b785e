/**
 * Where the start-up time goes: navigation → first ticket row of the built helpdesk in headless
 * Chromium, first visit (fresh profile) and return visit (same profile relaunched: HTTP cache,
 * IndexedDB and session kept) with N tickets, broken down by the app's performance marks
 * (`ninefold:*` in the page, `ninefold:worker:*` from the backend's worker, see
 * src/backend/embedded/browser/workerMarks.ts). Several builds can run interleaved in one run
 * (same machine load for each): `--dist before=/tmp/a --dist after=/tmp/b`; without `--dist` it
 * builds this tree. Medians; each mark is ms since navigation start. `--settle ms`: how long the
 * seeding tab stays open after the seed (1500; the side-by-side harness waits about 1000).
 *
 * `--profile file.cpuprofile`: the page's main thread is sampled (every 200 µs, Chromium's own
 * profiler) on the first build's last return visit of the first size, from navigation to the live
 * screen; the profile is written to the file (open it in Chromium's DevTools) and its 25 functions
 * with the most self time are printed. Profiling slows the page: time that visit apart.
 * `--trace file.json`: the same visit under Chromium's tracing (`devtools.timeline`) instead; the
 * trace is written to the file and the main thread's time up to the live screen is printed by kind
 * (script, style, layout, paint, parsing, garbage collection, and V8's compiling of functions on
 * their first call: `V8.CompileCode`, `V8.ParseFunction`, `V8.PreParse`; tracing these slows it).
 * `--study-visit first`: the traced or sampled visit is a first visit (fresh profile) instead.
 * `--long-frames`: prints each visit's frames that held a task over 50 ms, with their scripts
 * and rendering (Chromium's Long Animation Frames API: no tracing's slowdown).
 * `--trace-categories a,b`: more trace categories (`fonts,blink`: what a layout spends on fonts).
 * `--trace-after ms` (with `--trace` or `--profile`): recording goes on that long after the live
 * screen; a trace then lists the main thread's tasks over 50 ms with what ran longest in each, and
 * samples the backend's worker: its functions by self time and its busy spans (the database's open).
 *
 * `--harness-chromium`, `--fresh-return`: the harness's Chromium and return visit (below).
 *
 * Run: npm run bench:start -- [--runs 5] [--sizes 1000,100000] [--dist name=path …] [--settle ms] [--profile f]
 */
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BrowserContext, Page } from 'playwright-core';
import { build } from '../src/cli/devServer.ts';
import { CHROMIUM, CHROMIUM_ARGS } from '../test/browser/testPage.ts';
import { type ProfiledEvent, printWorkerProfiles, workerProfiles } from './traceWorkerProfile.ts';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? (argv[i + 1] as string) : dflt;
};
const RUNS = Number(opt('runs', '5'));
const SETTLE = Number(opt('settle', '1500'));
const SIZES = opt('sizes', '1000,100000')
  .split(',')
  .map((s) => Number(s.replace(/_/g, '')))
  .filter((n) => n > 0);
const DISTS = argv.flatMap((a, i) => (argv[i - 1] === '--dist' ? [a] : []));
const PROFILE = opt('profile', '');
const TRACE = opt('trace', '');
/** With --trace or --profile: how long it goes on after the live screen (a trace lists its long tasks). */
const TRACE_AFTER = Number(opt('trace-after', '0'));
/** With --trace: more of Chromium's trace categories, comma-separated (`fonts,blink` to see a layout's font lookups). */
const TRACE_CATEGORIES = opt('trace-categories', '');
/** With --trace or --profile: `first` studies a first visit (a fresh profile, the demo Agent clicked) instead. */
const STUDY_VISIT = opt('study-visit', 'return');
/** `--long-frames`: each visit's frames with a task over 50 ms, as Chromium's Long Animation Frames API tells them. */
const LONG_FRAMES = argv.includes('--long-frames');
/**
 * `--harness-chromium`: Chromium launched as the side-by-side harness launches it (its flags, its
 * 1280×900 window): without `--disable-features=WebUIOmniboxPopup,…`, so the address bar's popup
 * renderer takes the cores at launch as it does in the harness's visits (docs/performance.md).
 */
const HARNESS_CHROMIUM = argv.includes('--harness-chromium');
/**
 * `--fresh-return`: each return visit on a copy of the profile as its seeding visit left it, as
 * the harness's return visit (the start's scripts' second run, or third when the seeding visit
 * warmed their code cache); without it each return visit after the first reads the compiled code
 * the one before kept.
 */
const FRESH_RETURN = argv.includes('--fresh-return');

/** The marks of the breakdown, in start-up order; `row` is the observed first row (MutationObserver). */
const MARKS = [
  ['html', 'HTML received (responseEnd)'],
  ['entry', 'entry script ran (worker created)'],
  ['ninefold:worker:script', 'worker: first script ran'],
  ['ninefold:worker:released', 'worker: released by the tab (workerHold.ts)'],
  ['ninefold:worker:init', 'worker: init from the tab'],
  ['ninefold:worker:wasm-compiled', 'worker: wasm compiled'],
  ['ninefold:worker:data-fetched', 'worker: PGlite data fetched'],
  ['ninefold:worker:code-loaded', 'worker: backend code loaded'],
  ['ninefold:worker:leader', 'worker: leader lock held'],
  ['ninefold:worker:db-open', 'worker: database open'],
  ['ninefold:worker:boot-done', 'worker: schema checked (boot)'],
  ['ninefold:worker:ready', 'worker: ready (demo accounts checked)'],
  ['ninefold:preview-shown', "tab: last screen's picture shown (inline script)"],
  ['ninefold:backend-ready', 'tab: backend ready'],
  ['ninefold:ui-loaded', 'tab: UI chunk loaded'],
  ['ninefold:first:auth.session', 'tab: session answered'],
  ['ninefold:first:data.list', 'tab: first list answered'],
  ['ninefold:preview-replaced', 'tab: live screen replaced the picture'],
  ['ninefold:first-row', 'tab: first row painted (app mark)'],
  ['ninefold:first-row-confirmed', 'tab: first row from the database painted (app mark)'],
  ['row', 'first ticket row in the DOM (observed)'],
  ['rowPaint', 'first ticket row painted (observed)'],
] as const;

type Sample = Record<string, number> & { longest: number; longCount: number };

function median(xs: readonly number[]): number {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** A static host with gzip: hashed assets cached for a year, HTML revalidated. */
async function serve(dir: string) {
  const cache = new Map<string, Buffer>();
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    let file = join(dir, path);
    if (!existsSync(file) || path.endsWith('/') || extname(file) === '') file = join(dir, 'index.html');
    // A .gz file goes as it is: Chromium does not undo a gzip content-encoding on it (the
    // snapshot would arrive still compressed twice over and fail to load).
    const raw = file.endsWith('.gz');
    let body = cache.get(file);
    if (!body) {
      body = raw ? await readFile(file) : gzipSync(await readFile(file), { level: 6 });
      cache.set(file, body);
    }
    const types: Record<string, string> = {
      '.html': 'text/html; charset=utf-8',
      '.js': 'text/javascript',
      '.css': 'text/css',
      '.wasm': 'application/wasm',
      '.gz': 'application/gzip',
    };
    res.writeHead(200, {
      'content-type': types[extname(file)] ?? 'application/octet-stream',
      'cache-control': file.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      ...(raw ? {} : { 'content-encoding': 'gzip' }),
    });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** In the page before any script: first-row observer (clicks the demo Agent at once), long tasks. */
function instruments() {
  const w = window as unknown as { __start: { row?: number; rowPaint?: number; long: number[][] } };
  const s: { row?: number; rowPaint?: number; long: number[][] } = { long: [] };
  w.__start = s;
  let clicked = false;
  const check = () => {
    if (!document.body) return;
    if (!clicked) {
      const b = [...document.querySelectorAll('button')].find((x) =>
        /^Agent/.test((x.textContent ?? '').trim()),
      );
      if (b) {
        clicked = true;
        b.click();
      }
    }
    const rows = [...document.querySelectorAll('table tbody tr')].filter(
      (tr) => tr.querySelectorAll('td').length > 1 && (tr.textContent ?? '').trim() !== '',
    );
    if (s.row === undefined && rows.length > 0) {
      s.row = performance.now();
      requestAnimationFrame(() => setTimeout(() => (s.rowPaint = performance.now()), 0));
      mo.disconnect();
    }
  };
  const mo = new MutationObserver(check);
  mo.observe(document, { childList: true, subtree: true, characterData: true });
  try {
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) s.long.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // No long-task timing: the columns stay empty.
  }
  // What ran in each frame with a task over 50 ms (--long-frames): its scripts and its rendering.
  const frames: string[] = [];
  (w.__start as { frames?: string[] }).frames = frames;
  try {
    new PerformanceObserver((l) => {
      for (const e of l.getEntries() as unknown as LongFrame[]) {
        if (e.blockingDuration <= 0) continue;
        const scripts = e.scripts
          .filter((x) => x.duration >= 5)
          .map((x) =>
            `${x.invoker} ${x.sourceFunctionName || ''} (${x.sourceURL.split('/').pop()}@${x.sourceCharPosition}) ${Math.round(x.duration)}`.replace(
              /\s+/g,
              ' ',
            ),
          )
          .join('; ');
        const render = e.renderStart ? Math.round(e.startTime + e.duration - e.renderStart) : 0;
        const style = e.styleAndLayoutStart
          ? Math.round(e.startTime + e.duration - e.styleAndLayoutStart)
          : 0;
        frames.push(
          `${Math.round(e.startTime)} ms: ${Math.round(e.duration)} ms (blocking ${Math.round(e.blockingDuration)}), rendering ${render} (style and layout ${style}); ${scripts}`,
        );
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch {
    // No long animation frames in this browser.
  }
}

/** The Long Animation Frames API's entry (Chromium 123+), as far as it is read here. */
interface LongFrame {
  startTime: number;
  duration: number;
  blockingDuration: number;
  renderStart: number;
  styleAndLayoutStart: number;
  scripts: {
    invoker: string;
    sourceFunctionName: string;
    sourceURL: string;
    sourceCharPosition: number;
    duration: number;
  }[];
}

async function launch(profile: string): Promise<{ context: BrowserContext; page: Page }> {
  const { chromium } = createRequire(import.meta.url)('playwright-core') as typeof import('playwright-core');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: HARNESS_CHROMIUM
      ? CHROMIUM_ARGS.filter((a) => !a.startsWith('--disable-features='))
      : CHROMIUM_ARGS,
    viewport: { width: 1280, height: HARNESS_CHROMIUM ? 900 : 860 },
  });
  await context.addInitScript(instruments);
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (e) => console.error('pageerror:', e.message.slice(0, 300)));
  return { context, page };
}

/** One visit to /tickets until the first row is painted; the marks, ms since navigation start. */
async function visit(page: Page, url: string): Promise<Sample> {
  await page.goto(`${url}/tickets?bench`);
  try {
    await page.waitForFunction(
      () => (window as unknown as { __start: { rowPaint?: number } }).__start.rowPaint !== undefined,
      null,
      { timeout: 120_000, polling: 50 },
    );
  } catch (e) {
    // One failed visit must not lose the run: its figures are missing (–), the page is kept.
    const shot = join(tmpdir(), `bench-start-failed-${Date.now()}.png`);
    await page.screenshot({ path: shot }).catch(() => undefined);
    console.error(`no ticket row at ${page.url()} (screenshot ${shot}): ${String(e).split('\n')[0]}`);
    return { longest: Number.NaN, longCount: Number.NaN } as Sample;
  }
  // A remembered first screen paints before the database answers: wait for the database's rows
  // too (a build without that feature painted its first row from the database's answer already).
  await page
    .waitForFunction(
      () => {
        const mark = (n: string) => performance.getEntriesByName(n, 'mark')[0]?.startTime;
        const row = (window as unknown as { __start: { rowPaint: number } }).__start.rowPaint;
        const listed = mark('ninefold:first:data.list');
        return mark('ninefold:first-row-confirmed') !== undefined || (listed !== undefined && listed < row);
      },
      null,
      { timeout: 120_000, polling: 50 },
    )
    .catch(() => console.error('no row from the database within 120 s'));
  await page.waitForTimeout(100);
  if (LONG_FRAMES)
    for (const f of await page.evaluate(
      () => (window as unknown as { __start: { frames: string[] } }).__start.frames,
    ))
      console.error(`  long frame at ${f}`);
  return page.evaluate(
    (names) => {
      const s = (window as unknown as { __start: { row: number; rowPaint: number; long: number[][] } })
        .__start;
      const out: Record<string, number> = {};
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
      out.html = nav?.responseEnd ?? Number.NaN;
      for (const n of names) {
        const e = performance.getEntriesByName(n, 'mark')[0];
        if (e) out[n] = e.startTime;
      }
      out.entry = out['ninefold:worker-start'] ?? Number.NaN;
      out.row = s.row;
      out.rowPaint = s.rowPaint;
      const before = s.long.filter(([t]) => (t as number) < s.rowPaint);
      out.longest = Math.max(0, ...before.map(([, d]) => d as number));
      out.longCount = before.filter(([, d]) => (d as number) > 50).length;
      // Every task of the start, up to the database's rows painted (the target: none over 50 ms).
      out.longestAll = Math.max(0, ...s.long.map(([, d]) => d as number));
      out.longestAllAt = s.long.find(([, d]) => d === out.longestAll)?.[0] ?? Number.NaN;
      out.longAllCount = s.long.filter(([, d]) => (d as number) > 50).length;
      return out as Sample;
    },
    [...MARKS.map(([m]) => m), 'ninefold:worker-start'],
  );
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/**
 * One return visit under Chromium's sampling profiler, navigation → live screen (the
 * `ninefold:preview-replaced` mark, or the first row without a picture); writes the profile and
 * prints the functions with the most self time.
 */
async function profiledVisit(page: Page, url: string, file: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await page.goto(`${url}/tickets?bench`);
  await liveScreen(page);
  if (TRACE_AFTER > 0) await page.waitForTimeout(TRACE_AFTER);
  const { profile } = (await cdp.send('Profiler.stop')) as {
    profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  };
  await writeFile(file, JSON.stringify(profile));
  const self = new Map<number, number>();
  for (const [i, id] of profile.samples.entries())
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  const byName = new Map<string, number>();
  for (const n of profile.nodes) {
    const { functionName, url: u, lineNumber } = n.callFrame;
    const key = `${functionName || '(anonymous)'} ${u.split('/').pop() ?? ''}:${lineNumber + 1}`;
    byName.set(key, (byName.get(key) ?? 0) + (self.get(n.id) ?? 0) / 1000);
  }
  const top = [...byName].sort((a, b) => b[1] - a[1]).slice(0, 25);
  console.log(`\nCPU profile of a return visit (navigation → live screen), ${file}: self time, ms`);
  for (const [k, ms] of top) console.log(`${ms.toFixed(1).padStart(8)}  ${k}`);
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  cat?: string;
  args?: { name?: string; data?: { frame?: string; url?: string; functionName?: string; type?: string } };
}

/** Until the live screen (or the first row without a picture), ms. */
function liveScreen(page: Page): Promise<unknown> {
  return page.waitForFunction(
    () =>
      performance.getEntriesByName('ninefold:preview-replaced', 'mark').length > 0 ||
      performance.getEntriesByName('ninefold:first-row', 'mark').length > 0,
    null,
    { timeout: 120_000, polling: 50 },
  );
}

/**
 * One return visit traced (`devtools.timeline`): the page's main thread from navigation to the
 * live screen, its time by kind of work (nested events counted once, in the innermost kind).
 */
async function tracedVisit(page: Page, url: string, file: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => {
    events.push(...(e.value as unknown as TraceEvent[]));
  });
  const done = new Promise<void>((r) => cdp.once('Tracing.tracingComplete', () => r()));
  await cdp.send('Tracing.start', {
    categories:
      'devtools.timeline,disabled-by-default-devtools.timeline,v8,blink.user_timing,disabled-by-default-v8.compile' +
      // The worker's samples (workerProfiles): where the database's open spends its time.
      (TRACE_AFTER > 0 ? ',disabled-by-default-v8.cpu_profiler' : '') +
      (TRACE_CATEGORIES ? `,${TRACE_CATEGORIES}` : ''),
    transferMode: 'ReportEvents',
  });
  await page.goto(`${url}/tickets?bench`);
  await liveScreen(page);
  if (TRACE_AFTER > 0) await page.waitForTimeout(TRACE_AFTER);
  await cdp.send('Tracing.end');
  await done;
  await writeFile(file, JSON.stringify({ traceEvents: events }));
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const start = events.find((e) => e.name === 'navigationStart' || e.name === 'fetchStart')?.ts ?? 0;
  const end = events.find(
    (e) => e.name === 'ninefold:preview-replaced' || e.name === 'ninefold:first-row',
  )?.ts;
  const spans = events
    .filter((e) => e.ph === 'X' && e.pid === main?.pid && e.tid === main?.tid && e.ts >= start)
    .filter((e) => end === undefined || e.ts < end)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  // Self time of each event: its duration less its children's.
  const self = new Map<string, number>();
  const stack: { e: TraceEvent; end: number; child: number }[] = [];
  const pop = () => {
    const top = stack.pop();
    if (!top) return;
    self.set(top.e.name, (self.get(top.e.name) ?? 0) + ((top.e.dur ?? 0) - top.child) / 1000);
    const parent = stack[stack.length - 1];
    if (parent) parent.child += top.e.dur ?? 0;
  };
  for (const e of spans) {
    while (stack.length && (stack[stack.length - 1]?.end ?? 0) <= e.ts) pop();
    stack.push({ e, end: e.ts + (e.dur ?? 0), child: 0 });
  }
  while (stack.length) pop();
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 20);
  console.log(
    `\nTrace of a return visit, main thread, navigation → live screen (${end ? Math.round((end - start) / 1000) : '?'} ms), ${file}: self time, ms`,
  );
  for (const [k, ms] of top) console.log(`${ms.toFixed(1).padStart(8)}  ${k}`);
  if (TRACE_AFTER > 0) {
    longTasks(events, main, start);
    printWorkerProfiles(workerProfiles(events as ProfiledEvent[], start));
  }
}

/** The main thread's tasks over 50 ms, each with the events under it that took longest. */
function longTasks(events: TraceEvent[], main: TraceEvent | undefined, start: number): void {
  const onMain = events
    .filter((e) => e.ph === 'X' && e.pid === main?.pid && e.tid === main?.tid && e.ts >= start)
    .sort((a, b) => a.ts - b.ts);
  const marks = events
    .filter((e) => e.cat?.includes('blink.user_timing') && e.name.startsWith('ninefold:') && e.ts >= start)
    .map((e) => `${e.name} ${Math.round((e.ts - start) / 1000)}`);
  console.log(`\nMarks: ${[...new Set(marks)].join(', ')}`);
  console.log('Tasks over 50 ms on the main thread (ms since navigation, duration; longest events inside):');
  for (const t of onMain.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) > 50_000)) {
    const end = t.ts + (t.dur ?? 0);
    const inside = onMain
      .filter((e) => e !== t && e.ts >= t.ts && e.ts < end && e.name !== 'RunTask')
      .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
      .slice(0, 6)
      .map((e) => {
        const d = e.args?.data;
        const what = d?.functionName || d?.url?.replace(/^.*\//, '') || d?.type || '';
        return `${e.name}${what ? `(${what})` : ''} ${((e.dur ?? 0) / 1000).toFixed(0)}`;
      });
    console.log(
      `  ${Math.round((t.ts - start) / 1000)}: ${((t.dur ?? 0) / 1000).toFixed(0)} ms — ${inside.join(', ')}`,
    );
  }
}

/**
 * Waits (5 s at most) for the page's code cache warm-up (src/runtime/warmCodeCache.ts) to have
 * run, as the harness's first visit stays open for it; a build without one waits the 5 s.
 */
async function codeCacheWarmed(page: Page): Promise<void> {
  await page
    .waitForFunction(() => Object.keys(localStorage).some((k) => k.endsWith('-code-cache')), null, {
      timeout: 5_000,
    })
    .catch(() => undefined);
}

/** N tickets on top of the demo's, inserted as the owner in one statement (as the harness does). */
async function seed(page: Page, n: number): Promise<void> {
  await page.waitForFunction(
    () => (window as unknown as { __ninefold?: unknown }).__ninefold !== undefined,
    null,
    {
      timeout: 120_000,
    },
  );
  await page.evaluate(async (count) => {
    const nf = (
      window as unknown as {
        __ninefold: {
          backend: {
            asOwner(
              fn: (tx: { query(s: string, p?: unknown[]): Promise<unknown> }) => Promise<void>,
            ): Promise<void>;
          };
        };
      }
    ).__ninefold;
    await nf.backend.asOwner(async (tx) => {
      await tx.query('alter table public.ticket disable trigger user');
      await tx.query(
        `insert into public.ticket (title, description, priority, requester, status, created_at, updated_at)
         select 'Ticket ' || g || ': printer on floor ' || (g % 9) || ' does not respond',
                'Bench ticket number ' || g || ': the thing does not work as expected, please have a look.',
                (array['low','normal','high','urgent'])[1 + g % 4],
                (select id from auth.users where email = 'customer@demo.test'),
                (array['new','open','pending','solved','closed'])[1 + g % 5],
                now() - g * interval '1 minute', now() - g * interval '1 minute'
         from generate_series(1, $1::int) g`,
        [count],
      );
      await tx.query('alter table public.ticket enable trigger user');
      await tx.query('analyze public.ticket');
    });
  }, n);
  await page.waitForTimeout(SETTLE);
}

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    console.log(`bench:start skipped: ${CHROMIUM} not found`);
    return;
  }
  const work = await mkdtemp(join(tmpdir(), 'ninefold-bench-start-'));
  const builds: { name: string; dir: string }[] = [];
  for (const d of DISTS) {
    const [name, dir] = d.includes('=') ? (d.split('=', 2) as [string, string]) : [d, d];
    builds.push({ name, dir });
  }
  if (builds.length === 0) {
    await build('examples/helpdesk', join(work, 'dist'));
    builds.push({ name: 'this tree', dir: join(work, 'dist') });
  }
  const servers = await Promise.all(builds.map((b) => serve(b.dir)));
  const first: Sample[][] = builds.map(() => []);
  const again: Record<number, Sample[][]> = {};
  try {
    // First visits, interleaved (the order flips each run).
    for (let r = 0; r < RUNS; r++) {
      const order = builds.map((_, i) => i);
      if (r % 2) order.reverse();
      for (const i of order) {
        const profile = await mkdtemp(join(work, 'first-'));
        const { context, page } = await launch(profile);
        try {
          first[i]?.push(await visit(page, servers[i]?.url ?? ''));
        } finally {
          await context.close();
          await rm(profile, { recursive: true, force: true });
        }
      }
      console.error(`first visits, run ${r + 1}/${RUNS} done`);
    }
    for (const size of SIZES) {
      // One profile per build holding `size` more tickets, signed in as the agent.
      const profiles: string[] = [];
      for (const [i] of builds.entries()) {
        const profile = await mkdtemp(join(work, `again-${size}-`));
        const { context, page } = await launch(profile);
        try {
          await visit(page, servers[i]?.url ?? '');
          await seed(page, size);
          await codeCacheWarmed(page);
        } finally {
          await context.close();
        }
        profiles.push(profile);
      }
      again[size] = builds.map(() => []);
      for (let r = 0; r < RUNS; r++) {
        const order = builds.map((_, i) => i);
        if (r % 2) order.reverse();
        for (const i of order) {
          const profile = FRESH_RETURN ? await mkdtemp(join(work, 'copy-')) : (profiles[i] ?? '');
          if (FRESH_RETURN) await cp(profiles[i] ?? '', profile, { recursive: true });
          const { context, page } = await launch(profile);
          try {
            again[size]?.[i]?.push(await visit(page, servers[i]?.url ?? ''));
          } finally {
            await context.close();
            if (FRESH_RETURN) await rm(profile, { recursive: true, force: true });
          }
        }
        console.error(`return visits, ${size} tickets, run ${r + 1}/${RUNS} done`);
      }
      // One more return visit of the first build, traced or sampled.
      const studies = [
        [TRACE, tracedVisit],
        [PROFILE, profiledVisit],
      ] as const;
      for (const [file, study] of studies) {
        if (!file || size !== SIZES[0]) continue;
        const { context, page } = await launch(
          STUDY_VISIT === 'first' ? await mkdtemp(join(work, 'study-')) : (profiles[0] ?? ''),
        );
        try {
          await study(page, servers[0]?.url ?? '', file);
        } finally {
          await context.close();
        }
      }
    }
  } finally {
    await Promise.all(servers.map((s) => s.close()));
    await rm(work, { recursive: true, force: true });
  }

  const cell = (xs: Sample[], key: string) => {
    const m = median(xs.map((x) => x[key] ?? Number.NaN));
    return Number.isFinite(m) ? `${Math.round(m)}` : '–';
  };
  const table = (title: string, samples: Sample[][]) => {
    const head = `| ${title} (ms since navigation, median of ${RUNS}) | ${builds.map((b) => b.name).join(' | ')} |`;
    const lines = [head, `|---|${builds.map(() => '---:').join('|')}|`];
    for (const [key, label] of MARKS)
      lines.push(`| ${label} | ${samples.map((s) => cell(s, key)).join(' | ')} |`);
    lines.push(
      `| long tasks > 50 ms before the row (count) | ${samples.map((s) => cell(s, 'longCount')).join(' | ')} |`,
    );
    lines.push(`| longest task before the row | ${samples.map((s) => cell(s, 'longest')).join(' | ')} |`);
    lines.push(
      `| long tasks > 50 ms until the database's rows are painted (count) | ${samples.map((s) => cell(s, 'longAllCount')).join(' | ')} |`,
    );
    lines.push(
      `| longest task until then (median; each run: ms at ms) | ${samples
        .map(
          (s) =>
            `${cell(s, 'longestAll')}; ${s
              .map((x) =>
                x.longestAll ? `${Math.round(x.longestAll)} at ${Math.round(x.longestAllAt ?? 0)}` : '0',
              )
              .join(', ')}`,
        )
        .join(' | ')} |`,
    );
    // A return visit's first render, run by run (less noisy than a difference of two medians):
    // the UI's chunk loaded → the live screen replacing the picture.
    const render = (x: Sample) =>
      (x['ninefold:preview-replaced'] ?? Number.NaN) - (x['ninefold:ui-loaded'] ?? Number.NaN);
    lines.push(
      `| first render: UI chunk loaded → live screen (each run's, median) | ${samples
        .map((s) => {
          const m = median(s.map(render));
          return Number.isFinite(m) ? `${Math.round(m)}` : '–';
        })
        .join(' | ')} |`,
    );
    if (builds.length === 2) {
      const [a, b] = samples.map((s) => median(s.map((x) => x.rowPaint ?? Number.NaN)));
      lines.push(
        `| ratio first row (${builds[0]?.name} / ${builds[1]?.name}) | ${((a ?? 0) / (b ?? 1)).toFixed(2)}x | |`,
      );
    }
    return lines.join('\n');
  };
  console.log(
    `\nChromium headless; ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}; load ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}; ${new Date().toISOString()}\n`,
  );
  console.log(table('first visit (snapshot, demo data)', first));
  for (const size of SIZES)
    console.log(`\n${table(`return visit, ${size.toLocaleString('en')} more tickets`, again[size] ?? [])}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
