/**
 * Ninefold Studio's speed (issue 33), the built studio on the helpdesk document in headless
 * Chromium, medians:
 * - first visit → editor usable (navigation start → the editor holds the document, cold cache);
 * - keystroke → diagnostics shown (keydown → the animation frame after the check's diagnostics are
 *   applied; one key every 300 ms, alternately making and mending a misspelt field in a rule);
 * - new document → its live app running (the first start: a new database from the studio's base,
 *   the migration, the demo accounts, the app rendered);
 * - valid edit → live app showing it (one edit that adds a field with a default → the running app's
 *   page has upgraded its open database and rendered the new version, data kept).
 *
 * Run: npm run bench:studio            (prints the table)
 *      npm run bench:studio -- --doc   (also writes it into docs/performance.md, section "## Studio (bench:studio)")
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { buildStudio } from '../src/cli/studioServer.ts';
import { serveDist } from '../test/e2e/serveDist.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const KEYS = Number(process.env.BENCH_KEYS ?? 20);
const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
/** A rule of the helpdesk document: a key typed after `status` misspells it, the next mends it. */
const RULE = '`assignee = me and status';
const LAST_TICKET_FIELD = '| `resolution` | Resolution | long text |';

type Timings = {
  check: number[];
  live: number[];
  keyAt: number[];
  shownAt: number[];
  liveAt: number[];
  ready: number;
};
const timingsOf = (page: Page) =>
  page.evaluate(() => (window as unknown as { __studioTimings: Timings }).__studioTimings);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : (s[(s.length - 1) >> 1] as number);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Puts the cursor right after the first `find` in the document. */
async function cursorAfter(page: Page, find: string): Promise<void> {
  await page.evaluate((f) => {
    const view = (
      window as unknown as {
        __studioView: { state: { doc: { toString(): string } }; dispatch(t: unknown): void; focus(): void };
      }
    ).__studioView;
    const at = view.state.doc.toString().indexOf(f) + f.length;
    view.dispatch({ selection: { anchor: at }, scrollIntoView: true });
    view.focus();
  }, find);
}

async function keystrokes(page: Page): Promise<number[]> {
  await cursorAfter(page, RULE);
  const out: number[] = [];
  for (let i = 0; i < KEYS; i++) {
    const before = await timingsOf(page);
    await page.keyboard.press(i % 2 === 0 ? 'x' : 'Backspace');
    const t0 = Date.now();
    let after = before;
    while (after.shownAt.length === before.shownAt.length && Date.now() - t0 < 5_000) {
      await sleep(20);
      after = await timingsOf(page);
    }
    const key = after.keyAt[after.keyAt.length - 1] as number;
    out.push((after.shownAt[after.shownAt.length - 1] as number) - key);
    await sleep(300);
  }
  return out;
}

async function liveEdit(page: Page, n: number): Promise<number> {
  const before = await timingsOf(page);
  const edited = await page.evaluate(
    ([find, n]) => {
      const view = (
        window as unknown as {
          __studioView: { state: { doc: { toString(): string } }; dispatch(t: unknown): void };
        }
      ).__studioView;
      const doc = view.state.doc.toString();
      const at = doc.indexOf('\n', doc.indexOf(find as string)) + 1;
      view.dispatch({
        changes: {
          from: at,
          insert: `| \`extra${n}\` | Extra ${n} | text |   | \`x\` |   |   |   |   |   |   |\n`,
        },
      });
      return performance.now();
    },
    [LAST_TICKET_FIELD, n] as const,
  );
  const t0 = Date.now();
  let after = before;
  while (after.liveAt.length === before.liveAt.length && Date.now() - t0 < 60_000) {
    await sleep(50);
    after = await timingsOf(page);
  }
  return (after.liveAt[after.liveAt.length - 1] as number) - edited;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ninefold-bench-studio-'));
  await buildStudio('docs/helpdesk.md', dir);
  const { url, server } = await serveDist(dir);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  const ready: number[] = [];
  const shown: number[] = [];
  const checks: number[] = [];
  const live: number[] = [];
  const firstLive: number[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${url}/index.html`);
      await page.locator('html[data-studio="ready"]').waitFor({ timeout: 60_000 });
      ready.push((await timingsOf(page)).ready);
      await sleep(500);
      shown.push(...(await keystrokes(page)));
      checks.push(...(await timingsOf(page)).check.slice(1));
      await page.getByRole('tab', { name: 'Live app' }).click();
      await page.locator('#live[data-state="ready"]').waitFor({ timeout: 60_000 });
      // The document's first start: a new database (the studio's base, src/cli/studioBasePlugin.ts).
      firstLive.push((await timingsOf(page)).live[0] as number);
      live.push(await liveEdit(page, run));
      await context.close();
    }
  } finally {
    await browser.close();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const row = (what: string, ms: number, target: number) =>
    `| ${what} | ${Math.round(ms)} ms | ≤ ${target} ms | ${ms <= target ? 'ok' : 'MISSED'} |`;
  const section = [
    '## Studio (bench:studio)',
    '',
    `Command: \`npm run bench:studio -- --doc\` (medians: ${RUNS} runs, ${KEYS} keys a run). Machine: ${cpus()[0]?.model.split(' ').slice(0, 2).join(' ')}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${CHROMIUM} headless. Date: ${new Date().toISOString().slice(0, 10)}.`,
    '',
    '| measure | result | target | |',
    '| --- | --- | --- | --- |',
    row('studio first visit → editor usable (helpdesk document)', median(ready), 1500),
    row('keystroke → diagnostics shown (helpdesk document)', median(shown), 100),
    `|   of which the check itself (import, validation, lints) | ${Math.round(median(checks))} ms |  |  |`,
    row('new document → its live app running (new database, demo accounts)', median(firstLive), 3000),
    row('valid edit → live app showing the change, data kept', median(live), 1000),
    '',
  ].join('\n');
  console.log(section);
  if (process.argv.includes('--doc')) {
    await writeSection('docs/performance.md', section);
    console.log('written to docs/performance.md');
  }
}

/** Replaces the section's table (up to its first "### " or the next "## "), keeping the rest of the file. */
async function writeSection(file: string, section: string): Promise<void> {
  const title = '## Studio (bench:studio)';
  const old = existsSync(file) ? await readFile(file, 'utf8') : '# Performance\n';
  const start = old.indexOf(title);
  if (start < 0) {
    await writeFile(file, `${old.trimEnd()}\n\n${section.trimEnd()}\n`);
    return;
  }
  const after = old.slice(start + 3);
  const next = after.search(/^## /m);
  const end = next < 0 ? old.length : start + 3 + next;
  const current = old.slice(start, end);
  const notes = current.search(/^### /m);
  const kept = notes < 0 ? '' : `\n${current.slice(notes).trimEnd()}\n`;
  const rest = old.slice(end);
  await writeFile(file, `${old.slice(0, start)}${section.trimEnd()}\n${kept}${rest ? `\n${rest}` : ''}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
