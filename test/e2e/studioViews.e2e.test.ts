/**
 * Ninefold Studio's views, languages and sharing, on the built studio (`ninefold build --studio
 * docs/helpdesk.md`) served as static files: every read-only view shows the helpdesk's model and
 * follows an edit; the page switches to German (and the live app with it); a share link opens the
 * exact document in a fresh browser, a damaged one says so and leaves the stored document; export
 * downloads the document's bytes and import loads a file; axe finds nothing serious on the views.
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStudio } from '../../src/cli/studioServer.ts';
import {
  CHROMIUM,
  CHROMIUM_ARGS,
  e2eAvailable,
  newPage,
  seriousAxeViolations,
  shoot,
  step,
} from './harness.ts';
import { serveDist } from './serveDist.ts';

const LAST_TICKET_FIELD =
  '| `resolution` | Resolution | long text |   |   |   |   | How the problem was solved; sent to the requester. |   |   |   |\n';
const CHANNEL_FIELD = '| `channel` | Channel | text |   | `email` |   |   |   | yes |   |   |\n';
const TAKE = '| `take` | Take |';

type StudioWindow = {
  __studioView: {
    state: { doc: { toString(): string; length: number } };
    dispatch(t: unknown): void;
  };
};

const docText = (page: Page) =>
  page.evaluate(() => (window as unknown as StudioWindow).__studioView.state.doc.toString());

/** Inserts `text` right after `after` (one transaction, as a paste). */
async function insertAfter(page: Page, after: string, text: string, replace = 0): Promise<void> {
  await page.evaluate(
    ([a, t, r]) => {
      const view = (window as unknown as StudioWindow).__studioView;
      const at = view.state.doc.toString().indexOf(a as string) + (a as string).length;
      view.dispatch({ changes: { from: at - (r as number), to: at, insert: t } });
    },
    [after, text, replace] as const,
  );
}

async function openStudio(page: Page, url: string): Promise<void> {
  // From another page: a link that differs in its fragment alone would not load the page again.
  if (page.url() !== 'about:blank') await page.goto('about:blank');
  await page.goto(url);
  // A fresh browser context on a loaded machine (CI runs browser files side by side) can take long.
  await page.locator('html[data-studio="ready"]').waitFor({ timeout: 120_000 });
}

const panel = (page: Page, tab: string) => page.locator(`#panel-${tab}`);

