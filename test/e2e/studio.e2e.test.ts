/**
 * Ninefold Studio, built (`ninefold build --studio docs/helpdesk.md`) and served as static files:
 * a misspelt field in a rule is marked at its line with a quick fix that repairs it; the live app
 * runs the document on PGlite, follows a valid edit with its data kept, enforces a lowered limit at
 * once, refuses an edit that would lose rows (and keeps running), and changes with the role chosen
 * in the switcher.
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStudio } from '../../src/cli/studioServer.ts';
import { CHROMIUM, CHROMIUM_ARGS, e2eAvailable, newPage, seriousAxeViolations, step } from './harness.ts';
import { serveDist } from './serveDist.ts';

const HELPDESK = readFileSync('docs/helpdesk.md', 'utf8');
const RULE = '`assignee = me and status in (new, open, pending)`';
const LAST_TICKET_FIELD =
  '| `resolution` | Resolution | long text |   |   |   |   | How the problem was solved; sent to the requester. |   |   |   |\n';
const CHANNEL_FIELD = '| `channel` | Channel | text |   | `email` |   |   |   | yes |   |   |\n';

type StudioWindow = {
  __studioView: {
    state: { doc: { toString(): string } };
    dispatch(t: unknown): void;
    focus(): void;
  };
  __studioTimings: { check: number[]; live: number[] };
};

/**
 * Selects `find` (its first occurrence after `after`; with `collapse`, only the place right after it)
 * and types `text` over the selection key by key, or deletes it when `text` is empty.
 */
async function typeOver(page: Page, find: string, text: string, after = '', collapse = false): Promise<void> {
  await page.evaluate(
    ([f, a, c]) => {
      const view = (window as unknown as StudioWindow).__studioView;
      const doc = view.state.doc.toString();
      const from = doc.indexOf(f as string, doc.indexOf(a as string));
      const to = from + (f as string).length;
      view.dispatch({ selection: { anchor: c ? to : from, head: to }, scrollIntoView: true });
      view.focus();
    },
    [find, after, collapse] as const,
  );
  if (text === '') await page.keyboard.press('Backspace');
  else await page.keyboard.type(text, { delay: 10 });
}

const docText = (page: Page) =>
  page.evaluate(() => (window as unknown as StudioWindow).__studioView.state.doc.toString());
const liveRuns = (page: Page) =>
  page.evaluate(() => (window as unknown as StudioWindow).__studioTimings.live.length);

function liveFrame(page: Page): Frame {
  const frame = page.frames().find((f) => f.url().includes('preview.html'));
  if (!frame) throw new Error('no live app frame');
  return frame;
}

