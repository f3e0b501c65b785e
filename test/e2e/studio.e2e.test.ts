/**
 * Ninefold Studio, built (`ninefold build --studio docs/helpdesk.md`) and served as static files:
 * a misspelt field in a rule is marked at its line with a quick fix that repairs it; the live app
 * runs the document on PGlite and follows a valid edit in the same page with its data kept;
 * a lowered attachment limit is enforced at once, the app showing the catalogue's message; removing
 * a field, or a state a ticket is in, is refused with the planner's reasons while the app keeps
 * running; the app changes with the role chosen in the switcher as the permission matrix says.
 * The same on a document written from the blank template: studioBlank.e2e.test.ts.
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStudio } from '../../src/cli/studioServer.ts';
import {
  CHROMIUM,
  CHROMIUM_ARGS,
  e2eAvailable,
  fileOf,
  newPage,
  seriousAxeViolations,
  step,
} from './harness.ts';
import { serveDist } from './serveDist.ts';
import {
  deleteTexts,
  docText,
  errorMarkOver,
  insertLines,
  liveFrame,
  liveRuns,
  liveTimes,
  matrixCell,
  nextLiveRun,
  openScreen,
  portCall,
  signInAs,
  typeOver,
} from './studioPage.ts';

const HELPDESK = readFileSync('docs/helpdesk.md', 'utf8');
const RULE = '`assignee = me and status in (new, open, pending)`';
const LAST_TICKET_FIELD =
  '| `resolution` | Resolution | long text |   |   |   |   | How the problem was solved; sent to the requester. |   |   |   |\n';
const CHANNEL_FIELD = '| `channel` | Channel | text |   | `email` |   |   |   | yes |   |   |\n';
const TICKET = 'Printer on fire';
/** The catalogue's message for TOO_MANY_ATTACHMENTS, with the lowered limit. */
const TOO_MANY = 'A ticket may have at most 1 attachments, and agents as many internal ones.';
const CLOSED_STATE = '| `closed` | Closed |';
const ON_HOLD_STATE = '| `onHold` | On hold |   | yes | Parked by the customer. |   |\n';
const DISCARD_TRANSITION = '| `discard` | Discard as spam |';
const HOLD_TRANSITION = '| `hold` | Put on hold | New | On hold | Customer | none |   |   |   |\n';

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
    let ticketId = '';
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
      const marked = await errorMarkOver(page, 'asignee');
      expect(await marked.count()).toBe(1);
      const line = HELPDESK.slice(0, HELPDESK.indexOf(RULE)).split('\n').length;
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
      await signInAs(page, 'Demo Customer (customer)');
      const frame = liveFrame(page);
      await frame.getByRole('link', { name: 'New ticket' }).first().waitFor({ timeout: 30_000 });
      expect(await frame.getByRole('link', { name: 'My queue' }).count()).toBe(0);
      const made = (await portCall(page, 'data.create', 'ticket', {
        title: TICKET,
        description: 'Smoke rises from paper tray 2 whenever a job of more than ten pages is printed.',
      })) as { id: string };
      ticketId = made.id;
    });

    await step(page, 'live-add-field', async () => {
      const runs = await liveRuns(page);
      const src = await page.locator('#live').getAttribute('src');
      await typeOver(page, LAST_TICKET_FIELD, CHANNEL_FIELD, '', true);
      await nextLiveRun(page, runs);
      const { rows } = (await portCall(page, 'data.list', 'ticket')) as { rows: object[] };
      // Still signed in as the customer, the ticket kept, the new field at its default on it.
      expect(rows).toEqual([expect.objectContaining({ title: TICKET, channel: 'email' })]);
      // The same page took the edit: no reload.
      expect(await page.locator('#live').getAttribute('src')).toBe(src);
    });

    await step(page, 'live-constant', async () => {
      // Lower the attachment limit: the live database enforces the new one at once, and the app
      // shows the catalogue's message for the attachment it refuses.
      const runs = await liveRuns(page);
      await typeOver(page, '| 20 | count |', '| 1 | count |', '`maxAttachmentsPerTicket`');
      await nextLiveRun(page, runs);
      const frame = liveFrame(page);
      await openScreen(page, 'Tickets');
      await frame.getByRole('link', { name: TICKET }).first().click();
      await frame.getByRole('heading', { level: 1, name: TICKET }).waitFor({ timeout: 15_000 });
      const input = frame.locator('input[type=file]');
      await input.setInputFiles(fileOf('one.pdf', 512));
      await frame.getByText('one.pdf').first().waitFor({ timeout: 15_000 });
      await input.setInputFiles(fileOf('two.pdf', 512));
      await frame.getByText(TOO_MANY).first().waitFor({ timeout: 15_000 });
      const refused = await portCall(page, 'files.upload', 'attachment', {
        values: { ticket: ticketId },
        name: 'three.txt',
        type: 'text/plain',
        bytes: new TextEncoder().encode('smoke'),
      });
      expect(refused).toEqual({ error: 'TOO_MANY_ATTACHMENTS' });
    });

    await step(page, 'live-refused-field', async () => {
      const runs = await liveRuns(page);
      await typeOver(page, CHANNEL_FIELD, '');
      const refusal = page.locator('#live-refusal');
      await refusal.waitFor();
      expect(await refusal.textContent()).toContain('channel');
      expect(await liveRuns(page)).toBe(runs);
      // Put back: the app takes it as nothing changed.
      await page.keyboard.press('Control+z');
      await refusal.waitFor({ state: 'hidden' });
    });

    await step(page, 'live-refused-state', async () => {
      // A state the customer's ticket goes into, then removed: the planner refuses, the app keeps working.
      const runs = await liveRuns(page);
      await insertLines(page, [
        [CLOSED_STATE, ON_HOLD_STATE],
        [DISCARD_TRANSITION, HOLD_TRANSITION],
      ]);
      await nextLiveRun(page, runs);
      const held = (await portCall(page, 'data.transition', 'ticket', ticketId, 'hold')) as {
        status?: string;
      };
      expect(held.status).toBe('onHold');
      const src = await page.locator('#live').getAttribute('src');
      await deleteTexts(page, [ON_HOLD_STATE, HOLD_TRANSITION]);
      const refusal = page.locator('#live-refusal');
      await refusal.waitFor();
      expect(await refusal.textContent()).toContain('onHold');
      expect(await page.locator('#live').getAttribute('src')).toBe(src);
      expect(await liveRuns(page)).toBe(runs + 1);
      // Still the running app, rows and all.
      const { rows } = (await portCall(page, 'data.list', 'ticket')) as { rows: { status: string }[] };
      expect(rows).toEqual([expect.objectContaining({ title: TICKET, status: 'onHold' })]);
      await openScreen(page, 'New ticket');
      await liveFrame(page).getByLabel('Subject').waitFor();
    });

    await step(page, 'live-role', async () => {
      await signInAs(page, 'Demo Agent (agent)');
      await liveFrame(page).getByRole('link', { name: 'My queue' }).first().waitFor({ timeout: 30_000 });
      await page.getByRole('tab', { name: 'Permissions' }).click();
      expect(await matrixCell(page, 'Agent', 'Ticket', 'Read')).toBe('always');
      expect(await matrixCell(page, 'Customer', 'Ticket', 'Read')).not.toBe('always');
      // As the matrix says: the agent reads every ticket, the customer's among them.
      const { rows } = (await portCall(page, 'data.list', 'ticket')) as { rows: object[] };
      expect(rows).toEqual([expect.objectContaining({ title: TICKET })]);
    });

    console.log(`studio: live ${JSON.stringify(await liveTimes(page))} ms`);
    expect(errors).toEqual([]);
    await context.close();
  });
});