async function axeEverywhere(page: Page): Promise<void> {
  for (const [scheme, width] of [
    ['light', 1280],
    ['dark', 360],
  ] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width, height: 800 });
    expect(await seriousAxeViolations(page), `${scheme} ${width}px`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe.skipIf(!e2eAvailable)('Ninefold Studio views, languages and sharing (built)', () => {
  let dir: string;
  let server: Server;
  let url: string;
  let browser: Browser;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ninefold-studio-views-'));
    await buildStudio('docs/helpdesk.md', dir);
    ({ url, server } = await serveDist(dir));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('shows every view of the model, follows edits, speaks German, shares, exports and imports', async () => {
    const context = await browser.newContext({ acceptDownloads: true, locale: 'en-US' });
    const { page, errors } = await newPage(context);
    const helpdesk = readFileSync('docs/helpdesk.md', 'utf8');

    await step(page, 'views', async () => {
      await openStudio(page, `${url}/index.html`);
      await page.getByRole('tab', { name: 'States' }).click();
      const diagram = panel(page, 'states').getByRole('img', { name: 'States of Ticket' });
      await diagram.waitFor();
      expect(await diagram.locator('text', { hasText: /^Take \(Agent\)$/ }).count()).toBe(1);
      await page.getByRole('tab', { name: 'Types' }).click();
      await expect.poll(() => page.locator('#types').textContent()).toContain('export type Tables<');
      await page.getByRole('tab', { name: 'OpenAPI' }).click();
      expect(await page.locator('#openapi').textContent()).toContain('"openapi"');
      await page.getByRole('tab', { name: 'Document' }).click();
      expect(await page.locator('#generated-doc').textContent()).toMatch(/^# Helpdesk/);
      await page.getByRole('tab', { name: 'SQL' }).click();
      expect(await page.locator('#sql').textContent()).toContain('create table');
      await page.getByRole('tab', { name: 'Change' }).click();
      expect(await page.locator('#change').textContent()).toBe('No change since the last save.');
    });

    await step(page, 'views-follow-edit', async () => {
      await insertAfter(page, LAST_TICKET_FIELD, CHANNEL_FIELD);
      await insertAfter(page, TAKE, '| `take` | Pick up |', TAKE.length);
      const change = page.locator('#change');
      await expect.poll(() => change.textContent()).toContain('channel');
      expect(await change.locator('pre').textContent()).toMatch(/add column[^;]*channel/i);
      for (const id of ['types', 'openapi', 'generated-doc', 'sql'])
        expect(await page.locator(`#${id}`).textContent(), id).toContain('channel');
      await page.getByRole('tab', { name: 'States' }).click();
      await panel(page, 'states')
        .locator('svg text', { hasText: /^Pick up \(Agent\)$/ })
        .waitFor();
      await shoot(page, 'studio-states');
    });

    await step(page, 'views-axe', async () => {
      await axeEverywhere(page); // the state diagrams
      await page.getByRole('tab', { name: 'Change' }).click();
      await axeEverywhere(page);
      // Keyboard: from the selected tab, the arrow keys reach every view.
      await page.getByRole('tab', { name: 'Change' }).focus();
      await page.keyboard.press('ArrowRight');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('tab-types');
    });

    const edited = await docText(page);

    await step(page, 'export', async () => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('helpdesk.md');
      expect(readFileSync(await download.path(), 'utf8')).toBe(edited);
    });

    let link = '';
    await step(page, 'share', async () => {
      await page.getByRole('button', { name: 'Share link' }).click();
      // The link is written once the document is compressed (asynchronous): polled, not read at once.
      const box = page.getByLabel('Link that opens this document');
      await expect.poll(() => box.inputValue(), { timeout: 10_000 }).toMatch(/#doc=1\.[A-Za-z0-9_-]+$/);
      link = await box.inputValue();
      const fresh = await browser.newContext();
      const other = await fresh.newPage();
      await openStudio(other, link);
      expect(await docText(other)).toBe(edited);
      expect(await other.getByRole('alert').first().textContent()).toContain(
        'Opened the document from the link',
      );
      await fresh.close();
    });

    await step(page, 'broken-link', async () => {
      // Saved: the stored document is the edited one; a damaged link must leave it as it is.
      await page.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => page.locator('#status').textContent()).toContain('Saved in this browser');
      await openStudio(page, `${link.slice(0, -30)}`);
      await page.getByText('The link is damaged').waitFor();
      expect(await docText(page)).toBe(edited);
      await openStudio(page, `${url}/index.html`);
      expect(await docText(page)).toBe(edited);
    });

    await step(page, 'import', async () => {
      await page.locator('#import-file').setInputFiles({
        name: 'helpdesk.md',
        mimeType: 'text/markdown',
        buffer: Buffer.from(helpdesk),
      });
      await expect.poll(() => docText(page)).toBe(helpdesk);
      await page.getByRole('tab', { name: 'Change' }).click();
      // Back to the original: the planner refuses to drop the saved `channel` field's data.
      await expect.poll(() => page.locator('#change').textContent()).toContain('refuses');
    });

    await step(page, 'german', async () => {
      await page.getByLabel('Language').selectOption('de');
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
      await page.getByRole('tab', { name: 'Zustände' }).click();
      await panel(page, 'states').getByRole('img', { name: 'Zustände von Ticket' }).waitFor();
      await page.getByRole('tab', { name: 'Berechtigungen' }).click();
      expect(await page.locator('#permissions th[scope="col"]').first().textContent()).toBe('Rolle');
      await page.getByRole('button', { name: 'Speichern' }).waitFor();
      // The live app follows: its own texts in German.
      await page.getByRole('tab', { name: 'Live-App' }).click();
      // The reloaded studio started the document without `channel` on data that has it: the
      // worker refuses (unless the edited version's start never finished); new data starts it.
      await page.waitForFunction(
        () => ['ready', 'failed'].includes(document.getElementById('live')?.dataset.state ?? ''),
        null,
        { timeout: 120_000 },
      );
      if ((await page.locator('#live[data-state="failed"]').count()) > 0) {
        expect(await page.locator('#live-refusal').textContent()).toContain('ticket.channel');
        await page.getByRole('button', { name: 'Mit neuen Daten beginnen' }).click();
      }
      await page.locator('#live[data-state="ready"]').waitFor({ timeout: 120_000 });
      const frame = page.frames().find((f) => f.url().includes('preview.html'));
      await expect
        .poll(() => frame?.evaluate(() => document.documentElement.lang), { timeout: 90_000 })
        .toBe('de');
      await axeEverywhere(page);
      // Chosen once, kept: a new visit opens in German.
      await openStudio(page, `${url}/index.html`);
      await page.getByRole('tab', { name: 'Probleme' }).waitFor();
    });

    expect(errors).toEqual([]);
    await context.close();
  }, 480_000);
});