describe.skipIf(!e2eAvailable)('Ninefold Studio (built)', () => {
  let dir: string;
  let server: Server;
  let url: string;
  let browser: Browser;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ninefold-studio-'));
    await buildStudio('docs/helpdesk.md', dir);
    ({ url, server } = await serveDist(dir));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('marks an unknown field at its line, fixes it, and runs the document as a live app', async () => {
    const context = await browser.newContext();
    const { page, errors } = await newPage(context);
    await step(page, 'studio-open', async () => {
      await page.goto(`${url}/index.html`);
      await page.locator('html[data-studio="ready"]').waitFor();
      await expect.poll(() => page.locator('#status').textContent()).toContain('No errors');
      expect(await page.locator('#outline button').allTextContents()).toContain('9. Constants and limits');
    });

    await step(page, 'unknown-field', async () => {
      await typeOver(page, RULE.slice(1, 9), 'asignee', RULE);
      const marked = page.locator('.cm-lintRange-error');
      await marked.first().waitFor();
      expect(await marked.count()).toBe(1);
      // The mark is on the rule's line, over the misspelt name alone.
      const line = HELPDESK.slice(0, HELPDESK.indexOf(RULE)).split('\n').length;
      expect(await marked.textContent()).toBe('asignee');
      expect(await page.locator('#problems').textContent()).toContain(`line ${line}, column`);
      expect(await page.locator('#problems').textContent()).toContain('did you mean "assignee"?');
    });

    await step(page, 'quick-fix', async () => {
      await page.locator('.cm-lintRange-error').hover();
      await page.getByRole('button', { name: 'Replace with assignee' }).click();
      await expect.poll(() => docText(page)).toBe(HELPDESK);
      await expect.poll(() => page.locator('.cm-lintRange-error').count()).toBe(0);
      await expect.poll(() => page.locator('#status').textContent()).toContain('No errors');
    });

    await step(page, 'completion', async () => {
      // In a rule, a name is offered from the document's own: entities, fields, states, roles…
      await typeOver(page, 'assignee = me and status', 'assignee = me and stat', RULE);
      const option = page.getByRole('option', { name: /^status/ }).first();
      await option.waitFor();
      // A key within CodeMirror's interaction delay (75 ms) after the list opens is not taken as a choice.
      await page.waitForTimeout(150);
      await page.keyboard.press('Enter');
      await expect.poll(() => docText(page)).toBe(HELPDESK);
    });

    await step(page, 'studio-axe', async () => {
      expect(await seriousAxeViolations(page)).toEqual([]);
      // Dark, and as narrow as a phone: still clean.
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.setViewportSize({ width: 360, height: 800 });
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    await step(page, 'live-app', async () => {
      await page.getByRole('tab', { name: 'Live app' }).click();
      await page.locator('#live[data-state="ready"]').waitFor({ timeout: 60_000 });
      await page.getByLabel('Signed in as').selectOption({ label: 'Demo Customer (customer)' });
      const frame = liveFrame(page);
      await frame.getByRole('link', { name: 'New ticket' }).first().waitFor({ timeout: 30_000 });
      expect(await frame.getByRole('link', { name: 'My queue' }).count()).toBe(0);
      await frame.evaluate(async () => {
        const w = window as unknown as {
          __ninefoldPreview: { backend: { data: { create(e: string, v: object): Promise<unknown> } } };
        };
        await w.__ninefoldPreview.backend.data.create('ticket', {
          title: 'Printer on fire',
          description: 'Smoke rises from paper tray 2 whenever a job of more than ten pages is printed.',
        });
      });
    });

    await step(page, 'live-add-field', async () => {
      const runs = await liveRuns(page);
      await typeOver(page, LAST_TICKET_FIELD, CHANNEL_FIELD, '', true);
      await expect.poll(() => liveRuns(page), { timeout: 60_000 }).toBe(runs + 1);
      const rows = await liveFrame(page).evaluate(async () => {
        const w = window as unknown as {
          __ninefoldPreview: { backend: { data: { list(e: string): Promise<{ rows: object[] }> } } };
        };
        return (await w.__ninefoldPreview.backend.data.list('ticket')).rows;
      });
      // Still signed in as the customer, the ticket kept, the new field at its default on it.
      expect(rows).toEqual([expect.objectContaining({ title: 'Printer on fire', channel: 'email' })]);
    });

    await step(page, 'live-constant', async () => {
      // Lower the attachment limit: the live database enforces the new one at once.
      const runs = await liveRuns(page);
      await typeOver(page, '| 20 | count |', '| 1 | count |', '`maxAttachmentsPerTicket`');
      await expect.poll(() => liveRuns(page), { timeout: 60_000 }).toBe(runs + 1);
      const codes = await liveFrame(page).evaluate(async () => {
        type Port = {
          data: { list(e: string): Promise<{ rows: { id: string }[] }> };
          files: { upload(e: string, f: object): Promise<unknown> };
        };
        const { backend } = (window as unknown as { __ninefoldPreview: { backend: Port } }).__ninefoldPreview;
        const [ticket] = (await backend.data.list('ticket')).rows;
        const attach = (name: string) =>
          backend.files
            .upload('attachment', {
              values: { ticket: ticket?.id },
              name,
              type: 'text/plain',
              bytes: new TextEncoder().encode('smoke'),
            })
            .then(
              () => 'ok',
              (e: { code?: string }) => e.code ?? String(e),
            );
        return [await attach('one.txt'), await attach('two.txt')];
      });
      expect(codes).toEqual(['ok', 'TOO_MANY_ATTACHMENTS']);
    });

    await step(page, 'live-refused', async () => {
      const runs = await liveRuns(page);
      const src = await page.locator('#live').getAttribute('src');
      await typeOver(page, CHANNEL_FIELD, '');
      const refusal = page.locator('#live-refusal');
      await refusal.waitFor();
      expect(await refusal.textContent()).toContain('channel');
      expect(await page.locator('#live').getAttribute('src')).toBe(src);
      expect(await liveRuns(page)).toBe(runs);
      await liveFrame(page).getByRole('link', { name: 'New ticket' }).first().waitFor();
    });

    await step(page, 'live-role', async () => {
      await page.getByLabel('Signed in as').selectOption({ label: 'Demo Agent (agent)' });
      await liveFrame(page).getByRole('link', { name: 'My queue' }).first().waitFor({ timeout: 30_000 });
      await page.getByRole('tab', { name: 'Permissions' }).click();
      const agentTicket = page.locator('tr', { has: page.locator('th', { hasText: /^Agent$/ }) }).filter({
        has: page.locator('td', { hasText: /^Ticket$/ }),
      });
      expect(await agentTicket.locator('td').nth(1).textContent()).toBe('always');
    });

    const timings = await page.evaluate(() => (window as unknown as StudioWindow).__studioTimings);
    console.log(
      `studio: checks ${JSON.stringify(timings.check.map(Math.round))} ms, live ${JSON.stringify(timings.live.map(Math.round))} ms`,
    );
    expect(errors).toEqual([]);
    await context.close();
  });
});
